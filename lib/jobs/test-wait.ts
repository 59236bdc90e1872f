// For the job tests: polls until a check gives a value (a run finished, a run taken), or fails
// naming what it waited for. One helper for the worker, attempt and start-race tests.

/** `check`'s first truthy value, polled every `pollMs`; throws after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 30_000,
  pollMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
