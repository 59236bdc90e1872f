// Runs execute behind this small interface so the pages and actions never call the engine
// directly. On both databases a run goes through the job queue (lib/jobs/boss.ts) to whichever
// worker is free (lib/jobs/worker.ts): on the embedded database the app's own process, on
// PostgreSQL any app instance's embedded worker or `npm run worker` process. Cancelling works from
// any instance: in one transaction the run becomes `cancelled`, its attempt ends (its writes are
// refused from then on), its running steps go back to pending and its jobs are cancelled, so the
// worker executing it stops at its next heartbeat (at once when that worker is in this process).
import type { Db, Tx } from '@/lib/db/client';
import { notifyRunEnded } from '@/lib/db/queries/notifications';
import { cancelActiveRun, getRun, setRunStatus } from '@/lib/db/queries/runs';
import type { Run } from '@/lib/db/schema';
import { publishNow } from '@/lib/debate/event-log';
import { executeRun, isRetryable, isRunActive, releaseRun, retryFailedSteps, type ExecuteResult } from '@/lib/debate/engine';
import { webSearchForRun } from '@/lib/debate/web-search';
import { env } from '@/lib/env';
import { reasonOf, reasonText, stopPhrase } from '@/lib/i18n/failures';
import { cancelRunJobs, enqueueRun, getBoss } from '@/lib/jobs/boss';
import { runProviders } from '@/lib/llm';
import { log } from '@/lib/ops/log';

export class RunStateError extends Error {}

/** Thrown by a retry whose run changed status after the caller's check. */
const notRetryable = (runId: string) => new RunStateError(`Run ${runId} is no longer failed, cancelled or short of evidence; reload to see its state.`);

/** The providers of the kind a run was created with (one per role when OPENAI_MODEL_<ROLE> is set); a run on an unconfigured provider cannot go on. */
function providersOf(run: { provider: string }) {
  return runProviders(run.provider === 'openai' ? 'openai' : 'offline');
}

/**
 * Executes a run here, with the providers it was created with and web search, and resolves when
 * it ends: the worker calls it as an attempt (`workerId`, see claimRun in lib/db/queries/runs.ts).
 * A run whose provider is not configured here fails with a clear error. The user who started the
 * run hears how it ended in their inbox (lib/db/queries/notifications.ts); a run handed to
 * another worker is announced by the worker that ends it.
 */
export async function executeRunHere(options: { db: Db; run: Pick<Run, 'id' | 'provider' | 'companyId'>; workerId?: string }): Promise<ExecuteResult> {
  const result = await executeWithProviders(options);
  await notifyRunEnded({ db: options.db, runId: options.run.id, status: result.status }).catch((err) =>
    log.warn('could not notify the run’s owner', { component: 'runner', runId: options.run.id, err }),
  );
  return result;
}

async function executeWithProviders({
  db,
  run,
  workerId,
}: {
  db: Db;
  run: Pick<Run, 'id' | 'provider' | 'companyId'>;
  workerId?: string;
}): Promise<ExecuteResult> {
  let providers: ReturnType<typeof providersOf>;
  try {
    providers = providersOf(run);
  } catch (err) {
    const errorPhrase = stopPhrase('couldNotStart', { reason: reasonOf(err) });
    const error = reasonText(errorPhrase);
    if (!(await setRunStatus({ db, id: run.id, status: 'failed', error, errorPhrase, workerId })))
      return { status: 'released', wallMs: 0, modelMs: 0, timings: [] };
    await publishNow(db, { type: 'run-finished', runId: run.id, at: new Date().toISOString(), status: 'failed', error, errorPhrase });
    return { status: 'failed', error, wallMs: 0, modelMs: 0, timings: [] };
  }
  return executeRun({
    db,
    runId: run.id,
    ...providers,
    workerId,
    // Shared by every run in this process: with the engine's default of 8, a worker's fifth run
    // waited seconds for its first model call behind the other runs' steps.
    providerConcurrency: env().OPENAI_MAX_CONCURRENT_REQUESTS,
    webSearch: webSearchForRun({ runId: run.id, companyId: run.companyId }),
  });
}

/**
 * Queues a run that already exists (the tests start runs this way); a start from a case, a
 * re-screen included, sends its job with the run instead (lib/jobs/case-runs.ts).
 */
async function start({ db, runId }: { db: Db; runId: string }) {
  const run = await getRun({ db, id: runId });
  if (!run) throw new RunStateError(`Run ${runId} does not exist.`);
  if (run.status !== 'queued' && run.status !== 'running') throw new RunStateError(`The run is ${run.status}; only a queued run can start.`);
  await enqueueRun({ db, runId });
}

/** Stops a run; finished steps stay. False when the run was not queued or running. */
async function cancel({ db, runId }: { db: Db; runId: string }) {
  await getBoss(db); // before the transaction: see getBoss
  if (!(await cancelActiveRun({ db, id: runId, alsoInTransaction: (tx) => cancelRunJobs({ db, runId, tx }) }))) return false;
  // Executing here: stop now rather than at the next heartbeat.
  if (isRunActive(runId)) releaseRun(runId);
  const errorPhrase = stopPhrase('cancelled');
  await publishNow(db, { type: 'run-finished', runId, at: new Date().toISOString(), status: 'cancelled', error: reasonText(errorPhrase), errorPhrase });
  return true;
}

export type RetryOptions = { db: Db; runId: string; alsoInTransaction?: (tx: Tx) => Promise<void> };

/**
 * Failed steps go back to pending and the run is queued again; finished steps are not redone.
 * `alsoInTransaction` runs inside the transaction that requeues the run (see retryFailedSteps),
 * which also sends its job: both or neither.
 */
async function retry({ db, runId, alsoInTransaction }: RetryOptions) {
  if (isRunActive(runId)) throw new RunStateError('The run is still going; wait for it to end before retrying.');
  const run = await getRun({ db, id: runId });
  if (!run) throw new RunStateError(`Run ${runId} does not exist.`);
  if (!isRetryable(run.status)) throw new RunStateError(`The run is ${run.status}; only a failed, cancelled or insufficient-evidence run can be retried.`);
  await getBoss(db); // before the transaction: see getBoss
  const requeued = await retryFailedSteps({
    db,
    runId,
    alsoInTransaction: async (tx) => {
      await alsoInTransaction?.(tx);
      await enqueueRun({ db, runId, tx });
    },
  });
  if (!requeued) throw notRetryable(runId);
}

export const runner = { start, cancel, retry };
