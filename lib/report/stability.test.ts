import { describe, expect, it } from 'vitest';
import { factorReading, measureStability, normaliseTitle, spread, type StabilityRun } from './stability';

const cite = (evidenceId: string, verified = true) => ({ source: 'DART', date: '2025-01-01', evidenceId, verified });
const claim = (id: string, factor: string, polarity: string, citations: unknown[] = []) => ({ id, text: `claim ${id}`, factor, polarity, citations });
const turn = (step: string, team: 'affirmative' | 'negative' | 'neutral', output: unknown, status = 'done') => ({
  step,
  team,
  act: 'constructive',
  status,
  output,
});
const report = (topics: { topic: string; factor: string; citations?: unknown[] }[]) =>
  turn('R', 'neutral', {
    overview: '',
    objective: '',
    favorableSummary: [],
    adverseSummary: [],
    topics: topics.map((t) => ({ affirmative: 'a', adverse: 'b', citations: [], ...t })),
  });

// Three hand-built runs of one case:
//  industry_growth_outlook: favorable | favorable | favorable        → same
//  internal_control_risk:   contested | adverse   | contested        → differs
//  certifications:          favorable | none      | none             → differs
//  employment_stability:    none      | none      | none (context only in run 1) → not argued
//  other seven factors: none everywhere → not argued
// Argued factors: 3, read the same: 1 → 1/3.
const run1: StabilityRun = {
  id: 'r1',
  turns: [
    turn('A1', 'affirmative', {
      text: '',
      questions: [],
      claims: [
        claim('c1', 'industry_growth_outlook', 'favorable', [cite('E1'), cite('E2')]),
        claim('c2', 'internal_control_risk', 'favorable', [cite('E3')]),
        claim('c3', 'certifications', 'favorable', [cite('E9', false)]),
      ],
    }),
    turn('N1', 'negative', { text: '', questions: [], claims: [claim('c1', 'internal_control_risk', 'adverse', [cite('E4')])] }),
    turn('X1', 'neutral', { text: '', questions: [], claims: [claim('c1', 'employment_stability', 'context', [cite('E5')])] }),
    report([
      { topic: 'Industry growth', factor: 'industry_growth_outlook' },
      { topic: 'Internal control — audit opinion', factor: 'internal_control_risk', citations: [cite('E1')] },
    ]),
  ],
  tree: { rei: 7, depths: [3, 2, 2] },
};
const run2: StabilityRun = {
  id: 'r2',
  turns: [
    turn('A1', 'affirmative', { text: '', questions: [], claims: [claim('c1', 'industry_growth_outlook', 'favorable', [cite('E1')])] }),
    turn('N1', 'negative', { text: '', questions: [], claims: [claim('c1', 'internal_control_risk', 'adverse', [cite('E4'), cite('E6')])] }),
    // A failed turn counts for nothing: its claim and citation are not read.
    turn('N2', 'negative', { text: '', questions: [], claims: [claim('c1', 'certifications', 'adverse', [cite('E7')])] }, 'failed'),
    report([
      { topic: 'industry  growth!', factor: 'industry_growth_outlook' },
      { topic: 'Governance', factor: 'internal_control_risk' },
    ]),
  ],
  tree: { rei: 4, depths: [2, 2] },
};
const run3: StabilityRun = {
  id: 'r3',
  turns: [
    turn('A1', 'affirmative', { text: '', questions: [], claims: [claim('c1', 'industry_growth_outlook', 'favorable', [cite('E1'), cite('E4')])] }),
    turn('N1', 'negative', {
      text: '',
      questions: [],
      claims: [claim('c1', 'internal_control_risk', 'adverse', [cite('E4')]), claim('c2', 'internal_control_risk', 'favorable')],
    }),
    report([
      { topic: 'INDUSTRY GROWTH', factor: 'industry_growth_outlook' },
      { topic: 'Hiring', factor: 'employment_stability' },
    ]),
  ],
  tree: { rei: 10, depths: [4, 3, 2, 1] },
};

