// `npm run bench [-- --only retrieval] [--quick] [--postgres <url>]`: runs the registered
// benchmarks (scripts/bench/index.ts) on throwaway databases, each in a process of its own when
// there are several, prints one table and writes every figure to bench-results/<timestamp>.json.
// `npm run bench -- --paper [--ttft ms] [--tps n]` instead sets KPD-MADS against NAS the way the
// paper did (scripts/bench/paper.ts). Benchmarks measure; they do not fail a build, so a missed
// target is marked in the table rather than turned into an exit code.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command, Option } from 'commander';
import { benchmarks, loadBenchmarks, type BenchRow } from './bench/index';
import { runPaperBench } from './bench/paper';
import { scratchDatabaseFactory } from './bench/scratch-db';
import { describeError } from './lib/describe-error';

type Options = {
  only?: string;
  quick?: boolean;
  postgres?: string;
  list?: boolean;
  json?: boolean;
  load?: boolean;
  paper?: boolean;
  ttft?: number;
  tps?: number;
  outcomeFile?: string;
};

type Outcome = { name: string; description: string; durationMs: number; rows: BenchRow[]; error?: string };

function positiveNumber(value: string, name: string) {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number; got "${value}".`);
  return n;
}

const program = new Command('bench')
  .description('Crosscheck benchmarks, each on its own throwaway database')
  .option('--only <names>', `comma-separated benchmarks to run: ${benchmarks.map((b) => b.name).join(', ')}`)
  .option('--quick', 'a tenth of the data: checks that the benchmarks run, not how fast')
  .option('--postgres <url>', 'use fresh databases on this PostgreSQL server instead of PGlite')
  .option('--load', 'the load benchmark instead: 1, 2 and 4 queue workers, then one worker at 8 to 64 runs, on a private PostgreSQL server (about 27 minutes)')
  .option(
    '--paper',
    "the paper's comparison instead: KPD-MADS against NAS on every demo company, sequential and concurrent, and its Wilcoxon table in both tie modes (a few minutes)",
  )
  .option('--ttft <ms>', "with --paper: the fake model's time to first token (default 100; 10 with --quick)", (v) => positiveNumber(v, '--ttft'))
  .option('--tps <tokens>', "with --paper: the fake model's tokens per second (default 500; 5000 with --quick)", (v) => positiveNumber(v, '--tps'))
  .option('--list', 'list the benchmarks and exit')
  .option('--json', 'also print the keyed figures as one JSON object on the last line')
  .addOption(new Option('--outcome-file <path>', 'internal: run one benchmark and write its outcome here').hideHelp())
  .showHelpAfterError();

function targetText(row: BenchRow) {
  if (!row.target) return '';
  const parts = [];
  if (row.target.atMost !== undefined) parts.push(`≤ ${row.target.atMost}`);
  if (row.target.atLeast !== undefined) parts.push(`≥ ${row.target.atLeast}`);
  return parts.join(', ');
}

function meetsTarget(row: BenchRow): boolean | undefined {
  if (!row.target) return undefined;
  const { atMost, atLeast } = row.target;
  return (atMost === undefined || row.value <= atMost) && (atLeast === undefined || row.value >= atLeast);
}

function printTable(rows: BenchRow[]) {
  const cells = rows.map((r) => {
    const ok = meetsTarget(r);
    return [r.name, r.metric, r.value.toLocaleString('en'), r.unit, targetText(r), ok === undefined ? '' : ok ? 'ok' : 'MISSED'];
  });
  const header = ['benchmark', 'metric', 'value', 'unit', 'target', 'result'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) =>
    c
      .map((v, i) => (i === 2 ? v.padStart(widths[i]) : v.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
}

async function main() {
  const options = program.parse(process.argv).opts<Options>();
  if (options.list) {
    for (const b of [...benchmarks, ...loadBenchmarks]) console.log(`${b.name.padEnd(16)} ${b.description}`);
    return;
  }
  if (options.paper) return paper(options);
  const available = options.load ? loadBenchmarks : benchmarks;
  const wanted = options.only
    ? options.only
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : available.map((b) => b.name);
  const unknown = wanted.filter((name) => !available.some((b) => b.name === name));
  if (unknown.length) throw new Error(`Unknown benchmark ${unknown.join(', ')}. Choose from: ${available.map((b) => b.name).join(', ')}.`);

  const startedAt = new Date();
  const log = (message: string) => process.stderr.write(`${message}\n`);
  const ctx = { quick: Boolean(options.quick), scratchDatabase: scratchDatabaseFactory(options.postgres), log };
  const selected = available.filter((b) => wanted.includes(b.name));
  const runHere = async (benchmark: (typeof selected)[number]): Promise<Outcome> => {
    log(`== ${benchmark.name}: ${benchmark.description}${ctx.quick ? ' (quick)' : ''}`);
    const start = performance.now();
    try {
      const rows = await benchmark.run(ctx);
      return { name: benchmark.name, description: benchmark.description, durationMs: Math.round(performance.now() - start), rows };
    } catch (err) {
      log(`${benchmark.name} failed: ${describeError(err)}`);
      if (err instanceof Error && err.stack) log(err.stack);
      return {
        name: benchmark.name,
        description: benchmark.description,
        durationMs: Math.round(performance.now() - start),
        rows: [],
        error: describeError(err),
      };
    }
  };
  if (options.outcomeFile) {
    // A child of the run below: one benchmark, its outcome to the parent through a file.
    fs.writeFileSync(options.outcomeFile, JSON.stringify(await runHere(selected[0])));
    return;
  }
  // Several benchmarks: each in a process of its own, so no figure (peak RSS above all) carries
  // what an earlier one left in the heap or the embedded database's memory.
  const outcomes: Outcome[] = [];
  for (const benchmark of selected) outcomes.push(selected.length === 1 ? await runHere(benchmark) : await runInChild(benchmark, options));

  // Latencies mean little without knowing what else the machine was doing.
  const loadAverage = os.loadavg().map((l) => Math.round(l * 100) / 100);
  console.log('');
  printTable(outcomes.flatMap((o) => o.rows));
  console.log(`\nLoad average at the end (1/5/15 min): ${loadAverage.join(' / ')} on ${os.cpus().length} CPUs.`);
  const report = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    quick: ctx.quick,
    // The server's URL may hold a password: only the kind of database is recorded.
    backend: options.postgres ? 'postgres' : 'pglite',
    environment: {
      loadAverage,
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
      arch: os.arch(),
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
    },
    benchmarks: outcomes.map((o) => ({ ...o, rows: o.rows.map((r) => ({ ...r, met: meetsTarget(r) })) })),
  };
  const dir = path.join(process.cwd(), 'bench-results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nWrote ${path.relative(process.cwd(), file)}`);
  if (options.json) {
    // { "<benchmark>": { "<key>": value } } for the figures that name a key, e.g. engine.kpd_ideal_ratio.
    const keyed = Object.fromEntries(
      outcomes
        .map((o) => [o.name, Object.fromEntries(o.rows.filter((r) => r.key).map((r) => [r.key!, r.value]))] as const)
        .filter(([, figures]) => Object.keys(figures).length > 0),
    );
    console.log(JSON.stringify(keyed));
  }
  if (outcomes.some((o) => o.error)) process.exitCode = 1;
}

