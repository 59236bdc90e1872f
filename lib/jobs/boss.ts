// The job queue (pg-boss 12, in its own schema `crosscheck_jobs`) on both databases: PostgreSQL
// through its connection string, the embedded PGlite through pg-boss's PGlite adapter on the same
// instance the app uses. One queue per process and database, started on first use (never at
// import time, so `next build` never touches it). A job only says "execute run X". pg-boss keeps a worker's claim
// alive by its heartbeat and wakes idle workers by LISTEN/NOTIFY; which attempt may write to the
// run is fenced by the run row itself (runs.worker_id, lib/db/queries/runs.ts claimRun), so a
// duplicate or stale job is harmless. pg-boss 10's schema `pgboss` cannot be migrated to 12: it is
// left in place, unread, and the runs whose jobs waited there are queued again at start-up
// (queueOrphanedRuns). Scheduling is on for the portfolio watch's cron job (lib/jobs/watch-scheduler.ts).
import type { PgBoss, Queue } from 'pg-boss';
import { connectionOf, getDb, type Db, type Tx } from '@/lib/db/client';
import { activeJobIds, openJobIds, queueTx } from '@/lib/db/queries/queue';
import { listOrphanedRuns, setRunStatus } from '@/lib/db/queries/runs';
import { publishNow } from '@/lib/debate/event-log';
import { reasonText, stopPhrase } from '@/lib/i18n/failures';
import { log } from '@/lib/ops/log';
import { sleep } from '@/lib/util/http';

export const RUN_QUEUE = 'crosscheck-run';
export const BOSS_SCHEMA = 'crosscheck_jobs';

export type RunJob = { runId: string };

const NO_JOB = '00000000-0000-0000-0000-000000000000';

// Keyed by the database's connection (the PGlite instance, or the PostgreSQL URL), so a wrapper
// around a database finds the same queue.
type Bosses = Map<unknown, Promise<PgBoss>>;
const globalForBoss = globalThis as typeof globalThis & { __crosscheckBosses?: Bosses };
const bosses = (): Bosses => (globalForBoss.__crosscheckBosses ??= new Map());

/** Where failed-for-good run jobs go: their handler ends the run with a reason (failRunsOfDeadJobs). */
export const RUN_DEAD_QUEUE = 'crosscheck-run-dead';

/**
 * A worker that stops beating its heartbeat for this long (killed, lost its machine, cut off from
 * the database) loses its jobs: pg-boss's supervisor fails them into retry and another worker
 * takes the run over. pg-boss's minimum is 10 s.
 */
export const HEARTBEAT_SECONDS = 10;

/**
 * The run queue's settings. `short`: at most one waiting job per run (the singleton key), however
 * often it is sent. Each worker death and each hand-over at a deploy uses one retry, at once; a run
 * whose job runs out of them is ended by the dead-letter queue's handler, not left running.
 */
const RUN_QUEUE_SETTINGS = {
  policy: 'short',
  retryLimit: 12,
  retryDelay: 0,
  heartbeatSeconds: HEARTBEAT_SECONDS,
  // The heartbeat, not this, detects a dead worker; this only bounds a handler that hangs.
  expireInSeconds: 4 * 3600,
  notify: true,
  deadLetter: RUN_DEAD_QUEUE,
} satisfies Omit<Queue, 'name'>;

