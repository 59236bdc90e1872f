import { describe, expect, it } from 'vitest';
import { SUS_ITEMS, type Answers } from '@/lib/domain/study';
import { measureScore, studyResults, type RatingRow } from '@/lib/eval/study-results';

const sus = (score: number): Answers => Object.fromEntries(SUS_ITEMS.map((k) => [k, score]));
const rating = (evaluatorId: string, companyId: string, protocol: RatingRow['protocol'], trust: number, extra: Answers = {}): RatingRow => ({
  evaluatorId,
  companyId,
  protocol,
  answers: { trustworthiness: trust, explanatoryAdequacy: trust, practicalApplicability: trust, ...extra },
});

describe('studyResults', () => {
  // Three evaluators × two companies × two systems; the debate always rated one point higher,
  // except evaluator e3 on company c2, who rated both the same (a zero difference).
  const rows: RatingRow[] = [];
  for (const e of ['e1', 'e2', 'e3']) {
    for (const c of ['c1', 'c2']) {
      const tie = e === 'e3' && c === 'c2';
      rows.push(rating(e, c, 'nas', 3, sus(3)));
      rows.push(rating(e, c, 'kpd-mads', tie ? 3 : 4, sus(3)));
    }
  }

  it('summarises each measure per system', () => {
    const { protocols, summaries } = studyResults(rows);
    expect(protocols).toEqual(['kpd-mads', 'nas']);
    const trust = summaries.filter((s) => s.measure === 'trustworthiness');
    expect(trust.find((s) => s.protocol === 'kpd-mads')).toMatchObject({ n: 6, median: 4, q1: 4, q3: 4 });
    expect(trust.find((s) => s.protocol === 'nas')).toMatchObject({ n: 6, median: 3 });
    // All-3 SUS answers: odd items 2, even items 2 → 20 × 2.5 = 50.
    expect(summaries.find((s) => s.measure === 'sus' && s.protocol === 'nas')).toMatchObject({ n: 6, median: 50 });
  });

  it('pairs the same evaluator and company across systems, dropping zero differences', () => {
    const test = studyResults(rows).tests.find((t) => t.measure === 'trustworthiness')!;
    expect(test).toMatchObject({ a: 'kpd-mads', b: 'nas', pairs: 6, n: 5, W: 0, medianA: 4, medianB: 3 });
    expect(test.z).toBeLessThan(0);
    // n = 5 < 10: a small sample, with the exact p over the 2^5 sign patterns (2/32) beside the approximate one.
    expect(test).toMatchObject({ smallSample: true, pExact: 0.0625 });
    expect(test.p!).toBeCloseTo(0.0253, 4);
    // SUS is equal in every pair: nothing to test.
    expect(studyResults(rows).tests.find((t) => t.measure === 'sus')).toMatchObject({ pairs: 6, n: 0, z: null, p: null });
  });

  it('leaves out ratings without a counterpart and counts an unfinished SUS as missing', () => {
    const extra = [...rows, rating('e4', 'c1', 'nas', 1), rating('e1', 'c3', 'kpd-mads', 5)];
    const test = studyResults(extra).tests.find((t) => t.measure === 'trustworthiness')!;
    expect(test.pairs).toBe(6);
    expect(measureScore({ sus1: 5 }, 'sus')).toBeNull();
    expect(studyResults(extra).summaries.find((s) => s.measure === 'sus' && s.protocol === 'nas')!.n).toBe(6);
  });

  it('marks a test small below n = 10 and gives no exact p above n = 25', () => {
    const many = (k: number) => Array.from({ length: k }, (_, i) => [rating(`e${i}`, 'c1', 'nas', 3), rating(`e${i}`, 'c1', 'kpd-mads', 4)]).flat();
    const at = (k: number) => studyResults(many(k)).tests.find((t) => t.measure === 'trustworthiness')!;
    expect(at(9)).toMatchObject({ n: 9, smallSample: true });
    expect(at(10)).toMatchObject({ n: 10, smallSample: false, pExact: 2 / 1024 });
    expect(at(26)).toMatchObject({ n: 26, smallSample: false, pExact: null });
    expect(at(26).p!).toBeGreaterThan(0);
  });
});
