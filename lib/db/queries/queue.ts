// The PostgreSQL job queue's rows, read and repaired with plain SQL on pg-boss's own table
// (`<schema>.job`: one row per job with its queue `name`, `state` and `singleton_key`, the run id),
// so health, metrics and the reaper see every worker's jobs without a pg-boss client. The queue's
// name and schema are the caller's (lib/jobs/boss.ts), passed in.
import 'server-only';
import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { executeRows } from '@/lib/db/rows';
import { runs } from '@/lib/db/schema';

export type QueueRef = { schema: string; name: string };

/** Jobs of the queue by state (states without jobs are absent), or null when pg-boss's schema does not exist yet. */
export async function countQueueJobsByState({ db, queue }: { db: Executor; queue: QueueRef }): Promise<Record<string, number> | null> {
  const [table] = await executeRows<{ present: boolean }>(db, sql`select to_regclass(${sql.raw(`'${queue.schema}.job'`)}) is not null as present`);
  if (!table?.present) return null;
  const counts = await executeRows<{ state: string; n: number }>(
    db,
    sql`select state::text as state, count(*)::int as n from ${sql.raw(`${queue.schema}.job`)} where name = ${queue.name} group by state`,
  );
  return Object.fromEntries(counts.map((r) => [r.state, Number(r.n)]));
}

/**
 * Fails the queue's jobs that pg-boss still calls active although no live worker holds their
 * run: active for longer than `graceMs` while the run (the job's singleton key) has no unexpired
 * lease. `output` is what the failed jobs say. Returns how many it failed.
 */
export async function failAbandonedRunJobs({ db, queue, graceMs, output }: { db: Executor; queue: QueueRef; graceMs: number; output: unknown }): Promise<number> {
  const failed = await executeRows<{ id: string }>(
    db,
    sql`
    update ${sql.raw(`${queue.schema}.job`)} j
    set state = 'failed', completed_on = now(), output = ${JSON.stringify(output)}::jsonb
    where j.name = ${queue.name}
      and j.state = 'active'
      and j.started_on < now() - ${graceMs}::int * interval '1 millisecond'
      and not exists (
        select 1 from ${runs} r
        where r.id::text = j.singleton_key and r.worker_id is not null and r.lease_expires_at > now()
      )
    returning j.id`,
  );
  return failed.length;
}
