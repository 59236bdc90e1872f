// Run jobs in the PostgreSQL job queue, read with plain SQL from pg-boss's own table
// (pgboss.job, one row per job with its queue `name` and `state`), so health and metrics see
// every worker's jobs without a pg-boss client. Before the first worker has created the
// schema there is nothing to read, which callers report as "not initialised".
//
// What executes right now is counted from the runs' leases, not from pg-boss's `active`: a
// killed worker's job stays active until the reaper fails it (lib/jobs/boss.ts), while its run's
// lease runs out within WORKER_LEASE_MS.
import { and, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { runs } from '@/lib/db/schema';
import { RUN_QUEUE } from '@/lib/jobs/boss';

/** pg-boss 10's job states; `created` and `retry` are waiting, `active` is held by a worker. */
export const QUEUE_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;

async function rows<T>(db: Executor, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Jobs of the run queue by state (every known state, 0 when none), or null when pg-boss's schema does not exist. */
export async function readQueueJobs({ db, queue = RUN_QUEUE }: { db: Executor; queue?: string }): Promise<Record<string, number> | null> {
  const [table] = await rows<{ present: boolean }>(db, sql`select to_regclass('pgboss.job') is not null as present`);
  if (!table?.present) return null;
  const counts = await rows<{ state: string; n: number }>(
    db,
    sql`select state::text as state, count(*)::int as n from pgboss.job where name = ${queue} group by state`,
  );
  const byState: Record<string, number> = Object.fromEntries(QUEUE_STATES.map((s) => [s, 0]));
  for (const r of counts) byState[r.state] = Number(r.n);
  return byState;
}

/** Queued or running runs a live worker holds: its lease has not run out (database clock). */
export async function countExecutingRuns({ db }: { db: Executor }): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(runs)
    .where(and(inArray(runs.status, ['queued', 'running']), isNotNull(runs.workerId), gt(runs.leaseExpiresAt, sql`now()`)));
  return Number(row?.n ?? 0);
}
