import { describe, expect, it } from 'vitest';
import { firstSentence, rank, shorten, type Item, type Pool } from './material';
import { selectSignals } from './select';
import { clip, fit, josa, pieces, polite } from './text';

describe('prose mechanics', () => {
  it('fits a turn by dropping the least important sentences first, never cutting a citation mid-way', () => {
    const text = fit(
      [
        { text: 'Core claim.', priority: 10 },
        { text: '(1) A signal (Source, 2024-01-01).', priority: 8, join: 'line' },
        { text: 'Why it matters, at some length.', priority: 1 },
        { text: 'Refuted by X.', priority: 7, join: 'line' },
      ],
      70,
    );
    expect(text).toBe('Core claim.\n(1) A signal (Source, 2024-01-01).\nRefuted by X.');
    // Shortened at a sentence, else a clause, else a word: never cut off with an ellipsis.
    expect(clip('One sentence here. Another sentence that runs long.', 30)).toBe('One sentence here.');
    expect(clip('A first clause runs on, and a second clause runs on and on', 40)).toBe('A first clause runs on.');
    expect(clip('Nothing but words without any stop in them at all', 20)).toBe('Nothing but words.');
  });

  it('streams in word pieces that give the text back exactly', () => {
    const text = ' 핵심 주장: 상환 능력은\n유지된다.  Two  spaces ';
    expect(pieces(text).join('')).toBe(text);
  });

  it('chooses Korean particles by the final consonant, and turns plain endings polite', () => {
    expect(josa('경영 연속성', '은')).toBe('경영 연속성은');
    expect(josa('인증 보유', '이')).toBe('인증 보유가');
    expect(josa('D1', '은')).toBe('D1은');
    expect(josa('긍정적', '으로')).toBe('긍정적으로');
    expect(josa('서울', '으로')).toBe('서울로');
    expect(polite('위험이 낮다. 계획이 유지된다. 뜻이 아니다.')).toBe('위험이 낮습니다. 계획이 유지됩니다. 뜻이 아닙니다.');
  });
});

const item = (key: string, factor: Item['factor'], polarity: Item['polarity'], date: string, stale = false): Item => ({
  key,
  evidenceId: key,
  factor,
  polarity,
  signal: null,
  redFlag: false,
  category: 'news',
  title: `title ${key}`,
  text: '',
  value: null,
  date,
  source: 'Source',
  stale,
  origin: 'pool',
  materiality: 0,
  decisive: false,
});

const pool = (list: Item[]): Pool => {
  const items = [...list].sort(rank);
  return { items, byKey: new Map(items.map((i) => [i.key, i])), asOf: '2025-01-01', recencyDays: 365, given: items.length };
};

describe('choosing signals', () => {
  it('takes one factor per signal, fresh evidence before stale and newest first', () => {
    const p = pool([
      item('a', 'management_continuity', 'favorable', '2022-01-01', true),
      item('b', 'certifications', 'favorable', '2024-06-01'),
      item('c', 'management_continuity', 'favorable', '2024-03-01'),
      item('d', 'employment_stability', 'favorable', '2024-09-01'),
    ]);
    const { picks, thin } = selectSignals(p, { side: 'favorable', count: 3 });
    expect(picks.map((x) => x.item.key)).toEqual(['d', 'b', 'c']);
    expect(thin).toBe(false);
  });

  it('leaves out excluded factors, and crosses into them only as a stated last resort', () => {
    const p = pool([item('a', 'management_continuity', 'adverse', '2024-01-01'), item('b', 'economic_sensitivity', 'adverse', '2024-01-01')]);
    const strict = selectSignals(p, { side: 'adverse', count: 3, exclude: new Set(['management_continuity']) });
    expect(strict.picks.map((x) => x.item.key)).toEqual(['b']);
    expect(strict.thin).toBe(true);
    const crossed = selectSignals(p, { side: 'adverse', count: 3, exclude: new Set(['management_continuity']), allowCrossed: true });
    expect(crossed.picks.map((x) => [x.item.key, x.mode])).toEqual([
      ['b', 'direct'],
      ['a', 'crossed'],
    ]);
  });

  it('reuses a factor only with different evidence, and never reads an item against its own reading', () => {
    const same = item('a', 'technological_disruption_risk', 'favorable', '2024-01-01');
    const twin = { ...same, key: 'b', evidenceId: 'b' }; // same date, value and title: not different evidence
    const other = { ...same, key: 'c', evidenceId: 'c', date: '2023-01-01' };
    expect(selectSignals(pool([same, twin, other]), { side: 'favorable', count: 3 }).picks.map((x) => [x.item.key, x.mode])).toEqual([
      ['a', 'direct'],
      ['c', 'reuse'],
    ]);
    const onlyAdverse = pool([item('x', 'internal_control_risk', 'adverse', '2024-01-01')]);
    const none = selectSignals(onlyAdverse, { side: 'favorable', count: 3 });
    expect(none.picks).toEqual([]);
    expect(none.thin).toBe(true);
  });
});

