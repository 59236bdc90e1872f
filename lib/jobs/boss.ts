// The PostgreSQL job queue (pg-boss 12, in its own schema `crosscheck_jobs`): one instance per
// process and database, started on first use (never at import time, so `next build` and the
// embedded mode never touch it). pg-boss 10's schema `pgboss` cannot be migrated to 12, so 12 starts
// a schema of its own and the old one is left in place, unread: the runs whose jobs waited there are
// queued again from `runs` by the reaper (requeueUnheldRuns), which also runs at start-up. A job only says "execute run X"; which worker may execute it is decided
// by the run's lease (lib/jobs/lease-keeper.ts), so a duplicate or stale job is harmless.
// Scheduling is on for the portfolio watch's cron job (lib/jobs/watch-scheduler.ts).
import type { PgBoss, Queue } from 'pg-boss';
import type { Db } from '@/lib/db/client';
import { failAbandonedRunJobs } from '@/lib/db/queries/queue';
import { listUnheldRuns } from '@/lib/db/queries/runs';
import { env } from '@/lib/env';
import { log } from '@/lib/ops/log';
import { sleep } from '@/lib/util/http';
import { RUN_QUEUED_CHANNEL } from '@/lib/jobs/wake';

export const RUN_QUEUE = 'crosscheck-run';
export const BOSS_SCHEMA = 'crosscheck_jobs';

export type RunJob = { runId: string };

type Bosses = Map<string, Promise<PgBoss>>;
const globalForBoss = globalThis as typeof globalThis & { __crosscheckBosses?: Bosses };
const bosses = (): Bosses => (globalForBoss.__crosscheckBosses ??= new Map());

export function databaseUrl(url?: string) {
  const resolved = url ?? env().DATABASE_URL;
  if (!resolved) throw new Error('The job queue needs PostgreSQL: set DATABASE_URL.');
  return resolved;
}

async function open(url: string): Promise<PgBoss> {
  const { PgBoss: PgBossClass } = await import('pg-boss');
  const boss = new PgBossClass({ connectionString: url, schema: BOSS_SCHEMA, max: 4, application_name: 'crosscheck-queue', schedule: true });
  // Without a listener an 'error' event would end the process; pg-boss retries on its own.
  boss.on('error', (err) => log.error('queue error', { component: 'worker', err }));
  await boss.start();
  await ensureQueue(boss, RUN_QUEUE, {
    // `short`: at most one waiting job per run (the singleton key), however often it is sent.
    policy: 'short',
    retryLimit: 3,
    retryDelay: 2,
    // A job stays active while its run executes; the lease, not this, detects a dead worker, and
    // the reaper fails a dead worker's job (failAbandonedJobs) long before this expiry.
    expireInSeconds: 4 * 3600,
  });
  return boss;
}

// What pg-boss's create_queue raised when processes created queues at the same moment (their first
// start on a fresh database, as a cluster's instances and workers do): a deadlock between one's
// partition attach and another's queue insert, or one partition table created twice. pg-boss 12
// attaches a table only for a `partition: true` queue, which ours are not, so these should be rare
// now; trying again stays cheap insurance.
const CREATE_RACES = new Set(['40P01', '23505', '42P07']);

/**
 * Creates a queue unless it exists. Creating is idempotent, so a create that lost a race to
 * another process (CREATE_RACES) is tried again after a short, growing, jittered pause: without
 * this, an app instance's start-up could fail on a deadlock and the instance never serve.
 */
export async function ensureQueue(
  boss: Pick<PgBoss, 'getQueue' | 'createQueue'>,
  name: string,
  options: Omit<Queue, 'name'>,
  { attempts = 6, pause = (ms: number) => sleep(ms) }: { attempts?: number; pause?: (ms: number) => Promise<void> } = {},
) {
  for (let attempt = 1; ; attempt++) {
    try {
      if (await boss.getQueue(name)) return;
      await boss.createQueue(name, options);
      return;
    } catch (err) {
      const code = (err as { code?: unknown } | null)?.code;
      if (attempt >= attempts || typeof code !== 'string' || !CREATE_RACES.has(code)) throw err;
      log.warn('queue creation raced another process; trying again', { component: 'worker', queue: name, code, attempt });
      await pause(Math.round(25 * 2 ** attempt * (0.5 + Math.random())));
    }
  }
}

/** The process's queue for `url` (DATABASE_URL by default), started on first use. */
export function getBoss(url?: string): Promise<PgBoss> {
  const key = databaseUrl(url);
  let boss = bosses().get(key);
  if (!boss) {
    boss = open(key);
    bosses().set(key, boss);
    // A failed start is not cached: the next call tries again.
    boss.catch(() => bosses().get(key) === boss && bosses().delete(key));
  }
  return boss;
}

/**
 * Puts a run on the queue (a run already waiting there is not queued twice) and wakes the idle
 * workers (lib/jobs/wake.ts), so it starts without waiting for their next poll.
 */
export async function enqueueRun(runId: string, url?: string) {
  const boss = await getBoss(url);
  await boss.send(RUN_QUEUE, { runId } satisfies RunJob, { singletonKey: runId });
  try {
    await boss.getDb().executeSql('select pg_notify($1, $2)', [RUN_QUEUED_CHANNEL, runId]);
  } catch (err) {
    // The run is queued all the same; a worker's poll picks it up.
    log.warn('could not wake the workers for a queued run', { component: 'worker', runId, err });
  }
}

/** What a job failed by the reaper says in pg-boss's `output` column. */
export const ABANDONED_JOB_OUTPUT = { message: 'The worker executing this run stopped; the run was handed to another worker.' };

/**
 * Fails the run jobs pg-boss still calls active although no live worker holds their run: a
 * worker that crashed or was killed never completes its job, and pg-boss would leave it active
 * until its expiry (hours: it must outlast the longest run), so health and metrics counted dead
 * workers' runs as executing. A job is abandoned once it has been active longer than `graceMs`
 * (a live worker claims its run within moments of taking the job) while its run has no
 * unexpired lease. A worker that was only slow finds its job already failed when it completes
 * it, which pg-boss ignores. Returns how many jobs it failed.
 */
export async function failAbandonedJobs({ db, graceMs }: { db: Db; graceMs: number }): Promise<number> {
  return failAbandonedRunJobs({ db, queue: { schema: BOSS_SCHEMA, name: RUN_QUEUE }, graceMs, output: ABANDONED_JOB_OUTPUT });
}

/**
 * The reaper's pass: fails the jobs of workers that died (failAbandonedJobs), then puts back on
 * the queue the runs nobody holds and nothing waits for; returns how many runs it queued.
 */
export async function requeueUnheldRuns({ db, url, graceMs = env().WORKER_LEASE_MS }: { db: Db; url?: string; graceMs?: number }) {
  await getBoss(url); // the queue's tables exist from here on
  const abandoned = await failAbandonedJobs({ db, graceMs });
  if (abandoned) log.info('failed the queue jobs of workers that stopped', { component: 'worker', jobs: abandoned });
  const unheld = await listUnheldRuns({ db, queue: { schema: BOSS_SCHEMA, name: RUN_QUEUE } });
  for (const { id } of unheld) await enqueueRun(id, url);
  return unheld.length;
}

/** Stops the process's queues (after the workers have stopped: their last completions get a moment). */
export async function stopBoss() {
  const all = [...bosses().values()];
  bosses().clear();
  await Promise.all(all.map(async (b) => (await b.catch(() => undefined))?.stop({ graceful: true, timeout: 2_000 })));
}
