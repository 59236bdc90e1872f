// At server start: runs that a stopped process left queued or running continue from their last
// completed step. A dead worker's jobs come back by pg-boss's heartbeat (on the embedded database
// at once: lib/jobs/boss.ts), and the runs left without any job are queued again here. The server
// does not wait for them.
import type { Db } from '@/lib/db/client';
import { queueOrphanedRuns } from '@/lib/jobs/boss';

export async function resumeInterruptedRuns({ db }: { db: Db }) {
  return queueOrphanedRuns({ db });
}
