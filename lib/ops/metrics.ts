// Prometheus text exposition of what the database knows: runs and steps by state, tokens and
// cost, a step latency histogram from run_steps' timestamps, provider errors from the shared
// ops counters, run jobs in the pg-boss queue and the runs live workers hold (their leases).
// All of it is read from the database on every scrape, so every app instance and worker reports
// the same cluster-wide numbers and nothing is lost on restart.
import type { Executor } from '@/lib/db/client';
import { readCounters, type CounterRow } from '@/lib/db/queries/counters';
import { readKeyedStart } from '@/lib/db/queries/audit';
import { countRunsByStatus, countStepsByStatus, readAuditHeadSeq, readStepDurations, sumRunUsage } from '@/lib/db/queries/metrics';
import { RUN_STATUSES, STEP_STATUSES } from '@/lib/domain/vocabulary';
import { PROVIDER_ERRORS } from '@/lib/ops/counters';
import { countRunsExecuting, readQueueJobs } from '@/lib/ops/queue-stats';

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
  /**
   * The audit entry after which every entry is keyed (0: all of them), from the keyed record of
   * where keying began (lib/db/audit-genesis.ts); absent while the log has no record that holds.
   * It is written once and never changes, so a monitor's copy shows it moved or went missing.
   */
  auditKeyedStartSeq?: number;
};

/**
 * Step latency by protocol and act. Labels stay few: five protocols and about fifteen acts,
 * where step ids would be many more.
 */
async function stepDurations(db: Executor): Promise<DurationSeries[]> {
  const rows = await readStepDurations({ db, bounds: STEP_DURATION_BUCKETS });
  return rows.map(({ protocol, act, ...series }) => ({ labels: { protocol, act }, ...series }));
}

/** Where keying began, when its record holds with the audit key. */
async function auditKeyedStartSeq(db: Executor): Promise<number | undefined> {
  const start = await readKeyedStart({ db });
  return start?.holds ? start.lastUnkeyed : undefined;
}

/** A handful of aggregate queries; each scans an indexed status column or sums integer columns. */
export async function collectMetrics({ db }: { db: Executor }): Promise<MetricsSnapshot> {
  const [runRows, stepRows, totals, durations, providerErrors, queueJobs, executing, auditHeadSeq, keyedStartSeq] = await Promise.all([
    countRunsByStatus({ db }),
    countStepsByStatus({ db }),
    sumRunUsage({ db }),
    stepDurations(db),
    readCounters({ db, name: PROVIDER_ERRORS }),
    readQueueJobs({ db }),
    countRunsExecuting({ db }),
    readAuditHeadSeq({ db }),
    auditKeyedStartSeq(db),
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
    ...totals,
    stepDurations: durations,
    providerErrors,
    queueJobs,
    ...(queueJobs ? { runsExecuting: executing } : {}),
    auditHeadSeq,
    ...(keyedStartSeq !== undefined ? { auditKeyedStartSeq: keyedStartSeq } : {}),
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
      metric(
        'crosscheck_runs',
        'gauge',
        'Runs in the database by state.',
        Object.entries(m.runsByState).map(([state, n]) => [{ state }, n]),
      ),
      metric(
        'crosscheck_run_steps',
        'gauge',
        'Run steps in the database by state.',
        Object.entries(m.stepsByState).map(([state, n]) => [{ state }, n]),
      ),
      // Counters in spirit; deleting a case deletes its runs, which Prometheus treats as a reset.
      metric('crosscheck_tokens_total', 'counter', 'Model tokens used by all runs in the database.', [
        [{ kind: 'prompt' }, m.promptTokens],
        [{ kind: 'completion' }, m.completionTokens],
      ]),
      metric('crosscheck_cost_usd_total', 'counter', 'Estimated model cost of all runs in the database, in US dollars.', [[{}, m.costUsd]]),
      ...(m.stepDurations
        ? [
            histogram(
              'crosscheck_step_duration_seconds',
              'Time from the start of a step attempt to its end, over finished steps.',
              STEP_DURATION_BUCKETS,
              m.stepDurations,
            ),
          ]
        : []),
      ...(m.providerErrors
        ? [
            metric(
              'crosscheck_provider_errors_total',
              'counter',
              'Failed model endpoint attempts, retried or not, by provider and HTTP status (or timeout, network).',
              m.providerErrors.map((r) => [r.labels, r.value]),
            ),
          ]
        : []),
      ...(m.queueJobs
        ? [
            metric(
              'crosscheck_queue_jobs',
              'gauge',
              'Run jobs in the pg-boss queue by state.',
              Object.entries(m.queueJobs).map(([state, n]) => [{ state }, n]),
            ),
          ]
        : []),
      ...(m.runsExecuting !== undefined
        ? [
            metric('crosscheck_runs_executing', 'gauge', 'Runs a live queue attempt executes now: the attempt the run names holds an active job.', [
              [{}, m.runsExecuting],
            ]),
          ]
        : []),
      ...(m.auditHeadSeq !== undefined
        ? [
            metric('crosscheck_audit_head_seq', 'gauge', 'Number of the newest audit log entry; it never decreases, so a drop means entries were deleted.', [
              [{}, m.auditHeadSeq],
            ]),
          ]
        : []),
      ...(m.auditKeyedStartSeq !== undefined
        ? [
            metric(
              'crosscheck_audit_keyed_start_seq',
              'gauge',
              'The audit log entry after which every entry is keyed (0: all of them); it never changes, and is absent when the keyed record of where keying began is missing or forged.',
              [[{}, m.auditKeyedStartSeq]],
            ),
          ]
        : []),
    ].join('\n') + '\n'
  );
}
