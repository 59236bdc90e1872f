// What a runner is (lib/jobs/runner.ts): the interface both the in-process runner and the queue
// runner (lib/jobs/queue-runner.ts) implement, and the error they refuse with. Its own module
// so the two runners share it without importing each other.
import type { Db, Tx } from '@/lib/db/client';

export type RunRunner = {
  /** Starts (or resumes) a queued run and returns at once; the run goes on without the caller. */
  start(options: { db: Db; runId: string }): Promise<void>;
  /** Stops a run; finished steps stay. False when the run was not queued or running. */
  cancel(options: { db: Db; runId: string }): Promise<boolean>;
  /**
   * Failed steps go back to pending and the run starts again; finished steps are not redone.
   * `alsoInTransaction` runs inside the transaction that requeues the run (see retryFailedSteps).
   */
  retry(options: RetryOptions): Promise<void>;
};

export type RetryOptions = { db: Db; runId: string; alsoInTransaction?: (tx: Tx) => Promise<void> };

export class RunStateError extends Error {}

/** Thrown by a retry whose run changed status after the caller's check. */
export const notRetryable = (runId: string) => new RunStateError(`Run ${runId} is no longer failed, cancelled or short of evidence; reload to see its state.`);
