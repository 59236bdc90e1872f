// For the tests of runs: polls until a check gives a value (a run finished, a run taken), or
// fails naming what it waited for; and a queue worker on a test database, stopped with its queue
// before the database closes.
import type { Db } from '@/lib/db/client';
import { getRun } from '@/lib/db/queries/runs';
import { stopBoss } from '@/lib/jobs/boss';
import { startWorker } from '@/lib/jobs/worker';

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

/** The run once it has ended (any status but queued or running). */
export async function untilRunEnds(db: Db, runId: string, timeoutMs = 60_000) {
  return waitFor(
    `run ${runId} to end`,
    async () => {
      const run = await getRun({ db, id: runId });
      return run.status !== 'queued' && run.status !== 'running' && run;
    },
    timeoutMs,
  );
}

/** A worker executing `db`'s runs, as the app's own process does; `stop` also stops the database's queue. */
export async function workOn(db: Db, { concurrency = 4 }: { concurrency?: number } = {}) {
  const worker = await startWorker({ db, concurrency, workerId: 'test-worker' });
  return {
    worker,
    async stop() {
      await worker.stop({ graceful: true, timeoutMs: 0 });
      await stopBoss(db);
    },
  };
}
