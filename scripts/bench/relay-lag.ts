// Cross-process lag of live events through the run relay (lib/debate/relay.ts): a publisher
// process streams partial answers (step-partial, each the step's answer so far, growing) for many
// concurrent runs, each carrying its publish time, and this process measures when each arrives on
// its own bus. Needs PostgreSQL; works in a scratch database.
//   npx tsx scripts/bench/relay-lag.ts --postgres postgres://postgres@127.0.0.1:5432/postgres
//   [--runs 40] [--steps 3] [--tps 50] [--seconds 10]
// Prints one JSON object: lag percentiles in ms, partials published and received (--tps: per step and second).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { runBus } from '@/lib/debate/bus';
import { startRunRelay } from '@/lib/debate/relay';
import { percentile, round } from './stats';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const at = '2026-01-01T00:00:00.000Z';
const STAMP = /⟦([\d.]+)⟧/g;

export type RelayLagOptions = { postgresUrl: string; runs?: number; stepsPerRun?: number; tokensPerSecond?: number; seconds?: number };
export type RelayLagResult = {
  runs: number;
  stepsPerRun: number;
  tokensPerSecond: number;
  seconds: number;
  published: number;
  received: number;
  lagMs: { p50: number; p95: number; p99: number; max: number };
};

type Workload = Required<Omit<RelayLagOptions, 'postgresUrl'>>;

const now = () => performance.timeOrigin + performance.now();
const runIdOf = (i: number) => `bench-relay-run-${i}`;

async function onServer(serverUrl: string, sql: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The publisher side: runs with concurrent steps, each streaming its answer so far at a steady rate. */
async function publish(url: string, w: Workload) {
  const relay = startRunRelay({ connectionString: url, instanceId: 'bench-publisher' });
  await relay.ready;
  const bus = runBus();
  const stepIds = Array.from({ length: w.stepsPerRun }, (_, s) => `S${s + 1}`);
  for (let r = 0; r < w.runs; r++) {
    const runId = runIdOf(r);
    bus.publish({ type: 'run-started', runId, at, steps: stepIds.map((id) => ({ id, agent: 'A1', team: 'neutral', act: 'analysis', context: [] })) });
    for (const stepId of stepIds) bus.publish({ type: 'step-started', runId, stepId, at, attempt: 1 });
  }
  const perStream = Math.round(w.tokensPerSecond * w.seconds);
  const interval = 1000 / w.tokensPerSecond;
  const start = now();
  const sent = new Map<string, number>();
  // Streams start spread over one interval, as concurrent model calls would.
  const offset = (key: string) => (Number.parseInt(key.replace(/\D/g, ''), 10) * 7.3) % interval;
  while ([...sent.values()].reduce((a, b) => a + b, 0) < perStream * w.runs * w.stepsPerRun) {
    const elapsed = now() - start;
    for (let r = 0; r < w.runs; r++) {
      for (const stepId of stepIds) {
        const key = `${r}${stepId}`;
        const done = sent.get(key) ?? 0;
        const due = Math.min(perStream, Math.floor((elapsed - offset(key)) / interval) + 1);
        for (let k = done; k < due; k++) {
          // One stamp, then the prose so far: the event grows with the answer, as a partial does.
          const text = `⟦${now().toFixed(3)}⟧${'신용'.repeat(k + 1)}`;
          bus.publish({ type: 'step-partial', runId: runIdOf(r), stepId, text, output: { text } });
        }
        sent.set(key, Math.max(done, due));
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  for (let r = 0; r < w.runs; r++) bus.publish({ type: 'run-finished', runId: runIdOf(r), at, status: 'succeeded' });
  await relay.stop();
}

export async function measureRelayLag(options: RelayLagOptions): Promise<RelayLagResult> {
  const { postgresUrl, ...given } = options;
  const set = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
  const w: Workload = { runs: 40, stepsPerRun: 3, tokensPerSecond: 50, seconds: 10, ...set };
  const name = `crosscheck_bench_relay_${randomBytes(6).toString('hex')}`;
  await onServer(postgresUrl, `create database ${name}`);
  const url = Object.assign(new URL(postgresUrl), { pathname: `/${name}` }).toString();
  const relay = startRunRelay({ connectionString: url, instanceId: 'bench-receiver' });
  try {
    await relay.ready;
    const lags: number[] = [];
    let finished = 0;
    let allFinished = () => {};
    const done = new Promise<void>((resolve) => (allFinished = resolve));
    for (let r = 0; r < w.runs; r++) {
      runBus().subscribe(runIdOf(r), (event) => {
        if (event.type === 'step-partial') {
          const received = now();
          for (const m of event.text.matchAll(STAMP)) lags.push(received - Number(m[1]));
        } else if (event.type === 'run-finished' && ++finished === w.runs) allFinished();
      });
    }
    const child = spawn(
      process.execPath,
      [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), fileURLToPath(import.meta.url), '--role', 'publisher', '--postgres', url, '--workload', JSON.stringify(w)],
      { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const exited = new Promise<void>((resolve, reject) =>
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the publisher process exited with code ${code}`)))),
    );
    await Promise.all([exited, Promise.race([done, exited.then(() => new Promise<void>((resolve) => setTimeout(resolve, 5_000)))])]);
    return {
      ...w,
      published: w.runs * w.stepsPerRun * Math.round(w.tokensPerSecond * w.seconds),
      received: lags.length,
      lagMs: { p50: round(percentile(lags, 50)), p95: round(percentile(lags, 95)), p99: round(percentile(lags, 99)), max: round(Math.max(...lags)) },
    };
  } finally {
    await relay.stop();
    await onServer(postgresUrl, `drop database if exists ${name} with (force)`);
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      postgres: { type: 'string' },
      role: { type: 'string', default: 'receiver' },
      workload: { type: 'string' },
      runs: { type: 'string' },
      steps: { type: 'string' },
      tps: { type: 'string' },
      seconds: { type: 'string' },
    },
  });
  if (!values.postgres) throw new Error('Give the PostgreSQL server: --postgres postgres://user@host:5432/postgres');
  if (values.role === 'publisher') return publish(values.postgres, JSON.parse(values.workload!) as Workload);
  const number = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const result = await measureRelayLag({
    postgresUrl: values.postgres,
    runs: number(values.runs),
    stepsPerRun: number(values.steps),
    tokensPerSecond: number(values.tps),
    seconds: number(values.seconds),
  });
  console.log(JSON.stringify(result, null, 2));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(`relay-lag: ${(err as Error).message}`);
    process.exit(1);
  });
}
