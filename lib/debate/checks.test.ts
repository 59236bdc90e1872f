import { describe, expect, it } from 'vitest';
import { finalChecks, resolveCitations, sameSource, supports, type KnownEvidence, type ResolvedCitation } from '@/lib/debate/checks';
import type { Citation, Turn } from '@/lib/domain/outputs';
import type { RedFlag } from '@/lib/domain/red-flags';

const ASOF = '2024-12-31';
const item = (id: string, sourceName: string, publishedDate: string, extra: Partial<KnownEvidence> = {}): KnownEvidence => ({
  id,
  sourceName,
  publishedDate,
  ...extra,
});

const shownItems = [
  item('ev-1', 'DART', '2024-11-01', { sourceUrl: 'https://dart.fss.or.kr/report/1' }),
  item('ev-2', 'Yonhap News Agency', '2024-10-15', { sourceUrl: 'https://en.yna.co.kr/view/AEN2024' }),
  item('ev-3', 'Financial Supervisory Service', '2024-09-30'),
  item('web-r1-1', 'Reuters', '2024-12-02', { sourceUrl: 'https://www.reuters.com/markets/a?utm_source=x' }),
];
// The pool holds more than the step was shown: ev-9 is on the other side, ev-late after as-of.
const pool = [...shownItems, item('ev-9', 'KED', '2024-08-01'), item('ev-late', 'DART', '2025-02-10')];
const scope = (shown = shownItems) => ({ shown: new Map(shown.map((k) => [k.id, k])), known: new Map(pool.map((k) => [k.id, k])), asOf: ASOF });

/** A turn citing `citations`, one claim each, and the resolution's result. */
function resolve(citations: (Citation & { url?: string })[], s = scope()) {
  const output: Turn = {
    text: 't',
    claims: citations.map((c, i) => ({ id: `D1-c${i + 1}`, text: 'x', factor: 'governance', polarity: 'favorable', citations: [{ ...c }] })),
    questions: [],
  };
  const result = resolveCitations(output, s);
  return { ...result, cited: output.claims.map((c) => c.citations[0] as ResolvedCitation) };
}

