// A queue worker: takes "execute run X" jobs from the PostgreSQL queue, up to `concurrency` at
// once, and executes each run under a lease so that no run executes in two places and a dead
// worker's run is taken over within about one lease. Every worker also runs a reaper that puts
// runs nobody holds back on the queue. Used by `npm run worker` and, in each app instance on
// PostgreSQL, as an embedded worker (lib/startup.ts).
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Job } from 'pg-boss';
import { getDb, type Db } from '@/lib/db/client';
import { isDatabaseUnavailable } from '@/lib/db/errors';
import { claimRun, getRun, releaseLease } from '@/lib/db/queries/runs';
import { releaseRun } from '@/lib/debate/engine';
import { executeRunHere } from '@/lib/jobs/runner';
import { env } from '@/lib/env';
import { databaseUrl, enqueueRun, getBoss, requeueUnheldRuns, RUN_QUEUE, type RunJob } from '@/lib/jobs/boss';
import { startLeaseKeeper, type LeaseTiming } from '@/lib/jobs/lease-keeper';
import { listenForQueuedRuns } from '@/lib/jobs/wake';
import { log } from '@/lib/ops/log';

export type WorkerOptions = {
  concurrency: number;
  /** Stable and unique per process; a host-pid-random id by default. */
  workerId?: string;
  /** The database and queue to work on; the process's (DATABASE_URL) by default. */
  db?: Db;
  url?: string;
  leaseMs?: number;
  renewMs?: number;
  reaperIntervalMs?: number;
  pollIntervalMs?: number;
};

export type StopOptions = {
  /**
   * true: stop taking runs, wait up to `timeoutMs` for the runs in hand, then hand the rest to
   * another worker at once. false: drop everything like a crashed process would, leaving the
   * leases to run out (for tests of the takeover).
   */
  graceful?: boolean;
  timeoutMs?: number;
};

export type QueueWorker = { workerId: string; stop(options?: StopOptions): Promise<void> };

export async function startWorker(options: WorkerOptions): Promise<QueueWorker> {
  const e = env();
  const workerId = options.workerId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const timing: LeaseTiming = { leaseMs: options.leaseMs ?? e.WORKER_LEASE_MS, renewMs: options.renewMs ?? e.WORKER_LEASE_RENEW_MS };
  if (timing.renewMs * 2 > timing.leaseMs) {
    throw new Error(`The lease renewal period (${timing.renewMs} ms) must be at most half the lease (${timing.leaseMs} ms), or a slow renewal loses runs.`);
  }
  const db = options.db ?? (await getDb());
  const url = options.url;
  const boss = await getBoss(url);
  const workerLog = log.child({ component: 'worker', workerId });
  // Runs executing here, with what their execution ended as.
  const inFlight = new Map<string, Promise<string>>();
  let mode: 'working' | 'draining' | 'abandoning' = 'working';

  const keeper = startLeaseKeeper({ db, workerId, ...timing, held: () => [...inFlight.keys()] });

  const execute = async (runId: string): Promise<string> => {
    const run = await getRun({ db, id: runId });
    if (!run) return 'missing';
    const result = await executeRunHere({ db, run, workerId });
    if (result.status !== 'released') {
      // A final status clears the lease itself, except when the run was cancelled elsewhere.
      await releaseLease({ db, id: runId, workerId });
      return result.status;
    }
    // Handed back gracefully: clear the lease and queue the run so another worker resumes it
    // now. A lost lease (another worker holds the run) or a crash-like stop leaves it alone.
    try {
      if (mode !== 'abandoning' && (await releaseLease({ db, id: runId, workerId }))) await enqueueRun(runId, url);
    } catch (err) {
      // Handed over because the database went away: the lease runs out and a reaper re-queues it.
      if (!isDatabaseUnavailable(err)) throw err;
    }
    return 'released';
  };

  const handle = async ([job]: Job<RunJob>[]) => {
    const { runId } = job.data;
    if (mode !== 'working' || inFlight.has(runId)) return;
    // Held by a live worker, or finished: this job has nothing to do.
    if (!(await claimRun({ db, id: runId, workerId, leaseMs: timing.leaseMs }))) return;
    workerLog.info('executing run', { runId });
    const execution = execute(runId).finally(() => inFlight.delete(runId));
    inFlight.set(runId, execution);
    const status = await execution;
    workerLog.info('run ended here', { runId, status });
  };

  const workIds: string[] = [];
  // `concurrency` single-job workers, so a free slot takes the next run at once. (pg-boss 12's
  // `localConcurrency` would do the same; it comes with the heartbeat step of
  // docs/jobs-queue-spike.md, which also drops our wake-up and lease keeper.)
  for (let i = 0; i < options.concurrency; i++) {
    workIds.push(await boss.work<RunJob>(RUN_QUEUE, { batchSize: 1, pollingIntervalSeconds: (options.pollIntervalMs ?? e.WORKER_POLL_INTERVAL_MS) / 1000 }, handle));
  }
  // A queued run wakes every slot: idle ones fetch now (one gets the job, the rest find nothing),
  // busy ones fetch straight after their run instead of sleeping first.
  const wake = listenForQueuedRuns({
    url: databaseUrl(url),
    name: workerId,
    log: workerLog,
    onQueued: () => {
      if (mode === 'working') for (const id of workIds) boss.notifyWorker(id);
    },
  });
  await wake.ready;

  let reaping: Promise<void> | undefined;
  const reap = async () => {
    const requeued = await requeueUnheldRuns({ db, url, graceMs: timing.leaseMs });
    if (requeued) workerLog.info('re-queued runs that no worker held', { runs: requeued });
  };
  const reaper = setInterval(() => {
    if (reaping || mode !== 'working') return;
    reaping = reap()
      .catch((err) => workerLog.error('could not re-queue unheld runs', { err }))
      .finally(() => (reaping = undefined));
  }, options.reaperIntervalMs ?? e.WORKER_REAPER_INTERVAL_MS);
  reaper.unref();

  return {
    workerId,
    async stop({ graceful = true, timeoutMs = e.WORKER_SHUTDOWN_TIMEOUT_MS }: StopOptions = {}) {
      if (mode !== 'working') return;
      mode = graceful ? 'draining' : 'abandoning';
      clearInterval(reaper);
      await wake.stop();
      // Stop fetching only: `wait: false`, or pg-boss would wait here for the runs in hand, which
      // the lines below give `timeoutMs` and then hand back.
      await Promise.all(workIds.map((id) => boss.offWork(RUN_QUEUE, { id, wait: false })));
      if (graceful && inFlight.size) {
        workerLog.info('stopping: waiting for the runs in hand', { runs: inFlight.size, timeoutMs });
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([Promise.allSettled(inFlight.values()), new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
        clearTimeout(timer);
      }
      if (!graceful) await keeper.stop();
      for (const runId of inFlight.keys()) releaseRun(runId);
      await Promise.allSettled([...inFlight.values(), reaping]);
      await keeper.stop();
    },
  };
}
