// At server start: runs that a stopped process left queued or running continue from their
// last completed step. They run in the background through the runner; the server does not wait.
import type { Db } from '@/lib/db/client';
import { listInterruptedRuns } from '@/lib/db/queries/runs';
import { startRunInBackground } from '@/lib/debate/runner';

export async function resumeInterruptedRuns({ db }: { db: Db }) {
  const interrupted = await listInterruptedRuns({ db });
  for (const { id } of interrupted) {
    await startRunInBackground({ db, runId: id }).catch((err) => console.error(`[runs] resuming ${id} failed:`, (err as Error).message));
  }
  return interrupted.length;
}
