// Requests and tokens per minute to one provider and model, in `provider_rate_windows`: one row
// per key and minute, shared by every process on the database (the limiter's rules:
// lib/llm/rate-limit.ts).
import 'server-only';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { providerRateWindows as t } from '@/lib/db/schema';

/**
 * One atomic reservation of a request and `tokens` in the window, in a single upsert whose WHERE
 * clause refuses the update when the window would go over `rpm` or `tpm` (unset: unlimited).
 * PostgreSQL locks the row for the upsert, so concurrent processes cannot both take the last slot.
 * Whether the reservation was made.
 */
export async function reserveRateWindow({
  db,
  key,
  windowStart,
  tokens,
  rpm,
  tpm,
}: {
  db: Executor;
  key: string;
  windowStart: Date;
  tokens: number;
  rpm?: number;
  tpm?: number;
}): Promise<boolean> {
  const guards = [
    rpm !== undefined ? sql`${t.requests} + 1 <= ${rpm}` : undefined,
    tpm !== undefined ? sql`${t.tokens} + excluded.tokens <= ${tpm}` : undefined,
  ].filter(Boolean);
  const rows = await db
    .insert(t)
    .values({ key, windowStart, requests: 1, tokens })
    .onConflictDoUpdate({
      target: [t.key, t.windowStart],
      set: { requests: sql`${t.requests} + 1`, tokens: sql`${t.tokens} + excluded.tokens` },
      ...(guards.length ? { setWhere: and(...guards) } : {}),
    })
    .returning({ requests: t.requests });
  return rows.length > 0;
}

/** Requests reserved so far in the window (0 when it has no row). */
export async function readRateWindowRequests({ db, key, windowStart }: { db: Executor; key: string; windowStart: Date }): Promise<number> {
  const [row] = await db
    .select({ requests: t.requests })
    .from(t)
    .where(and(eq(t.key, key), eq(t.windowStart, windowStart)));
  return row?.requests ?? 0;
}

/** Adds `delta` tokens (negative: gives some back) to the window, never below zero. */
export async function adjustRateWindowTokens({ db, key, windowStart, delta }: { db: Executor; key: string; windowStart: Date; delta: number }) {
  await db
    .update(t)
    .set({ tokens: sql`greatest(0, ${t.tokens} + ${delta})` })
    .where(and(eq(t.key, key), eq(t.windowStart, windowStart)));
}

/** Deletes the windows that started before `before`. */
export async function pruneRateWindows({ db, before }: { db: Executor; before: Date }) {
  await db.delete(t).where(lt(t.windowStart, before));
}
