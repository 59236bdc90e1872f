// `npm run bench -- --load`: sustained KPD-MADS throughput of the PostgreSQL job queue with 1, 2
// and 4 worker processes (`scripts/worker.ts`, WORKER_CONCURRENCY runs each) on one private
// PostgreSQL server, against the fake model server at the standard latency model (400 ms to the
// first token, 50 tokens/s), in a process of its own. A closed loop keeps every worker slot busy:
// when a run ends the next one is enqueued, so the queue never piles up and the time from
// enqueue to first token is the queue's own latency under full load. Also: database connections
// in use and memory per worker, with the runs followed as a viewer follows them: through
// their event logs in the database (lib/debate/event-log.ts).
//
// Then one worker at 8, 16, 32 and 64 runs at once (WORKER_CONCURRENCY), the sweep that sets its
// default (docs/operations.md): CPU per run, memory, and, measured inside the worker by
// worker-probe.ts, its event-loop delay and token lag (from the model writing a chunk to the
// worker reading it; the fake model stamps every chunk).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type DatabaseHandle } from '@/lib/db/client';
import { createRun } from '@/lib/debate/engine';
import { LogTail } from '@/lib/debate/log-tail';
import type { RunEvent } from '@/lib/domain/protocol';
import { BOSS_SCHEMA, enqueueRun, RUN_QUEUE, stopBoss } from '@/lib/jobs/boss';
import { createOpenAiProvider } from '@/lib/llm/openai';
import { startPgCluster, type PgCluster } from '../cluster/pg-cluster';
import { migrateAndSeed, startFakeModel, startWorker, writeReferenceScript, type Proc } from '../cluster/processes';
import type { ProbeSummary } from './worker-probe';
import { median, percentile, round } from './stats';
import type { Benchmark, BenchContext, BenchRow } from './types';

// A small pool that clears the evidence threshold (lib/debate/sufficiency.ts): Travelers' three
// items on three factors. The demo's thin-evidence draft (Taeyoung E&C, one filing) ends before any step.
const LOAD_CASE = { companyId: 'travelers-companies', asOfDate: '2021-06-30' } as const;

const WORKER_COUNTS = [1, 2, 4] as const;
const CONCURRENCY = 4;
/** Runs at once in the one-worker sweep; 32 carries the targets. */
const SWEEP = [8, 16, 32, 64] as const;
const SWEEP_TARGET = { concurrency: 32, tokenLagP95Ms: 50, rssMb: 300 } as const;
const STEPS_PER_RUN = 11;
const PROBE = path.join(import.meta.dirname, 'worker-probe.ts');

export type Phase = {
  workers: number;
  concurrency: number;
  windowMs: number;
  stepsPerSecond: number;
  runsPerHour: number;
  firstTokenMs: number[];
  connections: number[];
  workerRssMb: number[];
  /** With a probe in the (one) worker: what it measured over the window. */
  probe?: ProbeSummary;
};

