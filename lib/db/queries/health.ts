// The cheapest statement that proves the database answers, for the health check (lib/ops/health.ts).
import 'server-only';
import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';

/** Resolves when the database answers `select 1`; throws otherwise. */
export async function pingDatabase({ db }: { db: Executor }) {
  await db.execute(sql`select 1`);
}
