// Runs execute behind this small interface (lib/jobs/run-runner.ts) so the pages and actions
// never call the engine directly. On the embedded database the runs execute in this process (a
// run keeps going when the browser leaves, and lib/startup.ts resumes interrupted ones after a
// restart); on PostgreSQL they go through a job queue to whichever worker is free
// (lib/jobs/queue-runner.ts), unless CROSSCHECK_QUEUE=off.
import type { Db } from '@/lib/db/client';
import { notifyRunEnded } from '@/lib/db/queries/notifications';
import { getRun, setRunStatus } from '@/lib/db/queries/runs';
import type { Run } from '@/lib/db/schema';
import { publishNow } from '@/lib/debate/event-log';
import { cancelRun, executeRun, isRetryable, isRunActive, releaseRun, retryFailedSteps, type ExecuteResult } from '@/lib/debate/engine';
import { webSearchForRun } from '@/lib/debate/web-search';
import { env, isEmbedded } from '@/lib/env';
import { reasonOf, reasonText, stopPhrase } from '@/lib/i18n/failures';
import { queueRunner } from '@/lib/jobs/queue-runner';
import { notRetryable, RunStateError, type RetryOptions, type RunRunner } from '@/lib/jobs/run-runner';
import { runProviders } from '@/lib/llm';
import { log } from '@/lib/ops/log';

type Executions = Map<string, Promise<ExecuteResult | void>>;
const globalForRunner = globalThis as typeof globalThis & { __crosscheckExecutions?: Executions };
// Executions started by this process, including the moment before the engine registers the run.
const executions = (): Executions => (globalForRunner.__crosscheckExecutions ??= new Map());

/** The providers of the kind a run was created with (one per role when OPENAI_MODEL_<ROLE> is set); a run on an unconfigured provider cannot go on. */
function providersOf(run: { provider: string }) {
  return runProviders(run.provider === 'openai' ? 'openai' : 'offline');
}

/**
 * Stops every run executing in this process without ending it (shutdown): running steps go back
 * to pending and the run stays active, for the next start (or another worker) to resume.
 */
export async function releaseRunsHere() {
  const here = [...executions().entries()];
  await Promise.all(
    here.map(async ([runId, execution]) => {
      await untilRegistered(runId);
      releaseRun(runId);
      await execution;
    }),
  );
  return here.length;
}

/** The engine registers a run after its first database read: gives a run just started here up to 2 s to get there. */
async function untilRegistered(runId: string) {
  for (let i = 0; i < 100 && executions().has(runId) && !isRunActive(runId); i++) await new Promise((r) => setTimeout(r, 20));
}

/** Resolves when the run finished executing in this process (for tests and shutdown). */
export function waitForRun(runId: string): Promise<unknown> {
  return executions().get(runId) ?? Promise.resolve();
}

/**
 * Executes a run here, with the providers it was created with and web search, and resolves when
 * it ends. Both runners use it: the in-process one directly, the queue worker as an attempt
 * (`workerId`, see claimRun in lib/db/queries/runs.ts). A run whose provider is not configured here fails with a clear error. The user
 * who started the run hears how it ended in their inbox (lib/db/queries/notifications.ts); a
 * run handed to another process is announced by the process that ends it.
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

async function start({ db, runId }: { db: Db; runId: string }) {
  if (executions().has(runId) || isRunActive(runId)) return;
  const run = await getRun({ db, id: runId });
  if (!run) throw new RunStateError(`Run ${runId} does not exist.`);
  if (run.status !== 'queued' && run.status !== 'running') throw new RunStateError(`The run is ${run.status}; only a queued run can start.`);
  const execution = executeRunHere({ db, run })
    .catch((err) => log.error('run stopped unexpectedly', { component: 'runner', runId, err }))
    .finally(() => executions().delete(runId));
  executions().set(runId, execution);
}

async function cancel({ db, runId }: { db: Db; runId: string }) {
  await untilRegistered(runId);
  if (cancelRun(runId)) {
    await waitForRun(runId);
    return true;
  }
  // Not executing here (queued, or left running by a stopped process): record the cancellation.
  const run = await getRun({ db, id: runId });
  if (!run || (run.status !== 'queued' && run.status !== 'running')) return false;
  const errorPhrase = stopPhrase('cancelled');
  await setRunStatus({ db, id: runId, status: 'cancelled', error: reasonText(errorPhrase), errorPhrase });
  await publishNow(db, { type: 'run-finished', runId, at: new Date().toISOString(), status: 'cancelled', error: reasonText(errorPhrase), errorPhrase });
  return true;
}

async function retry({ db, runId, alsoInTransaction }: RetryOptions) {
  if (executions().has(runId) || isRunActive(runId)) throw new RunStateError('The run is still going; wait for it to end before retrying.');
  const run = await getRun({ db, id: runId });
  if (!run) throw new RunStateError(`Run ${runId} does not exist.`);
  if (!isRetryable(run.status)) throw new RunStateError(`The run is ${run.status}; only a failed, cancelled or insufficient-evidence run can be retried.`);
  if (!(await retryFailedSteps({ db, runId, alsoInTransaction }))) throw notRetryable(runId);
  await start({ db, runId });
}

export const inProcessRunner: RunRunner = { start, cancel, retry };

/** Whether runs go through the PostgreSQL job queue: on PostgreSQL unless CROSSCHECK_QUEUE=off. */
export function queueEnabled() {
  const e = env();
  return !isEmbedded(e) && e.CROSSCHECK_QUEUE !== 'off';
}

/** The runner the app uses. */
export function runner(): RunRunner {
  return queueEnabled() ? queueRunner : inProcessRunner;
}

export function startRunInBackground(options: { db: Db; runId: string }) {
  return runner().start(options);
}
