import { describe, expect, it } from 'vitest';
import { countSyllables, countText, readability, readabilityFromCounts, readabilityOfRun } from '@/lib/eval/readability';

// Expected values are computed here from counts made by hand, with the published formulas.
const fkgl = (w: number, s: number, syl: number) => 0.39 * (w / s) + 11.8 * (syl / w) - 15.59;
const cli = (w: number, s: number, letters: number) => 0.0588 * ((letters / w) * 100) - 0.296 * ((s / w) * 100) - 15.8;
const ari = (w: number, s: number, chars: number) => 4.71 * (chars / w) + 0.5 * (w / s) - 21.43;

describe('countSyllables', () => {
  it.each([
    ['the', 1],
    ['table', 2],
    ['make', 1],
    ['makes', 1],
    ['boxes', 2],
    ['jumped', 1],
    ['wanted', 2],
    ['year', 1],
    ['free', 1],
    ['beautiful', 3],
    ['repayment', 3],
    ['capability', 5],
    ['liquidity', 4],
    ['long-term', 2],
    ['2024', 1],
  ])('%s has %i', (word, n) => {
    expect(countSyllables(word)).toBe(n);
  });
});

describe('readability', () => {
  it('scores one-syllable sentences from hand counts', () => {
    // 9 words, 2 sentences, 9 syllables, 26 letters.
    const r = readability('The cat sat on the mat. The dog ran.');
    expect(r).toMatchObject({ words: 9, sentences: 2, syllables: 9, letters: 26, characters: 26 });
    expect(r.fkgl).toBeCloseTo(fkgl(9, 2, 9), 10);
    expect(r.fkgl).toBeCloseTo(-2.035, 10);
    expect(r.colemanLiau).toBeCloseTo(cli(9, 2, 26), 10);
    expect(r.ari).toBeCloseTo(ari(9, 2, 26), 10);
  });

  it('counts longer words, digits and both sentence ends', () => {
    // Re-pay-ment(3) ca-pa-bi-li-ty(5) re-mains(2) sta-ble(2) / The(1) len-der(2) want-ed(2)
    // bet-ter(2) li-quid-i-ty(4) in(1) 2024(1): 11 words, 25 syllables, 64 letters + 4 digits.
    const r = readability('Repayment capability remains stable. The lender wanted better liquidity in 2024!');
    expect(r).toMatchObject({ words: 11, sentences: 2, syllables: 25, letters: 64, characters: 68 });
    expect(r.fkgl).toBeCloseTo(fkgl(11, 2, 25), 10);
    expect(r.colemanLiau).toBeCloseTo(cli(11, 2, 64), 10);
    expect(r.ari).toBeCloseTo(ari(11, 2, 68), 10);
  });

  it('treats line breaks as sentence ends and keeps decimals inside a sentence', () => {
    expect(countText('Objective\nDebt fell 3.5% in 2024. Cash rose.\n- Margins held').sentences).toBe(4);
  });

  it('refuses Korean text and text without words', () => {
    expect(() => readability('상환능력은 안정적이다. 부채비율이 하락했다.')).toThrow(/English/);
    expect(() => readability('… — !')).toThrow(/no English words/);
    expect(() => readabilityFromCounts({ words: 0, sentences: 1, syllables: 0, letters: 0, characters: 0 })).toThrow();
  });
});

describe('readabilityOfRun', () => {
  const content = {
    objective: 'Repayment capability remains stable.',
    overview: 'The lender wanted better liquidity in 2024!',
    favorableSummary: [],
    adverseSummary: [],
    topics: [{ topic: 'Cash', factor: 'liquidity', affirmative: 'Cash rose.', adverse: '', citations: [{ source: 'DART', date: '2024-05-01' }] }],
  };

  it("measures the report's prose only: no labels, factor ids or citations", () => {
    const r = readabilityOfRun({ params: { language: 'en' } as never, report: { content, checks: [] } });
    // The two sentences above plus "Cash" and "Cash rose." (topic and affirmative reading).
    expect(r).toMatchObject({ words: 14, sentences: 4 });
  });

  it('refuses a Korean run and a run without a report', () => {
    expect(() => readabilityOfRun({ params: { language: 'ko' } as never, report: { content, checks: [] } })).toThrow(/output language is ko/);
    expect(() => readabilityOfRun({ params: { language: 'en' } as never, report: null })).toThrow(/no report/);
  });
});
