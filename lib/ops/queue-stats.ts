// Run jobs in the PostgreSQL job queue, read from pg-boss's own table (lib/db/queries/queue.ts),
// so health and metrics see every worker's jobs without a pg-boss client. Before the first
// worker has created the schema there is nothing to read, which callers report as "not
// initialised".
//
// What executes right now is counted from the runs' live attempts (countExecutingRuns in
// lib/db/queries/runs.ts): a run whose job is active under the attempt the run names.
import type { Executor } from '@/lib/db/client';
import { countQueueJobsByState } from '@/lib/db/queries/queue';
import { countExecutingRuns } from '@/lib/db/queries/runs';
import { BOSS_SCHEMA, RUN_QUEUE } from '@/lib/jobs/boss';

/** pg-boss's job states (the same in 10 and 12); `created` and `retry` are waiting, `active` is held by a worker. */
export const QUEUE_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;

/** Jobs of the run queue by state (every known state, 0 when none), or null when pg-boss's schema does not exist. */
export async function readQueueJobs({ db, queue = RUN_QUEUE }: { db: Executor; queue?: string }): Promise<Record<string, number> | null> {
  const counts = await countQueueJobsByState({ db, queue: { schema: BOSS_SCHEMA, name: queue } });
  if (!counts) return null;
  return { ...Object.fromEntries(QUEUE_STATES.map((s) => [s, 0])), ...counts };
}

/** Runs a live queue attempt executes right now (0 before the queue's schema exists). */
export async function countRunsExecuting({ db }: { db: Executor }): Promise<number> {
  if (!(await countQueueJobsByState({ db, queue: { schema: BOSS_SCHEMA, name: RUN_QUEUE } }))) return 0;
  return countExecutingRuns({ db, queue: { schema: BOSS_SCHEMA, name: RUN_QUEUE } });
}
