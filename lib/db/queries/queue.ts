// The PostgreSQL job queue's rows, read and repaired with plain SQL on pg-boss's own table
// (`<schema>.job`: one row per job with its queue `name`, `state` and `singleton_key`, the run id),
// so health and metrics see every worker's jobs without a pg-boss client. The queue's
// name and schema are the caller's (lib/jobs/boss.ts), passed in.
import 'server-only';
import { sql } from 'drizzle-orm';
import type { Executor, Tx } from '@/lib/db/client';
import { executeRows } from '@/lib/db/rows';

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
 * Our transaction as pg-boss's adapter takes it, so a job is sent or cancelled inside it (its type
 * wants `execute` to promise rows; ours promises an untyped result that has them).
 */
export async function queueTx(tx: Tx) {
  const { fromDrizzle } = await import('pg-boss');
  return { db: fromDrizzle(tx as unknown as Parameters<typeof fromDrizzle>[0], sql) };
}

/** The run's jobs that are waiting or executing (`created`, `retry`, `active`). */
export async function openJobIds({ db, queue, runId }: { db: Executor; queue: QueueRef; runId: string }): Promise<string[]> {
  const rows = await executeRows<{ id: string }>(
    db,
    sql`select id::text as id from ${sql.raw(`${queue.schema}.job`)} where name = ${queue.name} and singleton_key = ${runId} and state <= 'active'`,
  );
  return rows.map((r) => r.id);
}

/** The queue's jobs a worker holds now. */
export async function activeJobIds({ db, queue }: { db: Executor; queue: QueueRef }): Promise<string[]> {
  const rows = await executeRows<{ id: string }>(
    db,
    sql`select id::text as id from ${sql.raw(`${queue.schema}.job`)} where name = ${queue.name} and state = 'active'`,
  );
  return rows.map((r) => r.id);
}
