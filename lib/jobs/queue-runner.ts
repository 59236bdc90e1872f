// The runner on PostgreSQL: starting a run puts it on the job queue for whichever worker is
// free (lib/jobs/worker.ts), in this instance or another. Cancelling works from any instance:
// the database says `cancelled` at once, and the worker executing the run stops at its next
// lease renewal (or at once when that worker is in this process).
import type { Db } from '@/lib/db/client';
import { cancelActiveRun, getRun } from '@/lib/db/queries/runs';
import { publishNow } from '@/lib/debate/event-log';
import { cancelRun, isRetryable, isRunActive, retryFailedSteps } from '@/lib/debate/engine';
import { reasonText, stopPhrase } from '@/lib/i18n/failures';
import { notRetryable, RunStateError, type RetryOptions, type RunRunner } from '@/lib/jobs/run-runner';
import { enqueueRun } from '@/lib/jobs/boss';
import { log } from '@/lib/ops/log';

async function start({ db, runId }: { db: Db; runId: string }) {
  const run = await getRun({ db, id: runId });
  if (!run) throw new RunStateError(`Run ${runId} does not exist.`);
  if (run.status !== 'queued' && run.status !== 'running') throw new RunStateError(`The run is ${run.status}; only a queued run can start.`);
  await enqueueRun(runId);
}

async function cancel({ db, runId }: { db: Db; runId: string }) {
  if (!(await cancelActiveRun({ db, id: runId }))) return false;
  // Executing here: stop now; the engine then tells this instance's viewers the run ended.
  if (isRunActive(runId) && cancelRun(runId)) return true;
  await publishNow(db, { type: 'run-finished', runId, at: new Date().toISOString(), status: 'cancelled', error: reasonText(stopPhrase('cancelled')), errorPhrase: stopPhrase('cancelled') });
  return true;
}

async function retry({ db, runId, alsoInTransaction }: RetryOptions) {
  if (isRunActive(runId)) throw new RunStateError('The run is still going; wait for it to end before retrying.');
  const run = await getRun({ db, id: runId });
  if (!run) throw new RunStateError(`Run ${runId} does not exist.`);
  if (!isRetryable(run.status)) throw new RunStateError(`The run is ${run.status}; only a failed, cancelled or insufficient-evidence run can be retried.`);
  // Cancelled from here while a worker elsewhere still executes it: that worker is stopping.
  if (run.workerId && run.leaseExpiresAt && run.leaseExpiresAt > new Date()) throw new RunStateError('The run is still stopping; try again in a few seconds.');
  if (!(await retryFailedSteps({ db, runId, alsoInTransaction }))) throw notRetryable(runId);
  // Committed: the run is queued again whatever the enqueue meets. One that fails (a lost
  // connection, an error inside pg-boss) is left to a worker's reaper, which queues any run that
  // nobody holds and no job waits for, so the retry is not reported as failed when it was not.
  try {
    await enqueueRun(runId);
  } catch (err) {
    log.warn('could not queue a retried run; a worker’s reaper queues it', { component: 'runner', runId, err });
  }
}

export const queueRunner: RunRunner = { start, cancel, retry };
