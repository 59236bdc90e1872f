// The runs executing in this process, each with the controller that stops it: cancelled (its
// running steps go back to pending) or released (it stays running for another worker). One
// registry per process, kept on globalThis.
const globalForRuns = globalThis as typeof globalThis & { __crosscheckActiveRuns?: Map<string, AbortController> };
const activeRuns = () => (globalForRuns.__crosscheckActiveRuns ??= new Map());

/** The abort reason of an execution handed to another worker rather than cancelled. */
export const RELEASED = new Error('released');

/** Stops a running run; its finished steps stay, running ones go back to pending. */
export function cancelRun(runId: string) {
  const controller = activeRuns().get(runId);
  controller?.abort(new Error('cancelled'));
  return Boolean(controller);
}

/** Stops executing a run here but leaves it running (not cancelled) so another worker resumes it. */
export function releaseRun(runId: string) {
  const controller = activeRuns().get(runId);
  controller?.abort(RELEASED);
  return Boolean(controller);
}

export function isRunActive(runId: string) {
  return activeRuns().has(runId);
}

/** Registers an execution of the run in this process; throws when one is executing already. */
export function claimRun(runId: string): AbortController {
  if (activeRuns().has(runId)) throw new Error(`Run ${runId} is already executing in this process.`);
  const controller = new AbortController();
  activeRuns().set(runId, controller);
  return controller;
}

/** The execution ended, whichever way. */
export function forgetRun(runId: string) {
  activeRuns().delete(runId);
}
