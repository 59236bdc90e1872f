// The offline analyst's reading of one item (reading.ts): red flags never favorable, the item's
// own words over a rule tag that contradicts them, an RM's tag kept.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { words } from './lexicon';
import { isRedFlag, readingOf, signalOf } from './reading';

const demo = new Map(
  fs
    .readFileSync(path.join(process.cwd(), 'data/demo/evidence.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { id: string; category: string; title: string; text: string })
    .map((r) => [r.id, r] as const),
);
const item = (id: string) => demo.get(id)!;

describe('reading an item from its own words', () => {
  it('never reads the creditor-bank workout as favorable, whatever its tag — not even an RM override', () => {
    const workout = item('taeyoung-engineering-construction-001');
    expect(isRedFlag(workout)).toBe(true);
    expect(readingOf({ ...workout, polarity: 'favorable' })).toBe('adverse');
    expect(readingOf({ ...workout, polarity: 'favorable', rm: true })).toBe('adverse');
    expect(readingOf({ ...workout, polarity: 'context' })).toBe('adverse');
  });

  it('lets the words win over a contradicting rule tag: a verdict for the defendants, a suit withdrawn, a demand contraction', () => {
    expect(readingOf({ ...item('tesla-035'), polarity: 'adverse' })).toBe('favorable');
    expect(readingOf({ ...item('samsung-electronics-004'), polarity: 'adverse' })).toBe('favorable');
    expect(readingOf({ ...item('samsung-electronics-011'), polarity: 'favorable' })).toBe('adverse');
    // A pending suit stays as tagged; an RM who reads the verdict otherwise is not overruled.
    expect(readingOf({ ...item('tesla-034'), polarity: 'adverse' })).toBe('adverse');
    expect(readingOf({ ...item('tesla-035'), polarity: 'context', rm: true })).toBe('context');
  });

  it('reads a suit won, a workout and a clean audit — all internal control — each for what it is', () => {
    const read = (id: string, lang: 'en' | 'ko') => {
      const i = item(id);
      return words(lang, 'internal_control_risk', i.category, signalOf(i));
    };
    expect(signalOf(item('tesla-035'))).toBe('suit_won');
    expect(signalOf(item('samsung-electronics-004'))).toBe('suit_withdrawn');
    expect(signalOf(item('samsung-electronics-030'))).toBe('audit_clean');
    expect(read('tesla-035', 'en').favReading).toBe('the suit ended in the company’s favour, which removes a contingent liability');
    expect(read('samsung-electronics-004', 'ko').favReading).toBe('소송이 취하되거나 합의로 끝나 소송 위험 하나가 해소되었다');
    expect(read('samsung-electronics-030', 'en').favReading).toMatch(/^clean audit/);
    expect(read('taeyoung-engineering-construction-001', 'en').advReading).toBe('a creditor-managed procedure means the company could not meet its obligations on its own');
    expect(read('samsung-electronics-022', 'en').advReading).toMatch(/^a fine or criminal sanction/);
  });

  it('reads an EDGAR index entry, a lapsed and a pending patent by what they are, not by their factor', () => {
    expect(signalOf(item('tesla-001'))).toBe('filing_index');
    expect(readingOf({ ...item('tesla-001'), polarity: 'adverse' })).toBe('context');
    expect(signalOf(item('wintec-automation-017'))).toBe('patent_lapsed');
    expect(signalOf(item('wintec-automation-013'))).toBe('patent_pending');
    expect(words('en', 'technological_disruption_risk', 'patent', 'patent_lapsed').favReading).not.toMatch(/strong patent/);
  });
});
