// Prometheus text exposition of what the database knows: runs and steps by state, tokens and
// cost. Counted from the tables on every scrape, so every instance reports the same numbers and
// nothing is lost on restart. Latency histograms and provider errors need in-process counters
// (or the job queue of issue 7) and are not here yet.
import { sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { RUN_STATUSES, runs, runSteps, STEP_STATUSES } from '@/lib/db/schema';

export type MetricsSnapshot = {
  runsByState: Record<string, number>;
  stepsByState: Record<string, number>;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
};

/** Three aggregate queries; each scans an indexed status column or sums two integer columns. */
export async function collectMetrics({ db }: { db: Executor }): Promise<MetricsSnapshot> {
  const [runRows, stepRows, totals] = await Promise.all([
    db.select({ status: runs.status, n: sql<number>`count(*)::int` }).from(runs).groupBy(runs.status),
    db.select({ status: runSteps.status, n: sql<number>`count(*)::int` }).from(runSteps).groupBy(runSteps.status),
    db
      .select({
        prompt: sql<string>`coalesce(sum(${runs.promptTokens}), 0)::text`,
        completion: sql<string>`coalesce(sum(${runs.completionTokens}), 0)::text`,
        cost: sql<string>`coalesce(sum(${runs.costUsd}), 0)::text`,
      })
      .from(runs),
  ]);
  // Every known state appears, with 0 when no row has it: a missing series reads as "no data".
  const byState = (states: readonly string[], rows: { status: string; n: number }[]) =>
    Object.fromEntries(states.map((s) => [s, Number(rows.find((r) => r.status === s)?.n ?? 0)]));
  return {
    runsByState: byState(RUN_STATUSES, runRows),
    stepsByState: byState(STEP_STATUSES, stepRows),
    promptTokens: Number(totals[0]?.prompt ?? 0),
    completionTokens: Number(totals[0]?.completion ?? 0),
    costUsd: Number(totals[0]?.cost ?? 0),
  };
}

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

function metric(name: string, type: 'gauge' | 'counter', help: string, samples: [labels: Record<string, string>, value: number][]) {
  const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`];
  for (const [labels, value] of samples) {
    const l = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
    lines.push(`${name}${l.length ? `{${l.join(',')}}` : ''} ${value}`);
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
    ].join('\n') + '\n'
  );
}
