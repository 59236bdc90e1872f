import { describe, expect, it, vi } from 'vitest';
import { estimateValues, formatDuration } from '@/components/run/live-format';
import { defineMessages, english, isLocale, phraseText, translator } from '@/lib/i18n';
import { errorMessages } from '@/lib/i18n/messages/errors';
import { importMessages } from '@/lib/i18n/messages/import';
import { poolMessages } from '@/lib/i18n/messages/pool';
import { runMessages } from '@/lib/i18n/messages/run';
import { shortfallMessages } from '@/lib/i18n/messages/shortfall';
import { studiesMessages } from '@/lib/i18n/messages/studies';

const messages = defineMessages({
  en: { greeting: 'Hello {name}', steps: '{done} of {total} steps', 'check.dotted': 'A key with a dot' },
  ko: { greeting: '{name}님 안녕하세요', steps: '{total}단계 중 {done}단계', 'check.dotted': '점이 있는 키' },
});

describe('i18n', () => {
  it('picks the table of the locale and fills placeholders', () => {
    expect(translator(messages, 'ko')('steps', { done: 3, total: 11 })).toBe('11단계 중 3단계');
    expect(translator(messages, 'en')('greeting', { name: 'Kim' })).toBe('Hello Kim');
    expect(translator(messages, 'ko')('check.dotted')).toBe('점이 있는 키');
  });
  it('shows a message whose value is missing with its placeholder, instead of failing the page', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(translator(messages, 'en')('greeting', {})).toBe('Hello {name}');
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });
  it('an unknown key is shown as it is', () => {
    expect(translator(messages, 'en')('nope' as 'greeting')).toBe('nope');
  });
  it('accepts only the two interface languages', () => {
    expect(isLocale('ko')).toBe(true);
    expect(isLocale('de')).toBe(false);
    expect(isLocale(undefined)).toBe(false);
  });
  it('translates a phrase by the first table that has its key, and renders English for logs', () => {
    expect(phraseText([importMessages, errorMessages], 'ko', { key: 'internalWithReference', values: { ref: '1a2b3c4d' } })).toBe(
      '시스템 내부 오류가 발생했습니다. 다시 시도하세요. (참조 번호 1a2b3c4d)',
    );
    expect(phraseText([errorMessages], 'ko', { key: 'Something only the server knows.' })).toBe('Something only the server knows.');
    expect(english(importMessages, 'unknownCompany', { id: 'acme' })).toBe(
      'Unknown company "acme": it is neither in this import\'s companies.json nor in the knowledge pool.',
    );
  });
});

// Issue 16: English counts take ICU plurals, and counts are written 1,234 in both languages.
describe('plurals and counts', () => {
  const imp = { en: translator(importMessages, 'en'), ko: translator(importMessages, 'ko') };
  it('an import that left out one row says "row"', () => {
    expect(imp.en('importedRejected', { n: 1 })).toBe('; left out 1 rejected row');
    expect(imp.en('importedRejected', { n: 1234 })).toBe('; left out 1,234 rejected rows');
    expect(imp.ko('importedRejected', { n: 1234 })).toBe('. 오류가 있는 1,234행은 제외했습니다');
    expect(imp.en('imported', { companies: 1, evidence: 1, documents: 0, chunks: 1, duplicates: 1, rejected: '' })).toBe(
      'Imported 1 company, 1 evidence item and 0 documents (1 passage); skipped 1 duplicate.',
    );
    expect(imp.ko('imported', { companies: 1, evidence: 2500, documents: 0, chunks: 1, duplicates: 1, rejected: '' })).toBe(
      '기업 1곳, 근거 자료 2,500건, 문서 0건(본문 단락 1개)을 가져왔습니다. 중복 1건은 건너뛰었습니다.',
    );
    expect(imp.en('tooLong', { n: 5000012, max: 500 })).toBe('is 5,000,012 characters long; the most is 500');
  });
  it('a study of one report and one evaluator says so in the singular', () => {
    const values = { status: 'open', seed: 7, reports: 1, evaluators: 1 };
    expect(translator(studiesMessages, 'en')('detailDescription', values)).toBe('Status: open. Order seed 7. 1 report × 1 evaluator.');
    expect(translator(studiesMessages, 'en')('detailDescription', { ...values, reports: 12, evaluators: 3 })).toBe(
      'Status: open. Order seed 7. 12 reports × 3 evaluators.',
    );
    expect(translator(studiesMessages, 'ko')('detailDescription', { ...values, status: '진행 중' })).toBe(
      '상태: 진행 중. 순서 시드 7. 보고서 1개 × 평가자 1명.',
    );
  });
  it('the run-time estimate: "1 recent run", and "under 1 s" instead of "About 0 s"', () => {
    const en = translator(runMessages, 'en');
    const ko = translator(runMessages, 'ko');
    expect(en('estimateTime', estimateValues(125_000, 1))).toBe('About 2 min 5 s (median of 1 recent run)');
    expect(en('estimateTime', estimateValues(310, 4))).toBe('Under 1 s (median of 4 recent runs)');
    expect(ko('estimateTime', estimateValues(310, 4))).toBe('1초 미만(최근 4건 실행의 중앙값)');
    expect(ko('estimateTime', estimateValues(4_000, 1, 'ko'))).toBe('약 4초(최근 1건 실행의 중앙값)');
    expect(ko('estimateTime', estimateValues(75_000, 2, 'ko'))).toBe('약 1분 15초(최근 2건 실행의 중앙값)');
    expect(formatDuration(3 * 3_600_000 + 120_000, 'ko')).toBe('3시간 2분');
    expect(formatDuration(75_000)).toBe('1 min 15 s');
  });
  it('the evidence shortfall counts items and factors without an English-only suffix', () => {
    const en = translator(shortfallMessages, 'en');
    expect(en('held', { asOf: '2024-06-30', items: 1, factors: 1 })).toBe(
      'As of 2024-06-30, the knowledge pool holds 1 evidence item on 1 of the ten guideline factors.',
    );
    expect(en('short', { items: 1200, factors: 3, minItems: 1, minFactors: 2 })).toBe('Pool: 1,200 items; factors covered: 3. Needs 1 item on 2 factors.');
  });
  it('pool counts are locale-formatted', () => {
    expect(translator(poolMessages, 'en')('factorCounts', { total: 1, favorable: 1200, adverse: 0 })).toBe('1 item · 1,200 favorable · 0 adverse');
    expect(translator(poolMessages, 'ko')('factorCounts', { total: 1200, favorable: 1, adverse: 0 })).toBe('1,200건 · 긍정 1건 · 부정 0건');
  });
  it('token counts: one token, 1,234 tokens', () => {
    expect(translator(runMessages, 'en')('tokens', { n: 1 })).toBe('1 token');
    expect(translator(runMessages, 'en')('turnUsageCost', { tokens: 1234, cost: '$0.01' })).toBe('1,234 tokens · $0.01');
    expect(translator(runMessages, 'ko')('tokensOffline', { n: 1234 })).toBe('토큰 1,234개(오프라인 분석기가 읽고 쓴 분량으로 추정)');
  });
});
