import { describe, expect, it } from 'vitest';
import { formatPrometheus } from '@/lib/ops/metrics';
import { bearerMatches } from '@/lib/ops/metrics-token';

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
    // Every line is a comment or `name{labels} number`, as Prometheus parses it.
    for (const line of text.trimEnd().split('\n')) expect(line).toMatch(/^(# (HELP|TYPE) \w+ .+|\w+(\{[^}]*\})? -?[\d.e+-]+)$/);
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
