// The offline analyst's claims against the readings of what they cite, on every pool we have
// (lib/eval/reading-agreement.ts), and the engine's reading check (lib/eval/reading-consistency.ts)
// against contradictions planted into real runs: each planted one must be caught, nothing else.
import { beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOLS_BY_ID } from '@/lib/debate/protocols';
import type { ProtocolId } from '@/lib/domain/protocol';
import { claimsSaid, measureCase, readingsOf, runOffline, unsupportedWording, type CaseResult, type MeasuredTurn, type ReadingCase } from './reading-agreement';
import { DEMO_CASES, demoCase, freshImportCases } from './reading-cases';
import { readingMismatches } from './reading-consistency';

describe('reading agreement on every pool', () => {
  let demo: CaseResult[];
  let fresh: CaseResult[];
  beforeAll(async () => {
    demo = await Promise.all(DEMO_CASES.map((c) => measureCase(demoCase(c.companyId, c.language, c.asOf))));
    fresh = await Promise.all((await freshImportCases()).map((c) => measureCase(c)));
  }, 60_000);

  it('skips only the demo companies whose pool is below the evidence threshold, as the engine would', () => {
    expect(demo.filter((r) => r.skipped).map((r) => r.label.split(' ')[0])).toEqual(['taeyoung-engineering-construction', 'wintec-automation', 'monro-inc']);
  });

  it('finds no claim that reads against what it cites, and no stock phrase its items do not carry, on any demo company', () => {
    for (const r of demo.filter((x) => !x.skipped)) {
      expect(r.disagreements, r.label).toEqual([]);
      expect(r.unsupported, r.label).toEqual([]);
      // Not vacuous: most claims are judged, in every protocol that argues a side.
      expect(r.total.judged, r.label).toBeGreaterThanOrEqual(15);
      expect(r.total.agree, r.label).toBe(r.total.judged);
      for (const id of ['kpd-mads', 'sas', 'three-round', 'findebate'] as ProtocolId[]) expect(r.byProtocol[id]!.judged, `${r.label} ${id}`).toBeGreaterThan(0);
    }
  });

  it('holds on fresh imports of real filings: the EDGAR connector, a 10-K page and a whole 10-K uploaded, a DART original document', () => {
    expect(fresh).toHaveLength(3);
    for (const r of fresh) {
      expect(r.skipped, r.label).toBeUndefined();
      expect(r.disagreements, r.label).toEqual([]);
      expect(r.unsupported, r.label).toEqual([]);
      expect(r.total.judged, r.label).toBeGreaterThanOrEqual(30);
    }
  });
});

type Plant = { step: string; claimId: string };

/** Flips the polarity of every `every`-th judged claim and swaps the citation of every `every`-th argument to an item read the other way. */
function plant(turns: MeasuredTurn[], c: ReadingCase, every: number): { turns: MeasuredTurn[]; planted: Plant[] } {
  const readings = readingsOf(c);
  const byReading = (r: 'favorable' | 'adverse') => [...readings.entries()].find(([, v]) => v.reading === r)![0];
  const copy = structuredClone(turns);
  const planted: Plant[] = [];
  let n = 0;
  const readOf = (citations: unknown) =>
    ((citations as { evidenceId?: string }[]) ?? []).map((x) => readings.get(x.evidenceId ?? '')?.reading).filter((r) => r === 'favorable' || r === 'adverse');
  const seen = new Set<string>();
  for (const t of copy) {
    for (const claim of (t.output.claims as { id: string; polarity: string; citations: unknown }[] | undefined) ?? []) {
      const key = `${t.step}/${claim.id}`;
      if (seen.has(key) || (claim.polarity !== 'favorable' && claim.polarity !== 'adverse') || !readOf(claim.citations).length) continue;
      seen.add(key);
      if (n++ % every) continue;
      claim.polarity = claim.polarity === 'favorable' ? 'adverse' : 'favorable';
      planted.push({ step: t.step, claimId: claim.id });
    }
    for (const a of (t.output.arguments as { id: string; evidence: { evidenceId?: string }[] }[] | undefined) ?? []) {
      if (t.team !== 'affirmative' && t.team !== 'negative') continue;
      if (n++ % every) continue;
      const against = byReading(t.team === 'affirmative' ? 'adverse' : 'favorable');
      a.evidence = [{ ...a.evidence[0], evidenceId: against }];
      planted.push({ step: t.step, claimId: a.id });
    }
  }
  return { turns: copy, planted };
}

describe('the reading check catches contradictions planted into real runs', () => {
  const cases: [string, ReadingCase][] = [
    ['samsung-electronics', demoCase('samsung-electronics', 'ko', '2024-12-31')],
    ['tesla', demoCase('tesla', 'en', '2025-12-31')],
  ];
  const protocols = Object.values(PROTOCOLS_BY_ID).filter((p) => p.id !== 'nas');

  it.each(cases)(
    'on %s: every planted one is flagged and nothing else is',
    async (_name, c) => {
      const readings = readingsOf(c);
      const readingOf = (id: string) => readings.get(id)?.reading;
      let total = 0;
      for (const protocol of protocols) {
        const turns = await runOffline(c, protocol);
        // The run as the analyst wrote it reads with its evidence throughout.
        expect(readingMismatches(turns, readingOf), protocol.id).toEqual([]);
        const { turns: planted, planted: expected } = plant(turns, c, 3);
        const caught = readingMismatches(planted, readingOf).map((m) => ({ step: m.step, claimId: m.claimId }));
        expect(caught, protocol.id).toEqual(expected);
        total += expected.length;
      }
      expect(total).toBeGreaterThanOrEqual(20);
    },
    30_000,
  );

  it('flags the defect as the issue saw it: a strength argued from a 10-K risk factor on competing, in a whole 10-K uploaded under its file name', async () => {
    const [, whole] = await freshImportCases();
    const passage = whole.passages.find(
      (p) => p.heading === 'We face strong competition for our products and services from a growing list of established and new competitors.',
    )!;
    expect(passage.title).toBe('tsla-20241231');
    expect(readingsOf(whole).get(passage.id)!.reading).toBe('adverse');
    const claim = {
      id: 'D1-c1',
      factor: 'industry_competition_intensity',
      polarity: 'favorable',
      text: 'Industry competition: a leading market position gives pricing power and protects the margins that fund repayment.',
      citations: [{ evidenceId: passage.id, source: passage.sourceName, date: passage.publishedDate }],
    };
    const turns: MeasuredTurn[] = [{ step: 'D1', team: 'affirmative', status: 'done', output: { text: '', claims: [claim], questions: [] } }];
    const readings = readingsOf(whole);
    expect(readingMismatches(turns, (id) => readings.get(id)?.reading)).toEqual([
      { step: 'D1', claimId: 'D1-c1', source: 'claim', polarity: 'favorable', text: claim.text, against: [{ evidenceId: passage.id, reading: 'adverse' }] },
    ]);
    expect(unsupportedWording(claim.text, [readings.get(passage.id)!])).toBe('leading market position');
    // The analyst itself, on the same pool, never argues that passage as a strength.
    const run = await runOffline(whole, PROTOCOLS_BY_ID['kpd-mads']);
    const onIt = claimsSaid(run).filter((s) => JSON.stringify(s.citations).includes(passage.id));
    expect(onIt.every((s) => s.polarity !== 'favorable')).toBe(true);
  });
});
