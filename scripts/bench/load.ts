// `npm run bench -- --load`: sustained KPD-MADS throughput of the PostgreSQL job queue with 1, 2
// and 4 worker processes (`scripts/worker.ts`, WORKER_CONCURRENCY runs each) on one private
// PostgreSQL server, against the fake model server at the standard latency model (400 ms to the
// first token, 50 tokens/s), in a process of its own. A closed loop keeps every worker slot busy:
// when a run ends the next one is enqueued, so the queue never piles up and the time from
// enqueue to first token is the queue's own latency under full load. Also: database connections
// in use, memory per worker, and the relay's cross-process token lag.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type DatabaseHandle } from '@/lib/db/client';
import { runBus } from '@/lib/debate/bus';
import { createRun } from '@/lib/debate/engine';
import { startRunRelay, type RunRelay } from '@/lib/debate/relay';
import { enqueueRun, stopBoss } from '@/lib/jobs/boss';
import { createOpenAiProvider } from '@/lib/llm/openai';
import { startPgCluster, type PgCluster } from '../cluster/pg-cluster';
import { migrateAndSeed, startFakeModel, startWorker, writeReferenceScript, type Proc } from '../cluster/processes';
import { measureRelayLag } from './relay-lag';
import { median, percentile, round } from './stats';
import type { Benchmark, BenchContext, BenchRow } from './types';

// A small pool that clears the evidence threshold (lib/debate/sufficiency.ts): Travelers' three
// items on three factors. The demo's thin-evidence draft (Taeyoung E&C, one filing) ends before any step.
const LOAD_CASE = { companyId: 'travelers-companies', asOfDate: '2021-06-30' } as const;

const WORKER_COUNTS = [1, 2, 4] as const;
const CONCURRENCY = 4;
const STEPS_PER_RUN = 11;

type Phase = { workers: number; stepsPerSecond: number; runsPerHour: number; firstTokenMs: number[]; connections: number[]; workerRssMb: number[] };