/** CPU seconds (user and system) a process has used, from /proc (Linux). */
function cpuSeconds(pid: number): number | undefined {
  try {
    // Fields after the command name, which may hold spaces: utime and stime are the 12th and 13th.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

function rssMb(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

type PhaseOptions = { workers: number; concurrency: number; windowMs: number; warmupMs: number; probe?: boolean };

async function phase(
  ctx: BenchContext,
  handle: DatabaseHandle,
  tail: LogTail,
  url: string,
  env: Record<string, string>,
  options: PhaseOptions,
): Promise<Phase> {
  const { workers: workerCount, concurrency, windowMs, warmupMs } = options;
  const workers: Proc[] = [];
  // The probe's window is in wall-clock time; it starts when the runs do, after every worker is ready.
  const probeOut = options.probe ? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'crosscheck-probe-')), 'probe.json') : undefined;
  const probeEnv = (from: number): Record<string, string> =>
    probeOut ? { BENCH_PROBE_OUT: probeOut, BENCH_PROBE_FROM: String(from), BENCH_PROBE_TO: String(from + windowMs) } : {};
  const expectedStart = Date.now() + 15_000 + warmupMs;
  for (let i = 0; i < workerCount; i++) {
    workers.push(
      await startWorker(
        `worker-${i + 1}`,
        { ...env, WORKER_CONCURRENCY: String(concurrency), ...probeEnv(expectedStart) },
        { preload: probeOut ? [PROBE] : [] },
      ),
    );
  }
  const provider = createOpenAiProvider({ apiKey: 'bench', baseURL: 'http://unused.invalid/v1', model: 'fake-llm' });
  const slots = workerCount * concurrency;
  // Wait for the probe's window to line up with ours (the worker may have started quicker than allowed for).
  const started = performance.now() + Math.max(0, expectedStart - warmupMs - Date.now());
  while (performance.now() < started) await new Promise((r) => setTimeout(r, 100));
  const measureFrom = started + warmupMs;
  const measureTo = measureFrom + windowMs;
  const cpuAtStart: (number | undefined)[] = [];
  const cpuAtEnd: (number | undefined)[] = [];
  const firstTokenMs: number[] = [];
  const connections: number[] = [];
  const workerRssMb: number[] = [];
  let stepsInWindow = 0;
  const slow: { runId: string; enqueuedAt: number; ms: number }[] = [];
  let stopping = false;
  const unsubscribes: (() => void)[] = [];

  let inFlight = 0;
  const launch = async (): Promise<void> => {
    inFlight++;
    const run = await createRun({
      db: handle.db,
      protocolId: 'kpd-mads',
      companyId: LOAD_CASE.companyId,
      provider,
      params: { asOf: LOAD_CASE.asOfDate, language: 'en' },
    });
    const enqueuedAt = performance.now();
    let firstToken = true;
    // As a viewer follows it: the run's log, written by the worker, read here.
    const onEvent = (event: RunEvent) => {
      const now = performance.now();
      // The first partial answer in the log: the first text a viewer could see.
      if (event.type === 'step-partial' && firstToken) {
        firstToken = false;
        if (enqueuedAt >= measureFrom && enqueuedAt <= measureTo) firstTokenMs.push(now - enqueuedAt);
        if (now - enqueuedAt > 2000) slow.push({ runId: run.id, enqueuedAt: performance.timeOrigin + enqueuedAt, ms: Math.round(now - enqueuedAt) });
      } else if (event.type === 'step-done' && now >= measureFrom && now <= measureTo) stepsInWindow++;
      else if (event.type === 'run-finished') {
        unsubscribe();
        inFlight--;
        if (event.status !== 'succeeded') ctx.log(`  run ${run.id} ended ${event.status}`);
        if (!stopping) void launch();
      }
    };
    const unsubscribe = tail.follow(
      run.id,
      0,
      (events) => events.forEach((e) => onEvent(e.event)),
      () => {},
    );
    unsubscribes.push(unsubscribe);
    await enqueueRun({ db: handle.db, runId: run.id });
  };
  for (let i = 0; i < slots; i++) await launch();

  const sampler = setInterval(() => {
    void handle.db.execute('select count(*)::int as n from pg_stat_activity where datname = current_database()').then(
      (r) => connections.push((r as unknown as { rows: { n: number }[] }).rows[0].n),
      () => {},
    );
    for (const w of workers) {
      const mb = rssMb(w.child.pid!);
      if (mb) workerRssMb.push(mb);
    }
  }, 1000);
  while (performance.now() < measureFrom) await new Promise((r) => setTimeout(r, 100));
  for (const w of workers) cpuAtStart.push(cpuSeconds(w.child.pid!));
  while (performance.now() < measureTo) await new Promise((r) => setTimeout(r, 1000));
  for (const w of workers) cpuAtEnd.push(cpuSeconds(w.child.pid!));
  stopping = true;
  clearInterval(sampler);
  ctx.log(`  ${workerCount} worker(s) × ${concurrency}: ${stepsInWindow} steps in ${windowMs / 1000} s; ${inFlight} runs still in flight are abandoned`);
  let probe: ProbeSummary | undefined;
  if (probeOut) {
    // The probe writes its summary when its window closes.
    const until = Date.now() + 10_000;
    while (!fs.existsSync(probeOut) && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    if (!fs.existsSync(probeOut)) throw new Error(`the worker's probe wrote nothing to ${probeOut}`);
    probe = JSON.parse(fs.readFileSync(probeOut, 'utf8')) as ProbeSummary;
    // CPU from /proc when it is there (it counts the worker's threads alike).
    const fromProc = cpuAtEnd[0] !== undefined && cpuAtStart[0] !== undefined ? (cpuAtEnd[0] - cpuAtStart[0]) * 1000 : undefined;
    if (fromProc !== undefined) probe.cpuMs = fromProc;
    fs.rmSync(path.dirname(probeOut), { recursive: true, force: true });
  }
  // Where a slow first token's time went: when a worker picked the run up, from its log.
  for (const s of slow.slice(0, 5)) {
    const line = workers.flatMap((w) => w.output().split('\n')).find((l) => l.includes(s.runId) && l.includes('executing run'));
    const picked = line ? Date.parse((JSON.parse(line) as { ts: string }).ts) - s.enqueuedAt : NaN;
    ctx.log(`  slow first token: ${s.ms} ms after enqueue, picked up after ${Math.round(picked)} ms (run ${s.runId})`);
  }
  await Promise.all(workers.map((w) => w.kill()));
  for (const u of unsubscribes) u();
  // Leave nothing behind for the next phase: the abandoned runs are cancelled outright.
  await handle.db.execute("update runs set status = 'cancelled', worker_id = null, lease_expires_at = null where status in ('queued', 'running')");
  await handle.db.execute(`delete from ${BOSS_SCHEMA}.job where name = '${RUN_QUEUE}'`);
  const stepsPerSecond = stepsInWindow / (windowMs / 1000);
  return {
    workers: workerCount,
    concurrency,
    windowMs,
    stepsPerSecond,
    runsPerHour: (stepsPerSecond * 3600) / STEPS_PER_RUN,
    firstTokenMs,
    connections,
    workerRssMb,
    probe,
  };
}

/** The rows of one step of the one-worker sweep (its probe is required). */
export function sweepRows(p: Phase): BenchRow[] {
  const n = p.concurrency;
  const name = 'load: one worker';
  const targeted = n === SWEEP_TARGET.concurrency;
  const probe = p.probe!;
  // Runs' worth of steps finished in the window: the CPU one run costs is the window's CPU over them.
  const runsInWindow = (p.stepsPerSecond * p.windowMs) / 1000 / STEPS_PER_RUN;
  return [
    { name, metric: `${n} at once: runs per hour`, value: round(p.runsPerHour, 1), unit: 'runs/h', key: `runs_per_hour_c${n}` },
    { name, metric: `${n} at once: enqueue → first token p95`, value: Math.round(percentile(p.firstTokenMs, 95)), unit: 'ms', key: `first_token_p95_ms_c${n}` },
    {
      name,
      metric: `${n} at once: token lag p95`,
      value: round(percentile(probe.tokenLagMs, 95), 1),
      unit: 'ms',
      ...(targeted ? { target: { atMost: SWEEP_TARGET.tokenLagP95Ms } } : {}),
      key: `token_lag_p95_ms_c${n}`,
    },
    { name, metric: `${n} at once: token lag p99`, value: round(percentile(probe.tokenLagMs, 99), 1), unit: 'ms', key: `token_lag_p99_ms_c${n}` },
    { name, metric: `${n} at once: event-loop delay p99`, value: round(probe.loopDelayMs.p99, 1), unit: 'ms', key: `loop_delay_p99_ms_c${n}` },
    { name, metric: `${n} at once: event-loop utilisation`, value: round(100 * probe.eventLoopUtilization, 1), unit: '%', key: `loop_utilization_pct_c${n}` },
    { name, metric: `${n} at once: CPU`, value: round((100 * probe.cpuMs) / p.windowMs, 1), unit: '% of a core', key: `cpu_pct_c${n}` },
    {
      name,
      metric: `${n} at once: CPU per run`,
      value: round(runsInWindow > 0 ? probe.cpuMs / 1000 / runsInWindow : NaN, 2),
      unit: 's',
      key: `cpu_s_per_run_c${n}`,
    },
    {
      name,
      metric: `${n} at once: RSS (max)`,
      value: Math.round(Math.max(...p.workerRssMb)),
      unit: 'MB',
      ...(targeted ? { target: { atMost: SWEEP_TARGET.rssMb } } : {}),
      key: `worker_rss_max_mb_c${n}`,
    },
  ];
}

export const loadBenchmark: Benchmark = {
  name: 'load',
  description: 'PostgreSQL job queue: sustained KPD-MADS runs per hour with 1, 2 and 4 worker processes (only with --load)',
  async run(ctx) {
    const windowMs = ctx.quick ? 40_000 : 180_000;
    const warmupMs = ctx.quick ? 10_000 : 30_000;
    let cluster: PgCluster | undefined;
    let fake: Proc | undefined;
    let handle: DatabaseHandle | undefined;
    let tail: LogTail | undefined;
    try {
      ctx.log('starting a private PostgreSQL server and loading the demo data …');
      cluster = await startPgCluster();
      // One session secret for the seed and every worker: the audit log is keyed from it.
      const authSecret = randomBytes(32).toString('base64');
      migrateAndSeed(cluster.url, { AUTH_SECRET: authSecret });
      const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'crosscheck-load-')), 'script.json');
      writeReferenceScript({
        databaseUrl: cluster.url,
        companyId: LOAD_CASE.companyId,
        asOf: LOAD_CASE.asOfDate,
        language: 'en',
        out: script,
        env: { AUTH_SECRET: authSecret },
      });
      const model = await startFakeModel({ ttftMs: 400, tokensPerSecond: 50, script, stamp: true });
      fake = model;
      handle = await openDatabase({ kind: 'postgres', url: cluster.url, poolSize: 4 });
      const db = handle.db;
      tail = new LogTail(async () => db, { connectionString: cluster.url });
      const env = {
        DATABASE_URL: cluster.url,
        AUTH_SECRET: authSecret,
        OPENAI_BASE_URL: model.url,
        OPENAI_API_KEY: 'fake-key-for-bench',
        OPENAI_MODEL: 'fake-llm',
        LOG_FORMAT: 'json',
      };
      const phases: Phase[] = [];
      for (const n of WORKER_COUNTS) {
        ctx.log(`${n} worker(s) × ${CONCURRENCY} runs, ${(warmupMs + windowMs) / 1000} s …`);
        phases.push(await phase(ctx, handle, tail, cluster.url, env, { workers: n, concurrency: CONCURRENCY, windowMs, warmupMs }));
      }
      const sweep: Phase[] = [];
      for (const n of SWEEP) {
        ctx.log(`one worker × ${n} runs, ${(warmupMs + windowMs) / 1000} s …`);
        // The process's cap on requests in flight to one model (OPENAI_MAX_CONCURRENT_REQUESTS,
        // default 32) would bind before the worker does: lifted, so the sweep measures the worker.
        const uncapped = { ...env, OPENAI_MAX_CONCURRENT_REQUESTS: String(4 * n) };
        sweep.push(await phase(ctx, handle, tail, cluster.url, uncapped, { workers: 1, concurrency: n, windowMs, warmupMs, probe: true }));
      }

      const [one] = phases;
      const rows: BenchRow[] = [];
      for (const p of phases) {
        rows.push({
          name: 'load',
          metric: `${p.workers} worker(s): runs per hour`,
          value: round(p.runsPerHour, 1),
          unit: 'runs/h',
          key: `runs_per_hour_${p.workers}w`,
        });
        if (p.workers > 1) {
          const target = p.workers === 2 ? 1.8 : 3.4;
          rows.push({
            name: 'load',
            metric: `${p.workers} workers vs 1: throughput`,
            value: round(p.stepsPerSecond / one.stepsPerSecond, 2),
            unit: '×',
            target: { atLeast: target },
            key: `scaling_${p.workers}w`,
          });
        }
        rows.push({
          name: 'load',
          metric: `${p.workers} worker(s): enqueue → first token p95`,
          value: Math.round(percentile(p.firstTokenMs, 95)),
          unit: 'ms',
          target: { atMost: 1000 },
          key: `first_token_p95_ms_${p.workers}w`,
        });
        rows.push({
          name: 'load',
          metric: `${p.workers} worker(s): enqueue → first token median`,
          value: Math.round(median(p.firstTokenMs)),
          unit: 'ms',
          key: `first_token_median_ms_${p.workers}w`,
        });
        rows.push({
          name: 'load',
          metric: `${p.workers} worker(s): database connections in use (max)`,
          value: Math.max(...p.connections),
          unit: 'connections',
          key: `db_connections_max_${p.workers}w`,
        });
        rows.push({
          name: 'load',
          metric: `${p.workers} worker(s): memory per worker (median RSS)`,
          value: Math.round(median(p.workerRssMb)),
          unit: 'MB',
          key: `worker_rss_mb_${p.workers}w`,
        });
      }
      for (const p of sweep) rows.push(...sweepRows(p));
      return rows;
    } finally {
      tail?.stop();
      await stopBoss().catch(() => {});
      await handle?.close().catch(() => {});
      await fake?.stop().catch(() => {});
      cluster?.stop();
    }
  },
};
