// Runs execute behind this small interface so the pages and actions never call the engine
// directly: today the runs execute in this process (a run keeps going when the browser leaves,
// and lib/startup.ts resumes interrupted ones after a restart); a later PostgreSQL job queue can
// take the same three calls without the callers changing.
import type { Db } from '@/lib/db/client';
import { getRun, setRunStatus } from '@/lib/db/queries/runs';
import { runBus } from '@/lib/debate/bus';
import { cancelRun, executeRun, isRunActive, retryFailedSteps, type ExecuteResult } from '@/lib/debate/engine';
import { webSearchForRun } from '@/lib/debate/web-search';
import { runProviders } from '@/lib/llm';

export type RunRunner = {
  /** Starts (or resumes) a queued run and returns at once; the run goes on without the caller. */
  start(options: { db: Db; runId: string }): Promise<void>;
  /** Stops a run; finished steps stay. False when the run was not queued or running. */
  cancel(options: { db: Db; runId: string }): Promise<boolean>;
  /** Failed steps go back to pending and the run starts again; finished steps are not redone. */
  retry(options: { db: Db; runId: string }): Promise<void>;
};

export class RunStateError extends Error {}

type Executions = Map<string, Promise<ExecuteResult | void>>;
const globalForRunner = globalThis as typeof globalThis & { __crosscheckExecutions?: Executions };
// Executions started by this process, including the moment before the engine registers the run.
const executions = (): Executions => (globalForRunner.__crosscheckExecutions ??= new Map());

/** The providers of the kind a run was created with (one per role when OPENAI_MODEL_<ROLE> is set); a run on an unconfigured provider cannot go on. */
function providersOf(run: { provider: string }) {
  return runProviders(run.provider === 'openai' ? 'openai' : 'offline');
}

/** Resolves when the run finished executing in this process (for tests and shutdown). */
export function waitForRun(runId: string): Promise<unknown> {
  return executions().get(runId) ?? Promise.resolve();
}

async function start({ db, runId }: { db: Db; runId: string }) {
  if (executions().has(runId) || isRunActive(runId)) return;
  const run = await getRun({ db, id: runId });
  if (!run) throw new RunStateError(`Run ${runId} does not exist.`);
  if (run.status !== 'queued' && run.status !== 'running') throw new RunStateError(`The run is ${run.status}; only a queued run can start.`);
  let providers: ReturnType<typeof providersOf>;
  try {
    providers = providersOf(run);
  } catch (err) {
    const error = `Could not start: ${(err as Error).message}`;
    await setRunStatus({ db, id: runId, status: 'failed', error });
    runBus().publish({ type: 'run-finished', runId, at: new Date().toISOString(), status: 'failed' });
    return;
  }
  const execution = executeRun({ db, runId, ...providers, webSearch: webSearchForRun({ runId, companyId: run.companyId }) })
    .catch((err) => console.error(`[runner] run ${runId} stopped unexpectedly:`, (err as Error).message))
    .finally(() => executions().delete(runId));
  executions().set(runId, execution);
}

async function cancel({ db, runId }: { db: Db; runId: string }) {
  // The engine registers a run after its first database read: give a just-started one a moment.
  for (let i = 0; i < 100 && executions().has(runId) && !isRunActive(runId); i++) await new Promise((r) => setTimeout(r, 20));
  if (cancelRun(runId)) {
    await waitForRun(runId);
    return true;
  }
  // Not executing here (queued, or left running by a stopped process): record the cancellation.
  const run = await getRun({ db, id: runId });
  if (!run || (run.status !== 'queued' && run.status !== 'running')) return false;
  await setRunStatus({ db, id: runId, status: 'cancelled', error: 'Cancelled.' });
  runBus().publish({ type: 'run-finished', runId, at: new Date().toISOString(), status: 'cancelled' });
  return true;
}

async function retry({ db, runId }: { db: Db; runId: string }) {
  if (executions().has(runId) || isRunActive(runId)) throw new RunStateError('The run is still going; wait for it to end before retrying.');
  const run = await getRun({ db, id: runId });
  if (!run) throw new RunStateError(`Run ${runId} does not exist.`);
  if (run.status !== 'failed' && run.status !== 'cancelled') throw new RunStateError(`The run is ${run.status}; only a failed or cancelled run can be retried.`);
  await retryFailedSteps({ db, runId });
  await start({ db, runId });
}

export const inProcessRunner: RunRunner = { start, cancel, retry };

/** The runner the app uses. */
export function runner(): RunRunner {
  return inProcessRunner;
}

export function startRunInBackground(options: { db: Db; runId: string }) {
  return runner().start(options);
}
