import { desc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { auditLog, companies, runs, runSteps } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { appendAudit } from '@/lib/db/queries/audit';
import { incrementCounter } from '@/lib/db/queries/counters';
import { PROVIDER_ERRORS } from '@/lib/ops/counters';
import { collectMetrics, formatPrometheus, STEP_DURATION_BUCKETS } from '@/lib/ops/metrics';
import { bearerMatches } from '@/lib/ops/metrics-token';

/** Every line is a comment or `name{labels} number`, as Prometheus parses it. */
function expectExposition(text: string) {
  expect(text.endsWith('\n')).toBe(true);
  for (const line of text.trimEnd().split('\n')) expect(line).toMatch(/^(# (HELP|TYPE) \w+ .+|\w+(\{[^}]*\})? (-?[\d.e+-]+|\+Inf))$/);
}

type Sample = { name: string; labels: Record<string, string>; value: number };

function parseSamples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((line) => {
      const m = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line)!;
      const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
      return { name: m[1], labels, value: Number(m[3]) };
    });
}

/** Checks the histogram rules Prometheus relies on and returns each series' count and sum by `protocol/act`. */
function readHistogram(text: string, name: string) {
  const samples = parseSamples(text);
  const out: Record<string, { count: number; sum: number; buckets: [string, number][] }> = {};
  const keyOf = (l: Record<string, string>) => `${l.protocol}/${l.act}`;
  for (const s of samples.filter((x) => x.name === `${name}_count`)) {
    const key = keyOf(s.labels);
    const buckets = samples.filter((x) => x.name === `${name}_bucket` && keyOf(x.labels) === key).map((x): [string, number] => [x.labels.le, x.value]);
    const sum = samples.find((x) => x.name === `${name}_sum` && keyOf(x.labels) === key)!.value;
    out[key] = { count: s.value, sum, buckets };
    // Bounds ascend and end in +Inf; counts never decrease; +Inf equals _count.
    expect(buckets.map(([le]) => le)).toEqual([...STEP_DURATION_BUCKETS.map(String), '+Inf']);
    for (let i = 1; i < buckets.length; i++) expect(buckets[i][1]).toBeGreaterThanOrEqual(buckets[i - 1][1]);
    expect(buckets.at(-1)![1]).toBe(s.value);
  }
  return out;
}

describe('formatPrometheus', () => {
  it('writes HELP, TYPE and one sample per state and token kind', () => {
    const text = formatPrometheus({
      runsByState: { queued: 0, running: 2, succeeded: 5 },
      stepsByState: { pending: 1, done: 40 },
      promptTokens: 1234,
      completionTokens: 567,
      costUsd: 0.0125,
    });
    expect(text).toContain('# TYPE crosscheck_runs gauge\n');
    expect(text).toContain('crosscheck_runs{state="running"} 2\n');
    expect(text).toContain('crosscheck_runs{state="queued"} 0\n');
    expect(text).toContain('crosscheck_run_steps{state="done"} 40\n');
    expect(text).toContain('# TYPE crosscheck_tokens_total counter\n');
    expect(text).toContain('crosscheck_tokens_total{kind="prompt"} 1234\n');
    expect(text).toContain('crosscheck_tokens_total{kind="completion"} 567\n');
    expect(text).toContain('crosscheck_cost_usd_total 0.0125\n');
    expectExposition(text);
  });

  it('writes a histogram with cumulative buckets, +Inf equal to the count, a sum, and the provider and queue families', () => {
    const text = formatPrometheus({
      runsByState: {},
      stepsByState: {},
      promptTokens: 0,
      completionTokens: 0,
      costUsd: 0,
      stepDurations: [{ labels: { protocol: 'kpd-mads', act: 'rebuttal' }, buckets: [0, 1, 1, 2, 3, 3, 3, 4, 4, 4], count: 5, sum: 512.25 }],
      providerErrors: [{ labels: { provider: 'openai', code: '429' }, value: 7 }],
      queueJobs: { created: 3, active: 1 },
    });
    expectExposition(text);
    expect(text).toContain('# TYPE crosscheck_step_duration_seconds histogram\n');
    expect(text).toContain('crosscheck_step_duration_seconds_bucket{protocol="kpd-mads",act="rebuttal",le="0.5"} 0\n');
    expect(text).toContain('crosscheck_step_duration_seconds_bucket{protocol="kpd-mads",act="rebuttal",le="300"} 4\n');
    expect(text).toContain('crosscheck_step_duration_seconds_sum{protocol="kpd-mads",act="rebuttal"} 512.25\n');
    expect(readHistogram(text, 'crosscheck_step_duration_seconds')['kpd-mads/rebuttal']).toMatchObject({ count: 5, sum: 512.25 });
    expect(text).toContain('# TYPE crosscheck_provider_errors_total counter\n');
    expect(text).toContain('crosscheck_provider_errors_total{provider="openai",code="429"} 7\n');
    expect(text).toContain('crosscheck_queue_jobs{state="created"} 3\n');
  });

  it('leaves the queue family out where there is no queue', () => {
    const text = formatPrometheus({
      runsByState: {},
      stepsByState: {},
      promptTokens: 0,
      completionTokens: 0,
      costUsd: 0,
      stepDurations: [],
      providerErrors: [],
      queueJobs: null,
    });
    expectExposition(text);
    expect(text).toContain('# TYPE crosscheck_step_duration_seconds histogram\n');
    expect(text).not.toContain('crosscheck_queue_jobs');
  });
});

describe.each(testBackends())('collectMetrics on %s', (backend) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase(backend);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('counts the cluster from the database: runs by state including new ones, step latency, tokens, provider errors, queue jobs', async () => {
    const { db } = handle;
    await db.insert(companies).values({ id: 'acme', name: 'Acme', country: 'KR' });
    const base = { companyId: 'acme', provider: 'openai', model: 'm' };
    // A state this build does not know yet, as a later migration might add one.
    await db.execute(sql`alter table runs drop constraint runs_status_check`);
    const [a, b] = await db
      .insert(runs)
      .values([
        { ...base, protocol: 'kpd-mads', status: 'succeeded', promptTokens: 1000, completionTokens: 200 },
        { ...base, protocol: 'nas', status: 'running', promptTokens: 50, completionTokens: 5 },
        { ...base, protocol: 'nas', status: 'budget-exceeded' as 'failed' },
      ])
      .returning({ id: runs.id });
    const t0 = new Date('2025-01-01T00:00:00Z');
    const at = (s: number) => new Date(t0.getTime() + s * 1000);
    const step = (runId: string, stepId: string, act: string, seconds: number | null, status: 'done' | 'failed' | 'running' = 'done') => ({
      runId,
      stepId,
      ordinal: 1,
      agent: 'A1',
      team: 'neutral' as const,
      act,
      status,
      startedAt: at(0),
      finishedAt: seconds === null ? null : at(seconds),
    });
    await db
      .insert(runSteps)
      .values([
        step(a.id, 'D1', 'constructive', 0.4),
        step(a.id, 'D2', 'constructive', 3),
        step(a.id, 'D3', 'constructive', 400),
        step(a.id, 'D4', 'rebuttal', 1, 'failed'),
        step(b.id, 'S1', 'analysis', null, 'running'),
      ]);
    await incrementCounter({ db, name: PROVIDER_ERRORS, labels: { provider: 'openai', code: '429' }, by: 3 });
    await incrementCounter({ db, name: PROVIDER_ERRORS, labels: { provider: 'openai', code: 'timeout' } });

    let text = formatPrometheus(await collectMetrics({ db }));
    expectExposition(text);
    expect(text).toContain('crosscheck_audit_head_seq 0\n');
    // No entry yet, so no record of where keying began.
    expect(text).not.toContain('crosscheck_audit_keyed_start_seq');
    // The chain head, for a monitor to keep outside the database.
    for (const n of [1, 2, 3]) await db.transaction((tx) => appendAudit({ tx, actorId: null, action: 'test.entry', entityType: 'test', detail: { n } }));
    const [newest] = await db.select({ seq: auditLog.seq }).from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    text = formatPrometheus(await collectMetrics({ db }));
    expect(text).toContain(`crosscheck_audit_head_seq ${newest.seq}\n`);
    // The first entry recorded that every entry is keyed: a value a monitor expects never to change.
    expect(text).toContain('crosscheck_audit_keyed_start_seq 0\n');
    expect(newest.seq).toBeGreaterThanOrEqual(3);
    expect(text).toContain('crosscheck_runs{state="succeeded"} 1\n');
    expect(text).toContain('crosscheck_runs{state="queued"} 0\n');
    expect(text).toContain('crosscheck_runs{state="budget-exceeded"} 1\n');
    expect(text).toContain('crosscheck_tokens_total{kind="prompt"} 1050\n');
    expect(text).toContain('crosscheck_tokens_total{kind="completion"} 205\n');
    expect(text).toContain('crosscheck_provider_errors_total{code="429",provider="openai"} 3\n');
    expect(text).toContain('crosscheck_provider_errors_total{code="timeout",provider="openai"} 1\n');
    expect(text).not.toContain('crosscheck_queue_jobs');
    expect(text).not.toContain('crosscheck_runs_executing');

    const histogram = readHistogram(text, 'crosscheck_step_duration_seconds');
    // The running step has no duration yet; the failed one has.
    expect(Object.keys(histogram).sort()).toEqual(['kpd-mads/constructive', 'kpd-mads/rebuttal']);
    const constructive = histogram['kpd-mads/constructive'];
    expect(constructive.count).toBe(3);
    expect(constructive.sum).toBeCloseTo(403.4, 6);
    expect(Object.fromEntries(constructive.buckets)).toMatchObject({ '0.5': 1, '2.5': 1, '5': 2, '300': 2, '+Inf': 3 });
    expect(histogram['kpd-mads/rebuttal']).toMatchObject({ count: 1, sum: 1 });
    expect(Object.fromEntries(histogram['kpd-mads/rebuttal'].buckets)).toMatchObject({ '0.5': 0, '1': 1 });

    await db.execute(sql`create schema crosscheck_jobs`);
    await db.execute(
      sql`create table crosscheck_jobs.job (id uuid primary key default gen_random_uuid(), name text not null, state text not null, retry_count int not null default 0)`,
    );
    await db.execute(
      sql`insert into crosscheck_jobs.job (name, state) values ('crosscheck-run', 'created'), ('crosscheck-run', 'active'), ('crosscheck-run', 'active'), ('other', 'active')`,
    );
    text = formatPrometheus(await collectMetrics({ db }));
    expectExposition(text);
    expect(text).toContain('crosscheck_queue_jobs{state="created"} 1\n');
    expect(text).toContain('crosscheck_queue_jobs{state="active"} 2\n');
    expect(text).toContain('crosscheck_queue_jobs{state="failed"} 0\n');
    // The running run names no live attempt: nothing executes, whatever the two active jobs say.
    expect(text).toContain('crosscheck_runs_executing 0\n');

    // The record of where keying began deleted in the database (its trigger off): the series goes
    // missing while the log has entries, which a monitor alerts on (docs/operations.md).
    await db.execute(sql`alter table audit_genesis disable trigger user`);
    await db.execute(sql`delete from audit_genesis`);
    await db.execute(sql`alter table audit_genesis enable trigger user`);
    text = formatPrometheus(await collectMetrics({ db }));
    expect(text).not.toContain('crosscheck_audit_keyed_start_seq');
    expect(text).toContain(`crosscheck_audit_head_seq ${newest.seq}\n`);
  });
});

describe('bearerMatches', () => {
  it('accepts only the configured token', () => {
    expect(bearerMatches('Bearer s3cret-token-value', 's3cret-token-value')).toBe(true);
    expect(bearerMatches('bearer  s3cret-token-value ', 's3cret-token-value')).toBe(true);
    expect(bearerMatches('Bearer s3cret-token-valuf', 's3cret-token-value')).toBe(false);
    expect(bearerMatches('Bearer s3cret', 's3cret-token-value')).toBe(false);
    expect(bearerMatches('s3cret-token-value', 's3cret-token-value')).toBe(false);
    expect(bearerMatches(null, 's3cret-token-value')).toBe(false);
  });

  it('refuses everything when no token is configured', () => {
    expect(bearerMatches('Bearer ', undefined)).toBe(false);
    expect(bearerMatches('Bearer anything', undefined)).toBe(false);
    expect(bearerMatches('Bearer anything', '')).toBe(false);
  });
});
