import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { insideBrackets, sentenceEnds, sentenceSpans, sentences } from '@/lib/util/sentences';

const root = path.resolve(__dirname, '../..');
const evidence = new Map(
  fs
    .readFileSync(path.join(root, 'data/demo/evidence.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; text: string })
    .map((r) => [r.id, r.text]),
);
const text = (id: string) => evidence.get(id)!;
// The legal-proceedings section of Tesla's FY2024 10-K as plain text.
const tenK = fs
  .readFileSync(path.join(root, 'data/fixtures/documents/tesla-10k-fy2024-legal-proceedings.htm'), 'utf8')
  .replace(/<[^>]+>/g, ' ')
  .replace(/&#160;|&nbsp;/g, ' ')
  .replace(/&#8217;/g, '’')
  .replace(/&#8212;/g, '—')
  .replace(/&amp;/g, '&')
  .replace(/\s+/g, ' ');

describe('sentences', () => {
  it('keeps "the U.S." inside its sentence (tesla-027)', () => {
    const s = sentences(text('tesla-027'));
    expect(s[1]).toBe(
      'Government and economic incentives that support the development and adoption of electric vehicles in the U.S. and abroad, including certain tax exemptions, tax credits and rebates, may be reduced, eliminated, amended or exhausted from time to time.',
    );
    expect(s[2]).toMatch(/^For example, previously available incentives/);
    // A quoted sentence closes with its quotation mark.
    expect(s[0]).toMatch(/such products\."$/);
  });

  it('keeps "Tesla, Inc." and the bracketed items of an 8-K whole (tesla-001)', () => {
    const s = sentences(text('tesla-001'));
    expect(s).toHaveLength(2);
    expect(s[0]).toMatch(/^Tesla, Inc\. \(CIK 1318605\) filed .* Item 9\.01 \(Financial Statements and Exhibits\)\.$/);
    expect(s[1]).toBe('The EDGAR submissions index records only the item codes; names, amounts and terms are in the linked filing.');
  });

  it('splits Korean sentences at their endings, not at decimals (samsung-electronics-002)', () => {
    const s = sentences(text('samsung-electronics-002'));
    expect(s).toEqual([
      '2022년 반기 중 총 12.2조원의 R&D투자를 통해 국내 특허 4,630건, 미국 특허 4,170건 등을 등록.',
      '주요 국가 연도별 특허등록 건수 — 한국: 2021년 8,437건, 2020년 6,648건 / 미국: 2021년 8,565건, 2020년 8,520건.',
      '2022년 반기 중 미국에서 194건의 디자인특허(Design Patent) 취득.',
    ]);
  });

  it('reads the 10-K: no sentence ends at "U.S.", "Inc.", "Mr." or inside brackets', () => {
    const s = sentences(tenK);
    expect(s.length).toBeGreaterThan(40);
    // The last is the page's footer, "Form 10-K page 12 — Tesla, Inc.": the text ends there.
    expect(s[s.length - 1]).toMatch(/^Form 10-K page 12 — Tesla, Inc\.$/);
    for (const one of s.slice(0, -1)) {
      expect(one).not.toMatch(/(?:\bU\.S\.|\bInc\.|\bMr\.|\bNo\.)$/);
      // Brackets opened in a sentence close in it.
      expect(one.split('(').length).toBe(one.split(')').length);
    }
    const court = s.find((x) => x.includes('two derivative lawsuits were filed on October 25, 2018'))!;
    expect(court).toMatch(/in the U\.S\. District Court for the District of Delaware, purportedly on behalf of Tesla, against Mr\. Musk and/);
    expect(court).toMatch(/\.$/);
    const against = s.find((x) => x.includes('against Tesla, Inc., Elon Musk'))!;
    expect(against).toMatch(/^On .*2023, a proposed class action was filed in the U\.S\. District Court/);
  });

  it('knows abbreviations, dotted Korean dates, Korean endings without a space and ellipses', () => {
    expect(sentences('Revenue rose approx. 5% vs. last year (Dec. 2023). The board met on Jan. 5.')).toEqual([
      'Revenue rose approx. 5% vs. last year (Dec. 2023).',
      'The board met on Jan. 5.',
    ]);
    expect(sentences('주식회사 윈텍오토메이션은 2023. 12. 28. 이사회에서 증자를 결의했다.또한 특허를 등록함. 다음 공시는 없음.')).toEqual([
      '주식회사 윈텍오토메이션은 2023. 12. 28. 이사회에서 증자를 결의했다.',
      '또한 특허를 등록함.',
      '다음 공시는 없음.',
    ]);
    expect(sentences('Sales fell... but margins held. Then came a pause… Costs rose.')).toEqual([
      'Sales fell... but margins held.',
      'Then came a pause…',
      'Costs rose.',
    ]);
    expect(sentences('Samsung Electronics Co., Ltd. The company makes chips.')).toEqual(['Samsung Electronics Co., Ltd.', 'The company makes chips.']);
    expect(sentences('See the report (filed 2023. Amended later) for more. Next one.')).toEqual([
      'See the report (filed 2023. Amended later) for more.',
      'Next one.',
    ]);
  });

  it('treats line breaks as ends unless told the text is re-flowed', () => {
    expect(sentences('First line\nsecond line')).toEqual(['First line', 'second line']);
    expect(sentences('First line\nsecond line.\n\nNext', { lineBreaks: false })).toEqual(['First line\nsecond line.', 'Next']);
  });

  it('gives spans into the text and the places a quotation may stop', () => {
    const t = 'Tesla, Inc. (2023) sued. It won.';
    expect(sentenceSpans(t).map((s) => t.slice(s.start, s.end))).toEqual(['Tesla, Inc. (2023) sued.', 'It won.']);
    expect(sentenceEnds(t)).toEqual([24, t.length]);
    const inside = insideBrackets(t);
    expect(inside(t.indexOf('2023'))).toBe(true);
    expect(inside(t.indexOf('sued'))).toBe(false);
  });

  it('is linear: half a megabyte of abbreviations and open brackets is read at once', () => {
    const big = 'U.S. Inc. (No. 1. ((( '.repeat(20_000);
    const started = performance.now();
    sentences(big);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