async function open(db: Db): Promise<PgBoss> {
  const { PgBoss: PgBossClass, fromPglite } = await import('pg-boss');
  const connection = connectionOf(db);
  const common = {
    schema: BOSS_SCHEMA,
    // Idle workers hear of a queued run at once instead of at their next poll.
    useListenNotify: true,
    // How soon a dead worker's lapsed heartbeat is noticed, on top of HEARTBEAT_SECONDS.
    superviseIntervalSeconds: 2,
    monitorIntervalSeconds: 2,
  };
  const boss =
    connection.kind === 'pglite'
      ? // Embedded: the portfolio watch keeps its own timer there (lib/jobs/watch-scheduler.ts).
        new PgBossClass({ ...common, db: fromPglite(connection.client), backend: 'pglite', schedule: false })
      : new PgBossClass({ ...common, connectionString: connection.url, max: 4, application_name: 'crosscheck-queue', schedule: true });
  // Without a listener an 'error' event would end the process; pg-boss retries on its own.
  boss.on('error', (err) => log.error('queue error', { component: 'worker', err }));
  await boss.start();
  await ensureQueue(boss, RUN_DEAD_QUEUE, { policy: 'standard', retryLimit: 3 });
  await ensureQueue(boss, RUN_QUEUE, RUN_QUEUE_SETTINGS);
  // A queue created by an earlier release lacks the heartbeat and the dead letter: set them.
  const { policy: _policy, ...changeable } = RUN_QUEUE_SETTINGS;
  await boss.updateQueue(RUN_QUEUE, changeable);
  // pg-boss reads a queue's settings once, on its own connection, then keeps them. Read them now:
  // inside a PGlite transaction that sends a job, that read would wait for the transaction itself.
  // (Completing a job that does not exist changes nothing.)
  await boss.complete(RUN_QUEUE, NO_JOB);
  if (connection.kind === 'pglite') {
    // One process at a time opens an embedded database (lib/db/data-dir.ts), so a job still active
    // here was a stopped process's: it goes back to the queue now, not once its heartbeat lapses.
    const stale = await activeJobIds({ db, queue: { schema: BOSS_SCHEMA, name: RUN_QUEUE } });
    if (stale.length) await boss.fail(RUN_QUEUE, stale, { message: 'The process executing this run stopped.' });
  }
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

function keyOf(db: Db): unknown {
  const connection = connectionOf(db);
  return connection.kind === 'pglite' ? connection.client : connection.url;
}

/**
 * The process's queue on `db` (the process's database by default), started on first use. On
 * PGlite, start it before a transaction that sends or cancels a job: pg-boss's own statements
 * wait for the embedded database's one connection, which the transaction holds.
 */
export async function getBoss(db?: Db): Promise<PgBoss> {
  const database = db ?? (await getDb());
  const key = keyOf(database);
  let boss = bosses().get(key);
  if (!boss) {
    boss = open(database);
    bosses().set(key, boss);
    // A failed start is not cached: the next call tries again.
    boss.catch(() => bosses().get(key) === boss && bosses().delete(key));
  }
  return boss;
}

/**
 * Puts a run on the queue (a run already waiting there is not queued twice); a worker that is idle
 * hears of it at once. With `tx`, the job commits or rolls back with the caller's writes.
 */
export async function enqueueRun({ db, runId, tx }: { db: Db; runId: string; tx?: Tx }) {
  const boss = await getBoss(db);
  await boss.send(RUN_QUEUE, { runId } satisfies RunJob, { singletonKey: runId, ...(tx ? await queueTx(tx) : {}) });
}

/**
 * Cancels the run's waiting and executing jobs, in `tx` when given (with the run's own change to
 * `cancelled`). A worker executing it has its job's signal aborted at its next heartbeat and
 * stops the run there.
 */
export async function cancelRunJobs({ db, runId, tx }: { db: Db; runId: string; tx?: Tx }) {
  const boss = await getBoss(db);
  const open = await openJobIds({ db: tx ?? db, queue: { schema: BOSS_SCHEMA, name: RUN_QUEUE }, runId });
  if (open.length) await boss.cancel(RUN_QUEUE, open, tx ? await queueTx(tx) : undefined);
}

/**
 * Queues the runs that are queued or running but have no job and no live attempt: left by a
 * release before this queue existed, by an embedded release that ran them in-process, or by a
 * restored database. Run at start-up by every process that works runs; returns how many it queued.
 */
export async function queueOrphanedRuns({ db }: { db: Db }) {
  await getBoss(db); // the queue's tables exist from here on
  const orphans = await listOrphanedRuns({ db, queue: { schema: BOSS_SCHEMA, name: RUN_QUEUE } });
  for (const { id } of orphans) await enqueueRun({ db, runId: id });
  return orphans.length;
}

/**
 * The dead-letter queue's handler: a run whose job used up its retries (its workers kept dying or
 * stopping) is failed with a reason that says so, unless it already ended; its finished steps
 * stay, and a retry continues from them.
 */
export async function failRunsOfDeadJobs({ db }: { db: Db }) {
  const boss = await getBoss(db);
  return boss.work<RunJob>(RUN_DEAD_QUEUE, { pollingIntervalSeconds: 5 }, async ([job]) => {
    const { runId } = job.data;
    const errorPhrase = stopPhrase('workersStopped', { n: RUN_QUEUE_SETTINGS.retryLimit + 1 });
    const error = reasonText(errorPhrase);
    if (await setRunStatus({ db, id: runId, status: 'failed', error, errorPhrase })) {
      log.warn('a run’s workers kept stopping; the run is failed', { component: 'worker', runId });
      await publishNow(db, { type: 'run-finished', runId, at: new Date().toISOString(), status: 'failed', error, errorPhrase });
    }
  });
}

/**
 * Stops the process's queues, or only `db`'s (after the workers have stopped: their last
 * completions get a moment). Tests stop a database's queue before they close the database.
 */
export async function stopBoss(db?: Db) {
  const keys = db ? [keyOf(db)] : [...bosses().keys()];
  const stopping = keys.map((key) => bosses().get(key)).filter((b) => b !== undefined);
  for (const key of keys) bosses().delete(key);
  await Promise.all(stopping.map(async (b) => (await b.catch(() => undefined))?.stop({ graceful: true, timeout: 2_000 })));
}
