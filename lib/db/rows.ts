// Raw SQL statements for the few queries the query builder cannot write (full-text ranking,
// pg-boss's own table). Both drivers answer `execute` with `{ rows }`; drizzle types it per
// driver, so the one cast lives here.
import 'server-only';
import type { SQL } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';

/** The rows of a raw statement, typed as the caller's column aliases say. */
export async function executeRows<T>(db: Executor, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
