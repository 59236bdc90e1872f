import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { testBackends } from '@/lib/db/test-db';
import type { RunView } from '@/lib/report/run-view';
import { FACTOR_IDS } from '@/lib/domain/factors';
import { compareRuns } from './compare';
import { buildFactorPanels, isCovered } from './panels';
import { offlineRun, seededDatabase } from './test-runs';

describe.each(testBackends())('comparing two real offline runs on %s', (backend) => {
  let handle: DatabaseHandle;
  let nas: RunView;
  let kpd: RunView;

  beforeAll(async () => {
    handle = await seededDatabase(backend);
    const params = { asOf: '2024-12-31', language: 'ko' as const };
    nas = await offlineRun(handle, { protocol: 'nas', companyId: 'samsung-electronics', params });
    kpd = await offlineRun(handle, { protocol: 'kpd-mads', companyId: 'samsung-electronics', params });
  }, 120_000);
  afterAll(() => handle?.close());

  it('reports each run with the numbers of its own run view', () => {
    const { a, b } = compareRuns(nas, kpd);
    for (const [summary, view] of [
      [a, nas],
      [b, kpd],
    ] as const) {
      expect(summary).toMatchObject({
        id: view.id,
        protocol: view.protocol,
        latencyMs: view.metrics.latencyMs,
        tokens: view.metrics.tokens,
        costUsd: view.metrics.costUsd,
        breadth: view.metrics.breadth,
        rei: view.metrics.rei,
        steps: { done: view.turns.length, total: view.turns.length },
      });
      const cites = view.turns.flatMap((t) => t.citations);
      expect(summary.citations).toEqual({ total: cites.length, verified: cites.filter((c) => c.verified).length, grounding: view.metrics.citationGrounding });
      expect(summary.maxDepth).toBe(Math.max(...view.metrics.depths));
    }
    expect(a.protocol).toBe('nas');
    expect(b.protocol).toBe('kpd-mads');
    // The paper's shape: a single report is one level deep everywhere, the debate goes deeper.
    expect(a.maxDepth).toBe(1);
    expect(a.rei).toBe(a.breadth);
    expect(b.maxDepth).toBeGreaterThanOrEqual(3);
    expect(kpd.metrics.tokens.total).toBeGreaterThan(nas.metrics.tokens.total);
  });

  it('gives the differences as b − a', () => {
    const { a, b, delta } = compareRuns(nas, kpd);
    expect(delta).toEqual({
      latencyMs: b.latencyMs! - a.latencyMs!,
      tokens: b.tokens.total - a.tokens.total,
      costUsd: b.costUsd - a.costUsd,
      breadth: b.breadth - a.breadth,
      rei: b.rei - a.rei,
      grounding: b.citations.grounding! - a.citations.grounding!,
    });
    expect(delta.tokens).toBeGreaterThan(0);
    // Swapping the runs negates every difference.
    const swapped = compareRuns(kpd, nas).delta;
    expect(swapped.rei).toBe(-delta.rei);
    expect(swapped.tokens).toBe(-delta.tokens);
  });

  it('lines up factor coverage, pro/con counts and branch depths for all eleven factors', () => {
    const { factors, a, b } = compareRuns(nas, kpd);
    expect(factors.map((f) => f.factor)).toEqual(FACTOR_IDS);
    const panelsA = buildFactorPanels(nas.turns);
    const panelsB = buildFactorPanels(kpd.turns);
    for (const row of factors) {
      const pa = panelsA.find((p) => p.factor === row.factor)!;
      const pb = panelsB.find((p) => p.factor === row.factor)!;
      expect(row.a.favorable).toBe(pa.favorable.length);
      expect(row.b.adverse).toBe(pb.adverse.length);
      expect(row.a.covered).toBe(isCovered(pa));
      expect(row.coveredBy).toBe(isCovered(pa) && isCovered(pb) ? 'both' : isCovered(pa) ? 'a' : isCovered(pb) ? 'b' : 'neither');
      expect(row.b.depth).toBe(kpd.tree.branches.find((br) => br.factor === row.factor)?.depth ?? null);
    }
    expect(factors.filter((f) => f.factor !== 'other' && f.a.covered)).toHaveLength(a.factorsCovered);
    expect(factors.filter((f) => f.factor !== 'other' && f.b.covered)).toHaveLength(b.factorsCovered);
    expect(b.factorsCovered).toBeGreaterThan(1);
  });

  it('compares a run still going: only finished turns count, and no latency yet means no latency difference', () => {
    const pending = {
      ...kpd,
      status: 'running' as const,
      turns: kpd.turns.map((t) => ({ ...t, status: 'pending' as const, output: null, citations: [] })),
      metrics: { ...kpd.metrics, latencyMs: null },
    };
    const { b, delta, factors } = compareRuns(nas, pending);
    expect(b.steps).toEqual({ done: 0, total: kpd.turns.length });
    expect(b.citations).toMatchObject({ total: 0, verified: 0 });
    expect(b.factorsCovered).toBe(0);
    expect(delta.latencyMs).toBeNull();
    expect(factors.every((f) => !f.b.covered && f.coveredBy !== 'both')).toBe(true);
  });
});