/** Runs one benchmark in a fresh `tsx` process with the same options; its log goes to this one's stderr. */
async function runInChild(benchmark: { name: string; description: string }, options: Options): Promise<Outcome> {
  const outcomeFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'crosscheck-bench-')), 'outcome.json');
  // This very script (tsx runs it as argv[1]), whatever the working directory.
  const args = ['--import', 'tsx', process.argv[1], '--only', benchmark.name, '--outcome-file', outcomeFile];
  if (options.quick) args.push('--quick');
  if (options.load) args.push('--load');
  if (options.postgres) args.push('--postgres', options.postgres);
  const start = performance.now();
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, args, { cwd: process.cwd(), stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', () => resolve(null));
    child.on('exit', (c) => resolve(c));
  });
  try {
    return JSON.parse(fs.readFileSync(outcomeFile, 'utf8')) as Outcome;
  } catch {
    const error = `the benchmark's process ended (exit code ${code}) without an outcome`;
    process.stderr.write(`${benchmark.name} failed: ${error}\n`);
    return { name: benchmark.name, description: benchmark.description, durationMs: Math.round(performance.now() - start), rows: [], error };
  } finally {
    fs.rmSync(path.dirname(outcomeFile), { recursive: true, force: true });
  }
}

/** `--paper`: its own tables rather than the benchmark table, and its figures in bench-results/<timestamp>-paper.json. */
async function paper(options: Options) {
  const startedAt = new Date();
  const log = (message: string) => process.stderr.write(`${message}\n`);
  const ctx = { quick: Boolean(options.quick), scratchDatabase: scratchDatabaseFactory(options.postgres), log };
  log(`== paper: KPD-MADS against NAS on every demo company${ctx.quick ? ' (quick)' : ''}`);
  const result = await runPaperBench(ctx, { ttftMs: options.ttft, tokensPerSecond: options.tps });
  const loadAverage = os.loadavg().map((l) => Math.round(l * 100) / 100);
  console.log('');
  console.log(result.text);
  console.log(`\nLoad average at the end (1/5/15 min): ${loadAverage.join(' / ')} on ${os.cpus().length} CPUs.`);
  const report = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    quick: ctx.quick,
    backend: options.postgres ? 'postgres' : 'pglite',
    environment: { loadAverage, node: process.version, cpus: os.cpus().length },
    paper: { latencyModel: result.latencyModel, cases: result.cases, summary: result.summary, wilcoxon: result.wilcoxon, rows: result.rows },
  };
  const dir = path.join(process.cwd(), 'bench-results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${startedAt.toISOString().replace(/[:.]/g, '-')}-paper.json`);
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nWrote ${path.relative(process.cwd(), file)}`);
  if (options.json) console.log(JSON.stringify({ paper: Object.fromEntries(result.rows.filter((r) => r.key).map((r) => [r.key!, r.value])) }));
}

try {
  await main();
} catch (err) {
  console.error(`Error: ${describeError(err)}`);
  process.exitCode = 1;
}