describe('measureStability', () => {
  const s = measureStability([run1, run2, run3]);

  it('reads each guideline factor per run and says which read the same', () => {
    expect(s.factors).toHaveLength(10);
    const of = (f: string) => s.factors.find((x) => x.factor === f)!;
    expect(of('industry_growth_outlook')).toEqual({ factor: 'industry_growth_outlook', readings: ['favorable', 'favorable', 'favorable'], same: true });
    expect(of('internal_control_risk').readings).toEqual(['contested', 'adverse', 'contested']);
    expect(of('internal_control_risk').same).toBe(false);
    expect(of('certifications').readings).toEqual(['favorable', 'none', 'none']);
    expect(of('employment_stability').readings).toEqual(['none', 'none', 'none']);
    expect(s.readings).toEqual({ same: 1, argued: 3, share: 1 / 3 });
  });

  it('counts the resolved evidence every run cites against what any run cites', () => {
    // r1: E1 E2 E3 E4 E5 (E9 unresolved); r2: E1 E4 E6 (E7 on a failed turn); r3: E1 E4.
    expect(s.evidence.any).toEqual(['E1', 'E2', 'E3', 'E4', 'E5', 'E6']);
    expect(s.evidence.all).toEqual(['E1', 'E4']);
    expect(s.evidence.share).toBeCloseTo(2 / 6);
  });

  it('counts the report topics in common by factor and by normalised title', () => {
    // By factor: r1 {growth, control}, r2 {growth, control}, r3 {growth, employment} → 1 of 3.
    expect(s.topics.byFactor.all).toEqual(['industry_growth_outlook']);
    expect(s.topics.byFactor.any).toHaveLength(3);
    expect(s.topics.byFactor.share).toBeCloseTo(1 / 3);
    // By title: "industry growth" is the same title written three ways; four distinct titles.
    expect(s.topics.byTitle.all).toEqual(['industry growth']);
    expect(s.topics.byTitle.any).toEqual(['governance', 'hiring', 'industry growth', 'internal control audit opinion']);
    expect(s.topics.byTitle.share).toBe(0.25);
  });

  it('gives the spread of REI and of the deepest branch', () => {
    expect(s.rei).toEqual({ min: 4, median: 7, max: 10 });
    expect(s.depth).toEqual({ min: 2, median: 3, max: 4 });
    expect(s.runIds).toEqual(['r1', 'r2', 'r3']);
  });

  it('gives two identical runs full agreement', () => {
    const same = measureStability([run1, { ...run1, id: 'r1b' }]);
    expect(same.readings).toEqual({ same: 3, argued: 3, share: 1 });
    expect(same.evidence.share).toBe(1);
    expect(same.topics.byFactor.share).toBe(1);
    expect(same.topics.byTitle.share).toBe(1);
    expect(same.rei).toEqual({ min: 7, median: 7, max: 7 });
  });

  it('has no share where nothing was argued or cited', () => {
    const empty: StabilityRun = { id: 'e', turns: [], tree: { rei: 0, depths: [] } };
    const e = measureStability([empty, { ...empty, id: 'e2' }]);
    expect(e.readings.share).toBeNull();
    expect(e.evidence.share).toBeNull();
    expect(e.topics.byTitle.share).toBeNull();
    expect(e.depth).toEqual({ min: 0, median: 0, max: 0 });
  });

  it('takes two to five runs', () => {
    expect(() => measureStability([run1])).toThrow(RangeError);
    expect(() => measureStability([run1, run1, run1, run1, run1, run1])).toThrow(RangeError);
  });
});

describe('helpers', () => {
  it('reads a panel', () => {
    const a = [{}] as never[];
    expect(factorReading({ favorable: a, adverse: [] })).toBe('favorable');
    expect(factorReading({ favorable: [], adverse: a })).toBe('adverse');
    expect(factorReading({ favorable: a, adverse: a })).toBe('contested');
    expect(factorReading({ favorable: [], adverse: [] })).toBe('none');
  });
  it('takes the median of an even count as the mean of the middle two', () => {
    expect(spread([5, 1, 3, 9])).toEqual({ min: 1, median: 4, max: 9 });
  });
  it('normalises titles', () => {
    expect(normaliseTitle('  Ｇovernance,  &  Control ')).toBe('governance control');
    expect(normaliseTitle('경영 연속성 — 대표이사')).toBe('경영 연속성 대표이사');
  });
});
