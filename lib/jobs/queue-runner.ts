// The runner on PostgreSQL: starting a run puts it on the job queue for whichever worker is
// free (lib/jobs/worker.ts), in this instance or another. Cancelling works from any instance: in
// one transaction the run becomes `cancelled`, its attempt ends (its writes are refused from then
// on) and its jobs are cancelled, so the worker executing it stops at its next heartbeat (at once
// when that worker is in this process).
import type { Db } from '@/lib/db/client';
import { cancelActiveRun, getRun } from '@/lib/db/queries/runs';
import { publishNow } from '@/lib/debate/event-log';
import { isRetryable, isRunActive, releaseRun, retryFailedSteps } from '@/lib/debate/engine';
import { reasonText, stopPhrase } from '@/lib/i18n/failures';
import { notRetryable, RunStateError, type RetryOptions, type RunRunner } from '@/lib/jobs/run-runner';
import { cancelRunJobs, enqueueRun } from '@/lib/jobs/boss';

async function start({ db, runId }: { db: Db; runId: string }) {
  const run = await getRun({ db, id: runId });
  if (!run) throw new RunStateError(`Run ${runId} does not exist.`);
  if (run.status !== 'queued' && run.status !== 'running') throw new RunStateError(`The run is ${run.status}; only a queued run can start.`);
  await enqueueRun(runId);
}

async function cancel({ db, runId }: { db: Db; runId: string }) {
  if (!(await cancelActiveRun({ db, id: runId, alsoInTransaction: (tx) => cancelRunJobs(runId, { tx }) }))) return false;
  // Executing here: stop now rather than at the next heartbeat.
  if (isRunActive(runId)) releaseRun(runId);
  const errorPhrase = stopPhrase('cancelled');
  await publishNow(db, { type: 'run-finished', runId, at: new Date().toISOString(), status: 'cancelled', error: reasonText(errorPhrase), errorPhrase });
  return true;
}

async function retry({ db, runId, alsoInTransaction }: RetryOptions) {
  if (isRunActive(runId)) throw new RunStateError('The run is still going; wait for it to end before retrying.');
  const run = await getRun({ db, id: runId });
  if (!run) throw new RunStateError(`Run ${runId} does not exist.`);
  if (!isRetryable(run.status)) throw new RunStateError(`The run is ${run.status}; only a failed, cancelled or insufficient-evidence run can be retried.`);
  // The job is sent in the transaction that queues the run again: both or neither.
  const requeued = await retryFailedSteps({
    db,
    runId,
    alsoInTransaction: async (tx) => {
      await alsoInTransaction?.(tx);
      await enqueueRun(runId, { tx });
    },
  });
  if (!requeued) throw notRetryable(runId);
}

export const queueRunner: RunRunner = { start, cancel, retry };
