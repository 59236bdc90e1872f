// At server start: runs that a stopped process left queued or running continue from their
// last completed step. In-process (embedded database) they run in the background through the
// runner; on the PostgreSQL queue a dead worker's jobs come back by pg-boss's heartbeat, and the
// runs left without any job are queued again here. The server does not wait either way.
import type { Db } from '@/lib/db/client';
import { listInterruptedRuns } from '@/lib/db/queries/runs';
import { queueEnabled, startRunInBackground } from '@/lib/jobs/runner';
import { queueOrphanedRuns } from '@/lib/jobs/boss';
import { log } from '@/lib/ops/log';

export async function resumeInterruptedRuns({ db }: { db: Db }) {
  if (queueEnabled()) return queueOrphanedRuns({ db });
  const interrupted = await listInterruptedRuns({ db });
  for (const { id } of interrupted) {
    await startRunInBackground({ db, runId: id }).catch((err) => log.error('resuming a run failed', { component: 'runs', runId: id, err }));
  }
  return interrupted.length;
}