describe('resolving citations against what the step was shown', () => {
  it('verifies a citation of a shown item by its id, with nothing to record', () => {
    const { cited, repairs, resolved, total } = resolve([{ evidenceId: 'ev-1', source: 'DART', date: '2024-11-01' }]);
    expect(cited[0]).toMatchObject({ evidenceId: 'ev-1', verified: true });
    expect(cited[0]).not.toHaveProperty('afterAsOf');
    expect(repairs).toEqual([]);
    expect({ resolved, total }).toEqual({ resolved: 1, total: 1 });
  });

  it('leaves a pool item the step was not shown unverified, even with a source and date that fit another item', () => {
    const { cited, repairs } = resolve([{ evidenceId: 'ev-9', source: 'DART', date: '2024-11-01' }]);
    expect(cited[0]).toMatchObject({ evidenceId: 'ev-9', verified: false });
    expect(repairs).toEqual([{ kind: 'citation-unverified', detail: 'ev-9 is in the pool but was not shown to this step' }]);
  });

  it('leaves an id that names nothing, with nothing alike, unverified', () => {
    const { cited, repairs } = resolve([{ evidenceId: 'ev-404', source: 'Bloomberg', date: '2024-11-01' }]);
    expect(cited[0].verified).toBe(false);
    expect(repairs).toEqual([{ kind: 'citation-unverified', detail: 'ev-404 matches nothing this step was shown' }]);
  });

  it('flags a citation of a pool item dated after as-of: not support, kept visible, recorded', () => {
    // The as-of pool read never shows it; a model that cites it anyway must not be believed.
    const withLate = scope([...shownItems, pool.find((k) => k.id === 'ev-late')!]);
    const { cited, repairs, resolved } = resolve([{ evidenceId: 'ev-late', source: 'DART', date: '2025-02-10' }], withLate);
    expect(cited[0]).toMatchObject({ evidenceId: 'ev-late', verified: false, afterAsOf: true });
    expect(supports(cited[0])).toBe(false);
    expect(resolved).toBe(0);
    expect(repairs).toEqual([{ kind: 'citation-after-as-of', detail: 'ev-late is dated 2025-02-10, after the as-of date 2024-12-31: not counted as support' }]);
  });

  it('flags a citation whose own date is after as-of, even when it names a shown item', () => {
    const { cited, repairs } = resolve([{ evidenceId: 'ev-1', source: 'DART', date: '2025-01-05' }]);
    expect(cited[0]).toMatchObject({ verified: false, afterAsOf: true });
    expect(repairs.map((r) => r.kind)).toEqual(['citation-after-as-of']);
  });

  it('matches a citation by its link and gives it the item id', () => {
    const { cited, repairs } = resolve([
      { source: 'Reuters', date: '2024-12-01', url: 'https://reuters.com/markets/a/' },
      { evidenceId: 'https://en.yna.co.kr/view/AEN2024', source: 'https://en.yna.co.kr/view/AEN2024', date: '2024-10-15' },
    ]);
    expect(cited[0]).toMatchObject({ evidenceId: 'web-r1-1', verified: true });
    expect(cited[1]).toMatchObject({ evidenceId: 'ev-2', source: 'Yonhap News Agency', verified: true });
    expect(repairs).toEqual([
      { kind: 'citation-matched', detail: 'Reuters, 2024-12-01 → web-r1-1 (by its link)' },
      { kind: 'citation-matched', detail: 'https://en.yna.co.kr/view/AEN2024, 2024-10-15 → ev-2 (by its link)' },
    ]);
  });

  it('matches a shortened source on the same date: a start, an initialism, other case and punctuation', () => {
    const { cited, repairs } = resolve([
      { source: 'Yonhap', date: '2024-10-15' },
      { source: 'FSS', date: '2024-09-30' },
      { evidenceId: 'made-up-3', source: 'd.a.r.t', date: '2024-11-01' },
    ]);
    expect(cited.map((c) => [c.evidenceId, c.verified])).toEqual([
      ['ev-2', true],
      ['ev-3', true],
      ['ev-1', true],
    ]);
    expect(repairs.map((r) => r.detail)).toEqual([
      'Yonhap, 2024-10-15 → ev-2 (by source and date)',
      'FSS, 2024-09-30 → ev-3 (by source and date)',
      'made-up-3 → ev-1 (by source and date)',
    ]);
  });

  it('does not match the same source on another date', () => {
    const { cited, repairs } = resolve([{ source: 'Yonhap News Agency', date: '2024-10-16' }]);
    expect(cited[0].verified).toBe(false);
    expect(cited[0]).not.toHaveProperty('evidenceId');
    expect(repairs).toEqual([{ kind: 'citation-unverified', detail: 'Yonhap News Agency, 2024-10-16 matches nothing this step was shown' }]);
  });

  it('does not guess between two items a source and date fit equally', () => {
    const twins = scope([...shownItems, item('ev-4', 'Yonhap News', '2024-10-15')]);
    expect(resolve([{ source: 'Yonhap', date: '2024-10-15' }], twins).cited[0].verified).toBe(false);
    // An exact name still picks its own item.
    expect(resolve([{ source: 'Yonhap News', date: '2024-10-15' }], twins).cited[0]).toMatchObject({ evidenceId: 'ev-4', verified: true });
  });
});

describe('lenient source names', () => {
  it('takes case, spacing, punctuation, a leading "the", starts and initials as the same source', () => {
    for (const [a, b] of [
      ['The Korea Herald', 'korea herald'],
      ['Bank of Korea', 'BOK'],
      ['Financial Supervisory Service', 'F.S.S.'],
      ['연합뉴스', '연합'],
      ['Yonhap News Agency', 'yonhap news'],
    ]) {
      expect(sameSource(a, b), `${a} / ${b}`).toBe(true);
    }
  });

  it('keeps different sources apart', () => {
    for (const [a, b] of [
      ['Reuters', 'Thomson Reuters Foundation'],
      ['KED', 'Korea Investors Service'],
      ['DART', 'Dow Jones'],
      ['Yo', 'Yonhap'],
      ['', 'DART'],
    ]) {
      expect(sameSource(a, b), `${a} / ${b}`).toBe(false);
    }
  });
});

describe('final checks', () => {
  it('lists citations dated after as-of on their own check, not as unverified, and an unreadable date as undated', () => {
    const output = {
      text: 'Enough English text for the language check.',
      claims: [
        {
          id: 'D1-c1',
          text: 'x',
          factor: 'governance',
          polarity: 'favorable',
          citations: [
            { evidenceId: 'ev-late', source: 'DART', date: '2025-02-10', verified: false, afterAsOf: true },
            { evidenceId: 'ev-9', source: 'KED', date: '2024-08-01', verified: false },
            { evidenceId: 'ev-1', source: 'DART', date: 'Q3 2024', verified: true },
          ],
        },
      ],
      questions: [],
    };
    const checks = finalChecks({ steps: [{ stepId: 'D1', text: output.text, output }], known: new Map(pool.map((k) => [k.id, k])), language: 'en' });
    const byId = Object.fromEntries(checks.map((c) => [c.id, c]));
    expect(byId['after-as-of']).toMatchObject({ ok: false, items: ['D1: ev-late 2025-02-10'] });
    expect(byId['unverified-citations']).toMatchObject({ ok: false, items: ['D1: ev-9'] });
    expect(byId['undated-or-unsourced']).toMatchObject({ ok: false, items: ['D1: DART Q3 2024'] });
  });
});

