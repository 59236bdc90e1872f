// Prometheus text exposition of what the database knows: runs and steps by state, tokens and
// cost, a step latency histogram from run_steps' timestamps, provider errors from the shared
// ops counters, run jobs in the pg-boss queue and the runs live workers hold (their leases).
// All of it is read from the database on every scrape, so every app instance and worker reports
// the same cluster-wide numbers and nothing is lost on restart.
import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { auditLog, RUN_STATUSES, runs, runSteps, STEP_STATUSES } from '@/lib/db/schema';
import { PROVIDER_ERRORS, readCounters, type CounterRow } from '@/lib/ops/counters';
import { countExecutingRuns, readQueueJobs } from '@/lib/ops/queue-stats';

/**
 * Upper bounds, in seconds, of the step latency buckets: a scripted step takes well under a
 * second, a long model turn with web searches a few minutes.
 */
export const STEP_DURATION_BUCKETS = [0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300] as const;

/** One histogram series: cumulative counts per STEP_DURATION_BUCKETS bound, then the total count and sum. */
export type DurationSeries = { labels: Record<string, string>; buckets: number[]; count: number; sum: number };

export type MetricsSnapshot = {
  runsByState: Record<string, number>;
  stepsByState: Record<string, number>;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  /** Finished steps by protocol and act. */
  stepDurations?: DurationSeries[];
  providerErrors?: CounterRow[];
  /** Run jobs by pg-boss state; null or absent where there is no queue. */
  queueJobs?: Record<string, number> | null;
  /** Runs a live worker holds under an unexpired lease; absent where there is no queue. */
  runsExecuting?: number;
  /**
   * Number of the newest audit entry (0 when the log is empty). Scraped into a monitoring system,
   * it is a copy of the chain head kept outside the database: it never goes down, so a drop means
   * the newest entries were deleted, checkpoints and all (docs/security.md).
   */
  auditHeadSeq?: number;
};

/**
 * Step latency over every finished step (done or failed), by protocol and act: one scan of
 * run_steps with a filtered count per bucket. Labels stay few: five protocols and about fifteen
 * acts, where step ids would be many more.
 */
async function readStepDurations(db: Executor): Promise<DurationSeries[]> {
  const seconds = sql`greatest(0, extract(epoch from (${runSteps.finishedAt} - ${runSteps.startedAt})))::float8`;
  // The bounds are our own constants, so splicing them as literals is safe.
  const counts = sql.join(
    STEP_DURATION_BUCKETS.map((le) => sql`count(*) filter (where ${seconds} <= ${sql.raw(String(le))})`),
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
  return rows.map((r) => ({ labels: { protocol: r.protocol, act: r.act }, buckets: r.buckets.map(Number), count: Number(r.count), sum: Number(r.sum) }));
}

/** A handful of aggregate queries; each scans an indexed status column or sums integer columns. */
export async function collectMetrics({ db }: { db: Executor }): Promise<MetricsSnapshot> {
  const [runRows, stepRows, totals, stepDurations, providerErrors, queueJobs, executing, auditHead] = await Promise.all([
    db.select({ status: runs.status, n: sql<number>`count(*)::int` }).from(runs).groupBy(runs.status),
    db.select({ status: runSteps.status, n: sql<number>`count(*)::int` }).from(runSteps).groupBy(runSteps.status),
    db
      .select({
        prompt: sql<string>`coalesce(sum(${runs.promptTokens}), 0)::text`,
        completion: sql<string>`coalesce(sum(${runs.completionTokens}), 0)::text`,
        cost: sql<string>`coalesce(sum(${runs.costUsd}), 0)::text`,
      })
      .from(runs),
    readStepDurations(db),
    readCounters({ db, name: PROVIDER_ERRORS }),
    readQueueJobs({ db }),
    countExecutingRuns({ db }),
    db.select({ seq: sql<string>`coalesce(max(${auditLog.seq}), 0)::text` }).from(auditLog),
  ]);
  // Every known state appears, with 0 when no row has it (a missing series reads as "no data"),
  // and so does any state the data holds that this build does not know yet.
  const byState = (states: readonly string[], rows: { status: string; n: number }[]) => {
    const out: Record<string, number> = Object.fromEntries(states.map((s) => [s, 0]));
    for (const r of rows) out[r.status] = Number(r.n);
    return out;
  };
  return {
    runsByState: byState(RUN_STATUSES, runRows),
    stepsByState: byState(STEP_STATUSES, stepRows),
    promptTokens: Number(totals[0]?.prompt ?? 0),
    completionTokens: Number(totals[0]?.completion ?? 0),
    costUsd: Number(totals[0]?.cost ?? 0),
    stepDurations,
    providerErrors,
    queueJobs,
    ...(queueJobs ? { runsExecuting: executing } : {}),
    auditHeadSeq: Number(auditHead[0]?.seq ?? 0),
  };
}

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

const formatLabels = (labels: Record<string, string>) => {
  const l = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  return l.length ? `{${l.join(',')}}` : '';
};

function metric(name: string, type: 'gauge' | 'counter', help: string, samples: [labels: Record<string, string>, value: number][]) {
  const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`];
  for (const [labels, value] of samples) lines.push(`${name}${formatLabels(labels)} ${value}`);
  return lines.join('\n');
}

function histogram(name: string, help: string, bounds: readonly number[], series: DurationSeries[]) {
  const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} histogram`];
  for (const s of series) {
    bounds.forEach((le, i) => lines.push(`${name}_bucket${formatLabels({ ...s.labels, le: String(le) })} ${s.buckets[i]}`));
    lines.push(`${name}_bucket${formatLabels({ ...s.labels, le: '+Inf' })} ${s.count}`);
    lines.push(`${name}_sum${formatLabels(s.labels)} ${s.sum}`);
    lines.push(`${name}_count${formatLabels(s.labels)} ${s.count}`);
  }
  return lines.join('\n');
}

