// The aggregates behind the Prometheus metrics (lib/ops/metrics.ts): each scans an indexed status
// column or sums integer columns, and all are read on every scrape, so every app instance reports
// the same cluster-wide numbers.
import 'server-only';
import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { auditLog, runs, runSteps } from '@/lib/db/schema';

export async function countRunsByStatus({ db }: { db: Executor }) {
  return db
    .select({ status: runs.status, n: sql<number>`count(*)::int` })
    .from(runs)
    .groupBy(runs.status);
}

export async function countStepsByStatus({ db }: { db: Executor }) {
  return db
    .select({ status: runSteps.status, n: sql<number>`count(*)::int` })
    .from(runSteps)
    .groupBy(runSteps.status);
}

/** Tokens and cost of every run, as numbers (sums of bigints and numerics come back as text). */
export async function sumRunUsage({ db }: { db: Executor }) {
  const [row] = await db
    .select({
      prompt: sql<string>`coalesce(sum(${runs.promptTokens}), 0)::text`,
      completion: sql<string>`coalesce(sum(${runs.completionTokens}), 0)::text`,
      cost: sql<string>`coalesce(sum(${runs.costUsd}), 0)::text`,
    })
    .from(runs);
  return { promptTokens: Number(row?.prompt ?? 0), completionTokens: Number(row?.completion ?? 0), costUsd: Number(row?.cost ?? 0) };
}

/**
 * Step latency over every finished step (done or failed), by protocol and act: one scan of
 * run_steps with a filtered count per bound of `bounds` (seconds; cumulative, as Prometheus
 * buckets are), the count and the sum of seconds.
 */
export async function readStepDurations({ db, bounds }: { db: Executor; bounds: readonly number[] }) {
  const seconds = sql`greatest(0, extract(epoch from (${runSteps.finishedAt} - ${runSteps.startedAt})))::float8`;
  // Splicing the bounds as literals is safe only for numbers; anything else is refused.
  for (const le of bounds) if (!Number.isFinite(le)) throw new RangeError(`A bucket bound must be a finite number (got ${le}).`);
  const counts = sql.join(
    bounds.map((le) => sql`count(*) filter (where ${seconds} <= ${sql.raw(String(le))})`),
    sql`, `,
  );
  const rows = await db
    .select({
      protocol: runs.protocol,
      act: runSteps.act,
      buckets: sql<number[]>`array[${counts}]::int[]`,
      count: sql<number>`count(*)::int`,
      sum: sql<string>`coalesce(sum(${seconds}), 0)::text`,
    })
    .from(runSteps)
    .innerJoin(runs, sql`${runs.id} = ${runSteps.runId}`)
    .where(sql`${runSteps.finishedAt} is not null and ${runSteps.startedAt} is not null`)
    .groupBy(runs.protocol, runSteps.act)
    .orderBy(runs.protocol, runSteps.act);
  return rows.map((r) => ({ protocol: r.protocol, act: r.act, buckets: r.buckets.map(Number), count: Number(r.count), sum: Number(r.sum) }));
}

/** Number of the newest audit entry, 0 when the log is empty. */
export async function readAuditHeadSeq({ db }: { db: Executor }): Promise<number> {
  const [row] = await db.select({ seq: sql<string>`coalesce(max(${auditLog.seq}), 0)::text` }).from(auditLog);
  return Number(row?.seq ?? 0);
}