describe('shortening titles and quotations', () => {
  it('shortens at a clause boundary, never with an ellipsis, and keeps a title with no boundary whole', () => {
    expect(shorten('외부감사 의견 적정(삼정회계법인), 핵심감사사항: 메모리 재고자산 평가 (제55기)', 40)).toBe(
      '외부감사 의견 적정(삼정회계법인), 핵심감사사항: 메모리 재고자산 평가',
    );
    expect(shorten('Going-private tweet litigation: jury verdict for defendants affirmed on appeal (Nov 6, 2024)', 60)).toBe(
      'Going-private tweet litigation: jury verdict for defendants affirmed on appeal',
    );
    const whole = 'EV demand risk in a competitive, cyclical and volatile automotive industry';
    expect(shorten(whole, 44)).toBe(whole);
  });
});

describe('a date is not a sentence end', () => {
  it('does not stop inside "(2022.02~2022.05)"', () => {
    expect(shorten('대표이사·등기이사 교체 (2022.02~2022.05)', 30)).toBe('대표이사·등기이사 교체 (2022.02~2022.05)');
  });
});

describe('quotations stop at real sentence ends (lib/util/sentences.ts)', () => {
  // tesla-027 in data/demo/evidence.jsonl: its second sentence holds "the U.S." mid-way.
  const incentives =
    'Government and economic incentives that support the development and adoption of electric vehicles in the U.S. and abroad, including certain tax exemptions, tax credits and rebates, may be reduced, eliminated, amended or exhausted from time to time. For example, previously available incentives favoring electric vehicles in certain areas have expired.';

  it('never ends a quotation at "the U.S." or "Tesla, Inc."', () => {
    expect(shorten(incentives, 120)).not.toMatch(/U\.S\.$/);
    expect(shorten(incentives, 250)).toBe(incentives.slice(0, incentives.indexOf(' For example')));
    expect(clip(incentives, 120)).not.toMatch(/U\.S\.$/);
    expect(clip('On September 14, 2022, a proposed class action was filed against Tesla, Inc. and related entities in the U.S. District Court.', 90)).toBe(
      // No sentence ends in reach, so the last clause: before, "Tesla, Inc." was taken for a sentence end.
      'On September 14, 2022, a proposed class action was filed against Tesla.',
    );
  });

  it("takes an item's first sentence whole (its own words in a briefing)", () => {
    expect(firstSentence(`${incentives}`, 400)).toBe(incentives.slice(0, incentives.indexOf(' For example')));
    expect(
      firstSentence('2022년 반기 중 총 12.2조원의 R&D투자를 통해 국내 특허 4,630건, 미국 특허 4,170건 등을 등록. 주요 국가 연도별 특허등록 건수', 200),
    ).toBe('2022년 반기 중 총 12.2조원의 R&D투자를 통해 국내 특허 4,630건, 미국 특허 4,170건 등을 등록.');
  });

  it('does not cut a quotation inside brackets', () => {
    const t = 'Tesla filed its report (see Note 14: Commitments and Contingencies, 2024) and the court ruled for it on appeal in full';
    expect(shorten(t, 50)).toBe('Tesla filed its report (see Note 14: Commitments and Contingencies, 2024)');
  });
});
