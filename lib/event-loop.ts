// Giving the event loop back during long work on the web server's thread (offline analyst runs,
// reading a large pool), so health checks, pages and other runs' streams are answered between
// slices. Plain `await setImmediate` is not enough when several tasks yield at once: their
// continuations all run in the same check phase, back to back, with no I/O between them. Here
// each yield resolves on a later turn than every yield asked before it, so concurrent tasks
// take turns and the loop polls for I/O between any two slices.

let lastTurn: Promise<void> = Promise.resolve();

/** Resolves on a turn of the event loop after every earlier caller's, with I/O handled in between. */
export function yieldToEventLoop(): Promise<void> {
  const turn = lastTurn.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  lastTurn = turn;
  return turn;
}