describe('red-flags-addressed', () => {
  const WORKOUT: RedFlag = {
    kind: 'creditor_workout',
    evidenceId: 'taeyoung-engineering-construction-001',
    date: '2024-01-11',
    title: '채권은행 등의 관리절차 개시: 금융채권자협의회(주채권은행 한국산업은행), 2024.01.11~2027.05.30',
  };
  const DEFAULT: RedFlag = {
    kind: 'payment_default',
    evidenceId: 'dart-20231012000317-dfOcr',
    date: '2023-10-12',
    title: '부도발생: 당사 김제지점 발행 만기어음 부도 (48,322,175원)',
  };
  const cite = (evidenceId: string) => ({ evidenceId, source: 'OpenDART', date: '2025-02-17' });
  const check = (output: unknown, redFlags: RedFlag[] = [WORKOUT, DEFAULT], reportStep = 'AG') =>
    finalChecks({
      steps: [
        { stepId: 'D1', text: '', output: { text: '', claims: [], questions: [] } },
        { stepId: reportStep, text: '', output },
      ],
      known: new Map(),
      language: 'ko',
      redFlags,
      reportStep,
    }).find((c) => c.id === 'red-flags-addressed')!;
  const topic = (adverse: string, ids: string[]) => ({ topic: 't', factor: 'internal_control_risk', affirmative: 'x', adverse, citations: ids.map(cite) });
  const report = (topics: unknown[], overview = '') => ({ overview, objective: '', favorableSummary: [], adverseSummary: [], topics });

  it('passes when the report cites each flag in an adverse reading, and fails naming each flag it leaves out', () => {
    expect(check(report([topic('워크아웃은 상환에 불리', [WORKOUT.evidenceId]), topic('부도', [DEFAULT.evidenceId])]))).toMatchObject({ ok: true, items: [] });
    expect(check(report([topic('워크아웃은 상환에 불리', [WORKOUT.evidenceId])]))).toMatchObject({
      ok: false,
      items: [`${DEFAULT.title} [${DEFAULT.evidenceId}]`],
    });
    // Cited only on the favorable side (no adverse reading) is not addressing it.
    expect(check(report([topic('', [WORKOUT.evidenceId, DEFAULT.evidenceId])]))).toMatchObject({
      ok: false,
      items: [`${WORKOUT.title} [${WORKOUT.evidenceId}]`, `${DEFAULT.title} [${DEFAULT.evidenceId}]`],
    });
  });

  it('reads the report step, not the debate before it', () => {
    const debate = {
      text: '',
      claims: [
        { id: 'D1-c1', text: 'x', factor: 'internal_control_risk', polarity: 'adverse', citations: [cite(WORKOUT.evidenceId), cite(DEFAULT.evidenceId)] },
      ],
      questions: [],
    };
    const result = finalChecks({
      steps: [
        { stepId: 'D1', text: '', output: debate },
        { stepId: 'AG', text: '', output: report([]) },
      ],
      known: new Map(),
      language: 'en',
      redFlags: [WORKOUT, DEFAULT],
      reportStep: 'AG',
    });
    expect(result.find((c) => c.id === 'red-flags-addressed')!.ok).toBe(false);
  });

  it("accepts adverse claims in FinDebate's kept report, and not favorable ones", () => {
    const claim = (polarity: string, id: string) => ({ id: `c-${id}`, text: 'x', factor: 'internal_control_risk', polarity, citations: [cite(id)] });
    const safety = (claims: unknown[]) => ({
      reason: '',
      stanceChanged: false,
      horizonsChanged: false,
      kept: 'final',
      report: { text: '', stance: 'adverse', horizons: [], claims },
    });
    expect(check(safety([claim('adverse', WORKOUT.evidenceId), claim('adverse', DEFAULT.evidenceId)]), undefined, 'SAFETY').ok).toBe(true);
    expect(check(safety([claim('favorable', WORKOUT.evidenceId), claim('adverse', DEFAULT.evidenceId)]), undefined, 'SAFETY').items).toEqual([
      `${WORKOUT.title} [${WORKOUT.evidenceId}]`,
    ]);
  });

  it('asks reports without citations (SAS lead, three-round judge) to name each flag in their prose', () => {
    const lead = (primaryRisk: string) => ({ executiveSummary: 'x', evidenceReview: 'x', keyTakeaways: [], primaryRisk, mitigation: '', outlook: '' });
    expect(check(lead(`워크아웃 [${WORKOUT.evidenceId}], 부도 ${DEFAULT.title}`), undefined, 'LEAD').ok).toBe(true);
    expect(check(lead('상환 능력은 유지된다'), undefined, 'LEAD').items).toHaveLength(2);
    const judge = (recommendation: string) => ({
      overall: { keyInsight: 'x', affirmativeTotal: 6, negativeTotal: 7, unresolved: [], recommendation },
      scores: [{ argumentId: 'R1-N-a1', logic: 7, evidence: 8, responsiveness: 6, honesty: 8, weighted: 7.3 }],
      fallacies: [],
      trace: [],
    });
    expect(check(judge(`[${WORKOUT.evidenceId}] [${DEFAULT.evidenceId}]`), undefined, 'JUDGE').ok).toBe(true);
    expect(check(judge('대출 가능'), undefined, 'JUDGE').ok).toBe(false);
    // A report with citations must also cite what its prose names.
    expect(check(report([], `워크아웃 [${WORKOUT.evidenceId}]`), [WORKOUT]).ok).toBe(false);
  });

  it('passes with no red flags, and does not count red-flag citations as stale or as a reused factor', () => {
    expect(check(report([]), [])).toMatchObject({ ok: true, items: [] });
    // The workout filing is stale; the pool holds a newer item on its factor.
    const known = new Map([
      [WORKOUT.evidenceId, { id: WORKOUT.evidenceId, sourceName: 'OpenDART', publishedDate: '2025-02-17', stale: true, factor: 'internal_control_risk' }],
      ['ev-x', { id: 'ev-x', sourceName: 'Court', publishedDate: '2025-06-01', factor: 'internal_control_risk' }],
    ]);
    const claim = (id: string, ev: string, respondsTo?: string) => ({
      id,
      text: 'x',
      factor: 'internal_control_risk',
      polarity: 'adverse',
      citations: [cite(ev)],
      ...(respondsTo ? { respondsTo } : {}),
    });
    const output = { text: '', claims: [claim('c1', WORKOUT.evidenceId), claim('c2', WORKOUT.evidenceId), claim('c3', 'ev-x')], questions: [] };
    const steps = [{ stepId: 'D1', text: '', output }];
    const withFlags = Object.fromEntries(finalChecks({ steps, known, language: 'en', redFlags: [WORKOUT, DEFAULT] }).map((c) => [c.id, c]));
    expect(withFlags['stale-evidence']).toMatchObject({ ok: true });
    expect(withFlags['reused-factors']).toMatchObject({ ok: true });
    const without = Object.fromEntries(finalChecks({ steps, known, language: 'en' }).map((c) => [c.id, c]));
    expect(without['stale-evidence']).toMatchObject({ ok: false, items: [`D1: ${WORKOUT.evidenceId}`] });
    // c1 and c2 rest on the same item; c3 on another, which Rule 4 allows.
    expect(without['reused-factors']).toMatchObject({ ok: false, items: ['D1: internal_control_risk ×2 (c1, c2)'] });
  });

  it('agrees with Rule 4: a factor shared with different evidence, or to answer different questions, is no reuse', () => {
    const claim = (id: string, ev: string, respondsTo?: string) => ({
      id,
      text: 'x',
      factor: 'industry_outlook',
      polarity: 'adverse',
      citations: [cite(ev)],
      ...(respondsTo ? { respondsTo } : {}),
    });
    const reused = (...claims: object[]) =>
      finalChecks({ steps: [{ stepId: 'D10', text: '', output: { text: '', claims, questions: [] } }], known: new Map(), language: 'en' }).find(
        (c) => c.id === 'reused-factors',
      )!;
    expect(reused(claim('c1', 'ev-a'), claim('c2', 'ev-b')).ok).toBe(true);
    // A thin pool: three questions answered from the one item the closing may cite.
    expect(reused(claim('c1', 'ev-a', 'D4-q1'), claim('c2', 'ev-a', 'D4-q2'), claim('c3', 'ev-a', 'D4-q3')).ok).toBe(true);
    expect(reused(claim('c1', 'ev-a', 'D4-q1'), claim('c2', 'ev-a', 'D4-q1'))).toMatchObject({ ok: false, items: ['D10: industry_outlook ×2 (c1, c2)'] });
    // `other` holds every untagged item: never a reuse.
    expect(reused({ ...claim('c1', 'ev-a'), factor: 'other' }, { ...claim('c2', 'ev-a'), factor: 'other' }).ok).toBe(true);
  });

  it('reads an English report that quotes Korean titles as written as English, and Korean prose as not', () => {
    const language = (text: string) =>
      finalChecks({ steps: [{ stepId: 'AG', text, output: { text } }], known: new Map(), language: 'en' }).find((c) => c.id === 'output-language')!;
    const quoted =
      'The half-year report “공정위 과징금 1,012억 17백만원: 삼성웰스토리 단체급식 거래” records a fine; the audit “외부감사 의견 적정” was clean.';
    expect(language(quoted).ok).toBe(true);
    expect(language(quoted.replace(/[“”]/g, '')).ok).toBe(false);
  });

  it('agrees with Rule 5: a stale item is a finding only where the pool holds newer evidence on its factor, once, where it was first cited', () => {
    const known = new Map([
      ['old', { id: 'old', sourceName: 'News', publishedDate: '2019-01-01', stale: true, factor: 'industry_outlook' }],
      ['older', { id: 'older', sourceName: 'News', publishedDate: '2018-01-01', stale: true, factor: 'certifications' }],
      ['new', { id: 'new', sourceName: 'News', publishedDate: '2025-01-01', factor: 'industry_outlook' }],
    ]);
    const turn = (stepId: string, ...ids: string[]) => ({
      stepId,
      text: '',
      output: {
        text: '',
        claims: ids.map((ev, i) => ({ id: `${stepId}-c${i + 1}`, text: 'x', factor: 'other', polarity: 'adverse', citations: [cite(ev)] })),
        questions: [],
      },
    });
    const stale = finalChecks({ steps: [turn('D7', 'old', 'older'), turn('D10', 'old'), turn('AG', 'old', 'older')], known, language: 'en' }).find(
      (c) => c.id === 'stale-evidence',
    )!;
    // `older` is the only item on its factor: Rule 5 allows it. `old` is counted at D7 alone.
    expect(stale).toMatchObject({ ok: false, items: ['D7: old'] });
  });

  it('takes a flag reported by two items of one filing as addressed when the report cites either (one event, one flag)', () => {
    // The same sanction as samsung-electronics-022 and as the sentence accepted from the uploaded
    // half-year report (접수번호 20220816001711), merged into one flag by lib/pool/red-flag-events.ts.
    const FINE: RedFlag = {
      kind: 'regulatory_sanction',
      evidenceId: 'samsung-electronics-022',
      date: '2021-08-27',
      title: '공정위 과징금 1,012억 17백만원: 삼성웰스토리 단체급식 거래 (2021.08.27)',
      alsoEvidenceIds: ['samsung-electronics-3f1c0a9e2b7d'],
    };
    expect(check(report([topic('과징금은 상환에 불리', ['samsung-electronics-3f1c0a9e2b7d'])]), [FINE])).toMatchObject({ ok: true, items: [] });
    expect(check(report([topic('과징금은 상환에 불리', ['samsung-electronics-022'])]), [FINE])).toMatchObject({ ok: true, items: [] });
    expect(check(report([topic('', ['samsung-electronics-3f1c0a9e2b7d'])]), [FINE])).toMatchObject({
      ok: false,
      items: [`${FINE.title} [${FINE.evidenceId}]`],
    });
    // Citing the other copy is no stale-evidence finding either.
    const known = new Map([
      ['samsung-electronics-3f1c0a9e2b7d', { id: 'samsung-electronics-3f1c0a9e2b7d', sourceName: 'DART 원문', publishedDate: '2022-08-16', stale: true }],
    ]);
    const output = {
      text: '',
      claims: [{ id: 'c1', text: 'x', factor: 'internal_control_risk', polarity: 'adverse', citations: [cite('samsung-electronics-3f1c0a9e2b7d')] }],
      questions: [],
    };
    const checks = Object.fromEntries(
      finalChecks({ steps: [{ stepId: 'D1', text: '', output }], known, language: 'en', redFlags: [FINE] }).map((c) => [c.id, c]),
    );
    expect(checks['stale-evidence']).toMatchObject({ ok: true, items: [] });
  });
});