/** Prometheus text format 0.0.4. */
export function formatPrometheus(m: MetricsSnapshot): string {
  return (
    [
      metric('crosscheck_runs', 'gauge', 'Runs in the database by state.', Object.entries(m.runsByState).map(([state, n]) => [{ state }, n])),
      metric('crosscheck_run_steps', 'gauge', 'Run steps in the database by state.', Object.entries(m.stepsByState).map(([state, n]) => [{ state }, n])),
      // Counters in spirit; deleting a case deletes its runs, which Prometheus treats as a reset.
      metric('crosscheck_tokens_total', 'counter', 'Model tokens used by all runs in the database.', [
        [{ kind: 'prompt' }, m.promptTokens],
        [{ kind: 'completion' }, m.completionTokens],
      ]),
      metric('crosscheck_cost_usd_total', 'counter', 'Estimated model cost of all runs in the database, in US dollars.', [[{}, m.costUsd]]),
      ...(m.stepDurations
        ? [histogram('crosscheck_step_duration_seconds', 'Time from the start of a step attempt to its end, over finished steps.', STEP_DURATION_BUCKETS, m.stepDurations)]
        : []),
      ...(m.providerErrors
        ? [metric('crosscheck_provider_errors_total', 'counter', 'Failed model endpoint attempts, retried or not, by provider and HTTP status (or timeout, network).', m.providerErrors.map((r) => [r.labels, r.value]))]
        : []),
      ...(m.queueJobs
        ? [metric('crosscheck_queue_jobs', 'gauge', 'Run jobs in the pg-boss queue by state.', Object.entries(m.queueJobs).map(([state, n]) => [{ state }, n]))]
        : []),
      ...(m.runsExecuting !== undefined
        ? [metric('crosscheck_runs_executing', 'gauge', 'Runs a live queue worker executes now (an unexpired lease), whatever pg-boss says of their jobs.', [[{}, m.runsExecuting]])]
        : []),
      ...(m.auditHeadSeq !== undefined
        ? [metric('crosscheck_audit_head_seq', 'gauge', 'Number of the newest audit log entry; it never decreases, so a drop means entries were deleted.', [[{}, m.auditHeadSeq]])]
        : []),
    ].join('\n') + '\n'
  );
}
