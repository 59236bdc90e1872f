import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { testBackends } from '@/lib/db/test-db';
import type { RunView } from '@/lib/report/run-view';
import type { Claim } from '@/lib/domain/outputs';
import { FACTOR_IDS } from '@/lib/domain/factors';
import { buildFactorPanels, filterPanels, isCovered, NO_FILTER, panelCounts, panelFactor, type FactorPanel, type PanelArgument } from './panels';
import { offlineRun, seededDatabase } from './test-runs';

const all = (panels: FactorPanel[]) => panels.flatMap((p) => [...p.favorable, ...p.adverse, ...p.context].map((a) => ({ ...a, factor: p.factor })));

describe.each(testBackends())('factor panels of real offline runs on %s', (backend) => {
  let handle: DatabaseHandle;
  let kpd: RunView;
  let nas: RunView;

  beforeAll(async () => {
    handle = await seededDatabase(backend);
    const params = { asOf: '2025-06-30', language: 'en' as const };
    kpd = await offlineRun(handle, { protocol: 'kpd-mads', companyId: 'tesla', params });
    nas = await offlineRun(handle, { protocol: 'nas', companyId: 'tesla', params });
  }, 120_000);
  afterAll(() => handle?.close());

  it('files every KPD-MADS claim — constructive, rebuttal and closing — once, under its factor and side, with its citations', () => {
    const panels = buildFactorPanels(kpd.turns);
    expect(panels.map((p) => p.factor)).toEqual(FACTOR_IDS);
    const claims = kpd.turns.flatMap((t) => (t.claims as Claim[]).map((c) => ({ turn: t, claim: c })));
    const placed = all(panels);
    expect(placed).toHaveLength(claims.length);
    for (const act of ['constructive', 'rebuttal', 'closing'])
      expect(
        placed.some((a) => a.act === act),
        act,
      ).toBe(true);
    for (const { turn, claim } of claims) {
      const arg = placed.find((a) => a.key === `${turn.step}/${claim.id}`)!;
      expect(arg, claim.id).toBeDefined();
      expect(arg.factor).toBe(panelFactor(claim.factor));
      expect(arg.stepId).toBe(turn.step);
      const expected = claim.polarity === 'context' ? (turn.team === 'affirmative' ? 'favorable' : 'adverse') : claim.polarity;
      expect(arg.side, claim.id).toBe(expected);
      expect(arg.contextual).toBe(claim.polarity === 'context');
      expect(arg.respondsTo).toBe(claim.respondsTo ?? null);
      expect(arg.citations.map((c) => [c.source, c.date, c.verified])).toEqual(
        claim.citations.map((c) => [c.source, c.date, (c as { verified?: boolean }).verified === true]),
      );
    }
    // Rebuttals answer the other side's claims: D5 is the affirmative's, D7 the negative's.
    expect(placed.filter((a) => a.stepId === 'D5').every((a) => a.side === 'favorable')).toBe(true);
    expect(placed.filter((a) => a.stepId === 'D7').every((a) => a.side === 'adverse')).toBe(true);
    // Coverage is exactly the factors the claims used.
    const used = new Set(claims.map(({ claim }) => panelFactor(claim.factor)));
    expect(
      panels
        .filter(isCovered)
        .map((p) => p.factor)
        .sort(),
    ).toEqual([...used].sort());
    expect(used.size).toBeGreaterThan(1);
  });

  it('shows only finished turns of a run still going, and grows as turns finish', () => {
    const upTo = (n: number) => kpd.turns.map((t, i) => (i < n ? t : { ...t, status: i === n ? 'running' : 'pending', output: null }));
    const d1Only = all(buildFactorPanels(upTo(1)));
    expect(d1Only.length).toBe(kpd.turns[0].claims.length);
    expect(d1Only.every((a) => a.stepId === 'D1' && a.side === 'favorable')).toBe(true);
    const d3 = all(buildFactorPanels(upTo(3)));
    expect(new Set(d3.map((a) => a.stepId))).toEqual(new Set(['D1', 'D3']));
    expect(buildFactorPanels([]).every((p) => !isCovered(p))).toBe(true);
  });

  it('reads a report-only NAS run from its topics: each non-empty reading a side, with the topic citations', () => {
    const report = nas.turns.at(-1)!.output as { topics: { factor: string; affirmative: string; adverse: string; citations: unknown[] }[] };
    expect(nas.turns.every((t) => t.claims.length === 0)).toBe(true);
    const panels = buildFactorPanels(nas.turns);
    const placed = all(panels);
    const expected = report.topics.flatMap((t) =>
      [t.affirmative && 'favorable', t.adverse && 'adverse'].filter(Boolean).map((side) => ({ factor: panelFactor(t.factor), side, n: t.citations.length })),
    );
    expect(placed.map((a) => ({ factor: a.factor, side: a.side, n: a.citations.length }))).toEqual(
      // panels come back in guideline order; compare as sets of entries
      expect.arrayContaining(expected),
    );
    expect(placed).toHaveLength(expected.length);
    for (const a of placed) {
      expect(a.source).toBe('report');
      expect(a.stepId).toBe('NAS');
      expect(report.topics.some((t) => t.affirmative === a.text || t.adverse === a.text)).toBe(true);
    }
  });

  it('filters by factor, side and cited-only on the client without hiding the empty factors', () => {
    const panels = buildFactorPanels(kpd.turns);
    const factor = panels.find(isCovered)!.factor;
    const one = filterPanels(panels, { ...NO_FILTER, factor });
    expect(one.map((p) => p.factor)).toEqual([factor]);
    expect(panelCounts(one[0])).toEqual(panelCounts(panels.find((p) => p.factor === factor)!));

    const adverse = filterPanels(panels, { ...NO_FILTER, side: 'adverse' });
    expect(adverse).toHaveLength(panels.length);
    expect(adverse.every((p) => p.favorable.length === 0 && p.context.length === 0)).toBe(true);
    expect(adverse.reduce((n, p) => n + p.adverse.length, 0)).toBe(panels.reduce((n, p) => n + p.adverse.length, 0));

    // Make one claim uncited and one citation unverified, as a model's output might be.
    const [first, second] = all(panels) as PanelArgument[];
    const edited = panels.map((p) => ({
      ...p,
      favorable: p.favorable.map((a) =>
        a.key === first.key ? { ...a, citations: [] } : a.key === second.key ? { ...a, citations: a.citations.map((c) => ({ ...c, verified: false })) } : a,
      ),
      adverse: p.adverse.map((a) =>
        a.key === first.key ? { ...a, citations: [] } : a.key === second.key ? { ...a, citations: a.citations.map((c) => ({ ...c, verified: false })) } : a,
      ),
    }));
    const keys = (ps: FactorPanel[]) => all(ps).map((a) => a.key);
    expect(keys(filterPanels(edited, { ...NO_FILTER, citedOnly: true }))).not.toContain(first.key);
    expect(keys(filterPanels(edited, { ...NO_FILTER, citedOnly: true }))).toContain(second.key);
    expect(keys(filterPanels(edited, { ...NO_FILTER, verifiedOnly: true }))).not.toContain(second.key);
    const counts = edited
      .map(panelCounts)
      .reduce((s, c) => ({ cites: s.cites + c.citations, unverified: s.unverified + c.unverified }), { cites: 0, unverified: 0 });
    expect(counts.unverified).toBe(second.citations.length);
  });
});
