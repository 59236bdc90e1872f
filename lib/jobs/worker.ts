// A queue worker: takes "execute run X" jobs from the PostgreSQL queue, up to `concurrency` at
// once (pg-boss's localConcurrency), and executes each run as an attempt that the run row names
// (claimRun in lib/db/queries/runs.ts), so no run executes in two places. pg-boss keeps the job
// claimed by its heartbeat; a worker that dies stops beating, its job goes back to the queue
// within about HEARTBEAT_SECONDS and another worker's attempt takes the run over from its last
// finished step. When pg-boss takes a job away from this worker (cancelled from any instance, or
// the heartbeat lapsed), the job's signal aborts and the run stops here. Used by `npm run worker`
// and, in each app instance, as an embedded worker (lib/startup.ts); on the embedded database the
// app's own process is the only worker.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Job } from 'pg-boss';
import { getDb, type Db } from '@/lib/db/client';
import { claimRun, getRun, releaseLease } from '@/lib/db/queries/runs';
import { releaseRun } from '@/lib/debate/engine';
import { executeRunHere } from '@/lib/jobs/runner';
import { env } from '@/lib/env';
import { BOSS_SCHEMA, enqueueRun, failRunsOfDeadJobs, getBoss, HEARTBEAT_SECONDS, queueOrphanedRuns, RUN_QUEUE, type RunJob } from '@/lib/jobs/boss';
import { log } from '@/lib/ops/log';

export type WorkerOptions = {
  concurrency: number;
  /** Stable and unique per process; a host-pid-random id by default. */
  workerId?: string;
  /** The database and its queue to work on; the process's by default. */
  db?: Db;
  pollIntervalMs?: number;
};

export type StopOptions = {
  /**
   * true: stop taking runs, wait up to `timeoutMs` for the runs in hand, then hand the rest to
   * another worker at once. false: stop the runs in hand at once and fail their jobs back to the
   * queue, as a worker that crashed would have them taken from it (only faster: no heartbeat to
   * wait out).
   */
  graceful?: boolean;
  timeoutMs?: number;
};

/** `orphansQueued`: the runs without a job that this worker queued as it started (queueOrphanedRuns). */
export type QueueWorker = { workerId: string; orphansQueued: number; stop(options?: StopOptions): Promise<void> };

/** A job this worker took while stopping, or a run it stopped without ending: pg-boss puts the job back for another worker. */
class HandedBack extends Error {
  constructor(runId: string) {
    super(`Run ${runId} was handed back to the queue by a stopping worker.`);
  }
}

export async function startWorker(options: WorkerOptions): Promise<QueueWorker> {
  const e = env();
  const workerId = options.workerId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const db = options.db ?? (await getDb());
  const boss = await getBoss(db);
  const workerLog = log.child({ component: 'worker', workerId });
  // Runs executing here, with what their execution ended as.
  const inFlight = new Map<string, Promise<string>>();
  let mode: 'working' | 'draining' | 'abandoning' = 'working';

  const execute = async (runId: string, attempt: string, signal: AbortSignal): Promise<string> => {
    const run = await getRun({ db, id: runId });
    if (!run) return 'missing';
    // Taken from this worker (cancelled, or its heartbeat lapsed and another worker has it):
    // stop here; the attempt's writes are refused from now on anyway.
    const stop = () => releaseRun(runId);
    signal.addEventListener('abort', stop);
    try {
      const result = await executeRunHere({ db, run, workerId: attempt });
      if (result.status !== 'released') return result.status;
      // Stopped without ending. Taken away by pg-boss: the job is no longer ours to settle.
      if (signal.aborted) return 'released';
      if (mode === 'abandoning') throw new HandedBack(runId);
      // Handed back gracefully: clear the attempt and queue the run so another worker resumes it
      // now; this job then completes. If either write fails, failing the job puts it back instead.
      if (await releaseLease({ db, id: runId, workerId: attempt })) await enqueueRun({ db, runId });
      return 'released';
    } finally {
      signal.removeEventListener('abort', stop);
    }
  };

  const handle = async ([job]: Job<RunJob>[]) => {
    const { runId } = job.data;
    if (mode !== 'working') throw new HandedBack(runId);
    // A new try of a run still stopping here (its job was taken from this worker): let it stop first.
    await inFlight.get(runId);
    const attempt = `${workerId}/${job.id}/${job.retryCount}`;
    // Finished, or a live attempt of another job holds it: this job has nothing to do.
    if (!(await claimRun({ db, id: runId, attempt, queue: { schema: BOSS_SCHEMA, name: RUN_QUEUE } }))) return;
    workerLog.info('executing run', { runId, attempt });
    const execution = execute(runId, attempt, job.signal).finally(() => inFlight.delete(runId));
    inFlight.set(runId, execution);
    const status = await execution;
    workerLog.info('run ended here', { runId, status });
  };

  const poll = (options.pollIntervalMs ?? e.WORKER_POLL_INTERVAL_MS) / 1000;
  const workId = await boss.work<RunJob>(
    RUN_QUEUE,
    {
      localConcurrency: options.concurrency,
      batchSize: 1,
      pollingIntervalSeconds: poll,
      // A backstop only: a queued run's NOTIFY wakes an idle slot at once.
      notifyPollingIntervalSeconds: Math.max(poll, 2),
      heartbeatRefreshSeconds: HEARTBEAT_SECONDS / 5,
    },
    handle,
  );
  await failRunsOfDeadJobs({ db });
  const orphans = await queueOrphanedRuns({ db });
  if (orphans) workerLog.info('queued runs that had no job', { runs: orphans });

  return {
    workerId,
    orphansQueued: orphans,
    async stop({ graceful = true, timeoutMs = e.WORKER_SHUTDOWN_TIMEOUT_MS }: StopOptions = {}) {
      if (mode !== 'working') return;
      mode = graceful ? 'draining' : 'abandoning';
      // Stop fetching only: `wait: false`, or pg-boss would wait here for the runs in hand, which
      // the lines below give `timeoutMs` and then hand back.
      await boss.offWork(RUN_QUEUE, { id: workId, wait: false });
      if (graceful && inFlight.size) {
        workerLog.info('stopping: waiting for the runs in hand', { runs: inFlight.size, timeoutMs });
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([Promise.allSettled(inFlight.values()), new Promise((r) => (timer = setTimeout(r, timeoutMs)))]);
        clearTimeout(timer);
      }
      for (const runId of inFlight.keys()) releaseRun(runId);
      await Promise.allSettled(inFlight.values());
    },
  };
}
