// Cluster-wide counters in `ops_counters`, one row per name and label set (what they count and
// why in the database: lib/ops/counters.ts). Each increment is one atomic upsert, so concurrent
// processes never lose one.
import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { opsCounters } from '@/lib/db/schema';

export type CounterRow = { labels: Record<string, string>; value: number };

export async function incrementCounter({ db, name, labels = {}, by = 1 }: { db: Executor; name: string; labels?: Record<string, string>; by?: number }) {
  await db
    .insert(opsCounters)
    .values({ name, labels, value: by })
    .onConflictDoUpdate({ target: [opsCounters.name, opsCounters.labels], set: { value: sql`${opsCounters.value} + excluded.value` } });
}

export async function readCounters({ db, name }: { db: Executor; name: string }): Promise<CounterRow[]> {
  const rows = await db.select({ labels: opsCounters.labels, value: opsCounters.value }).from(opsCounters).where(eq(opsCounters.name, name));
  return rows.map((r) => ({ labels: r.labels, value: Number(r.value) }));
}

/** One label set's value (jsonb equality: the labels' key order does not matter), 0 when never counted. */
export async function readCounter({ db, name, labels }: { db: Executor; name: string; labels: Record<string, string> }): Promise<number> {
  const [row] = await db
    .select({ value: opsCounters.value })
    .from(opsCounters)
    .where(and(eq(opsCounters.name, name), sql`${opsCounters.labels} = ${JSON.stringify(labels)}::jsonb`));
  return Number(row?.value ?? 0);
}
