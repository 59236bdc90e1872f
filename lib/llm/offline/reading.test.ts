// The offline analyst's reading of one item (reading.ts): red flags never favorable, the item's
// own words over a rule tag that contradicts them, an RM's tag kept.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tagByCategory } from '@/lib/pool/factors';
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
    expect(read('taeyoung-engineering-construction-001', 'en').advReading).toBe(
      'a creditor-managed procedure means the company could not meet its obligations on its own',
    );
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

describe('a factor’s stock reading only where the item says it', () => {
  // The words the analyst uses for a demo item, tagged as the import tags it.
  const said = (id: string, lang: 'en' | 'ko') => {
    const i = item(id);
    const tag = tagByCategory(i);
    return words(lang, tag.factor, i.category, signalOf(i), { ...i, polarity: tag.polarity });
  };

  it('says "leading market position" of a stated 1st place, not of a pricing remark', () => {
    // “세트 시장점유율: TV 31.6%(16년 연속 1위)…” states the lead.
    expect(said('samsung-electronics-009', 'ko').favReading).toBe('높은 시장 지위는 가격 결정력과 상환 재원이 되는 이익률을 지켜 준다');
    // “Pricing environment: strong renewal rate change; market "recalibrates risk"” names no lead or share.
    const travelers = said('travelers-companies-002', 'en');
    expect(travelers.favReading).not.toMatch(/leading|market position/);
    expect(travelers.favReading).toBe('as the item states it, this counts for the capacity to repay, and it claims no more than that');
  });

  it('says "clean audit" only of an item stating a clean opinion, not of a board description', () => {
    expect(said('samsung-electronics-030', 'en').favReading).toMatch(/^clean audit/);
    // “이사회 구성: 사내이사 5인·사외이사 4인, 이사회 의장은 사외이사” is a description: context, no finding.
    const board = said('samsung-electronics-017', 'ko');
    expect(board.favReading).not.toMatch(/감사·지배구조상 문제가 없으면/);
    expect(board.favReading).toBe('자료에는 불리한 사건이 적혀 있지 않으며, 상환능력에 대해 그 이상을 보여 주지는 않는다');
  });

  it('does not call a headcount a stable, experienced workforce, nor read labour trouble into it', () => {
    // “Headcount 125,665 employees worldwide (Dec 31, 2024)” states neither tenure nor a dispute.
    const headcount = said('tesla-022', 'en');
    expect(headcount.favReading).not.toMatch(/experienced workforce/);
    expect(headcount.advReading).not.toMatch(/labour disputes/);
    // “직원 117,904명, 평균근속연수 12.5년” states tenure.
    expect(said('samsung-electronics-014', 'ko').favReading).toBe('숙련 인력이 안정적으로 유지되면 사업 운영도 안정된다');
  });
});