function rssMb(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

async function phase(ctx: BenchContext, handle: DatabaseHandle, url: string, env: Record<string, string>, workerCount: number, windowMs: number, warmupMs: number): Promise<Phase> {
  const workers: Proc[] = [];
  for (let i = 0; i < workerCount; i++) workers.push(await startWorker(`worker-${i + 1}`, { ...env, WORKER_CONCURRENCY: String(CONCURRENCY) }));
  const provider = createOpenAiProvider({ apiKey: 'bench', baseURL: 'http://unused.invalid/v1', model: 'fake-llm' });
  const slots = workerCount * CONCURRENCY;
  const started = performance.now();
  const measureFrom = started + warmupMs;
  const measureTo = measureFrom + windowMs;
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
    const run = await createRun({ db: handle.db, protocolId: 'kpd-mads', companyId: LOAD_CASE.companyId, provider, params: { asOf: LOAD_CASE.asOfDate, language: 'en' } });
    const enqueuedAt = performance.now();
    let firstToken = true;
    const { unsubscribe } = runBus().subscribe(run.id, (event) => {
      const now = performance.now();
      if (event.type === 'token' && firstToken) {
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
    });
    unsubscribes.push(unsubscribe);
    await enqueueRun(run.id, url);
  };
  for (let i = 0; i < slots; i++) await launch();

  const sampler = setInterval(() => {
    void handle.db
      .execute("select count(*)::int as n from pg_stat_activity where datname = current_database()")
      .then((r) => connections.push((r as unknown as { rows: { n: number }[] }).rows[0].n), () => {});
    for (const w of workers) {
      const mb = rssMb(w.child.pid!);
      if (mb) workerRssMb.push(mb);
    }
  }, 1000);
  while (performance.now() < measureTo) await new Promise((r) => setTimeout(r, 1000));
  stopping = true;
  clearInterval(sampler);
  ctx.log(`  ${workerCount} worker(s): ${stepsInWindow} steps in ${windowMs / 1000} s; ${inFlight} runs still in flight are abandoned`);
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
  await handle.db.execute("delete from pgboss.job where name = 'crosscheck-run'");
  const stepsPerSecond = stepsInWindow / (windowMs / 1000);
  return { workers: workerCount, stepsPerSecond, runsPerHour: (stepsPerSecond * 3600) / STEPS_PER_RUN, firstTokenMs, connections, workerRssMb };
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
    let relay: RunRelay | undefined;
    try {
      ctx.log('starting a private PostgreSQL server and loading the demo data …');
      cluster = await startPgCluster();
      // One session secret for the seed and every worker: the audit log is keyed from it.
      const authSecret = randomBytes(32).toString('base64');
      migrateAndSeed(cluster.url, { AUTH_SECRET: authSecret });
      const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'crosscheck-load-')), 'script.json');
      writeReferenceScript({ databaseUrl: cluster.url, companyId: LOAD_CASE.companyId, asOf: LOAD_CASE.asOfDate, language: 'en', out: script });
      const model = await startFakeModel({ ttftMs: 400, tokensPerSecond: 50, script });
      fake = model;
      handle = await openDatabase({ kind: 'postgres', url: cluster.url, poolSize: 4 });
      relay = startRunRelay({ connectionString: cluster.url, instanceId: 'bench' });
      await relay.ready;
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
        phases.push(await phase(ctx, handle, cluster.url, env, n, windowMs, warmupMs));
      }
      ctx.log('relay lag between two processes …');
      const lag = await measureRelayLag({ postgresUrl: cluster.url, seconds: ctx.quick ? 4 : 10 });

      const [one] = phases;
      const rows: BenchRow[] = [];
      for (const p of phases) {
        rows.push({ name: 'load', metric: `${p.workers} worker(s): runs per hour`, value: round(p.runsPerHour, 1), unit: 'runs/h', key: `runs_per_hour_${p.workers}w` });
        if (p.workers > 1) {
          const target = p.workers === 2 ? 1.8 : 3.4;
          rows.push({ name: 'load', metric: `${p.workers} workers vs 1: throughput`, value: round(p.stepsPerSecond / one.stepsPerSecond, 2), unit: '×', target: { atLeast: target }, key: `scaling_${p.workers}w` });
        }
        rows.push({ name: 'load', metric: `${p.workers} worker(s): enqueue → first token p95`, value: Math.round(percentile(p.firstTokenMs, 95)), unit: 'ms', target: { atMost: 1000 }, key: `first_token_p95_ms_${p.workers}w` });
        rows.push({ name: 'load', metric: `${p.workers} worker(s): enqueue → first token median`, value: Math.round(median(p.firstTokenMs)), unit: 'ms', key: `first_token_median_ms_${p.workers}w` });
        rows.push({ name: 'load', metric: `${p.workers} worker(s): database connections in use (max)`, value: Math.max(...p.connections), unit: 'connections', key: `db_connections_max_${p.workers}w` });
        rows.push({ name: 'load', metric: `${p.workers} worker(s): memory per worker (median RSS)`, value: Math.round(median(p.workerRssMb)), unit: 'MB', key: `worker_rss_mb_${p.workers}w` });
      }
      rows.push({ name: 'load', metric: 'cross-process token lag p95', value: round(lag.lagMs.p95, 1), unit: 'ms', target: { atMost: 150 }, key: 'relay_lag_p95_ms' });
      rows.push({ name: 'load', metric: 'cross-process token lag median', value: round(lag.lagMs.p50, 1), unit: 'ms', key: 'relay_lag_median_ms' });
      return rows;
    } finally {
      await relay?.stop().catch(() => {});
      await stopBoss().catch(() => {});
      await handle?.close().catch(() => {});
      await fake?.stop().catch(() => {});
      cluster?.stop();
    }
  },
};
