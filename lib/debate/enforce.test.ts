import { describe, expect, it } from 'vitest';
import { getProtocol, getStep } from '@/lib/debate/protocols';
import { enforce, horizonChanges, keptReport, safetyDecision } from '@/lib/debate/enforce';
import type { StoredStanceDraft } from '@/lib/domain/outputs';

// As stored: horizons are codes (`12m`), or an older run's free-text labels, which still compare.
type Draft = StoredStanceDraft;
const fd = getProtocol('findebate');
const h = (horizon: string, outlook: Draft['stance'], confidence = 0.5) => ({ horizon, outlook, confidence });
const draftOf = (stance: Draft['stance'], horizons: Draft['horizons'], id = 'DRAFT'): Draft => ({
  text: `${id} text`,
  stance,
  horizons,
  claims: [
    { id: `${id}-c1`, text: 'claim', factor: 'certifications', polarity: 'favorable', citations: [{ evidenceId: 'e1', source: 'DART', date: '2024-01-01' }] },
  ],
});
const turn = (claims: number) => ({
  text: 't',
  claims: Array.from({ length: claims }, (_, i) => ({ id: `c${i}`, text: 'x', factor: 'other', polarity: 'adverse', citations: [] })),
  questions: [],
});
const context = (draft: Draft, leader: Draft, points = 1) => [
  { step: getStep(fd, 'DRAFT'), output: draft },
  { step: getStep(fd, 'TRUST'), output: turn(points) },
  { step: getStep(fd, 'SKEPTIC'), output: turn(0) },
  { step: getStep(fd, 'LEADER'), output: leader },
];

describe('the horizons the leader changed', () => {
  it('pairs horizons by label whatever their spelling, and counts an outlook, not a confidence', () => {
    expect(
      horizonChanges([h('12 months', 'favorable', 0.6), h('3 years', 'neutral')], [h('12-Months', 'favorable', 0.4), h('3 Years', 'neutral', 0.7)]),
    ).toEqual([]);
    expect(horizonChanges([h('12 months', 'favorable'), h('3 years', 'neutral')], [h('3 years', 'adverse'), h('12 months', 'favorable')])).toEqual([
      { horizon: '3 years', from: 'neutral', to: 'adverse' },
    ]);
  });

  it("pairs an older run's free-text label with the code of the same horizon, in either language", () => {
    expect(horizonChanges([h('12m', 'favorable'), h('36m', 'neutral')], [h('12개월', 'favorable'), h('3 years', 'neutral')])).toEqual([]);
    expect(horizonChanges([h('36m', 'neutral'), h('12m', 'favorable')], [h('1년', 'favorable'), h('3년', 'adverse')])).toEqual([
      { horizon: '36m', from: 'neutral', to: 'adverse' },
    ]);
  });

  it('pairs reworded labels by position, and counts a horizon dropped or added', () => {
    expect(horizonChanges([h('12 months', 'favorable')], [h('one year', 'adverse')])).toEqual([{ horizon: '12 months', from: 'favorable', to: 'adverse' }]);
    expect(horizonChanges([h('12 months', 'favorable'), h('3 years', 'neutral')], [h('12 months', 'favorable')])).toEqual([
      { horizon: '3 years', from: 'neutral', to: null },
    ]);
    expect(horizonChanges([h('12 months', 'favorable')], [h('12 months', 'favorable'), h('5 years', 'adverse')])).toEqual([
      { horizon: '5 years', from: null, to: 'adverse' },
    ]);
  });
});

describe('the safety decision', () => {
  const draft = draftOf('favorable', [h('12 months', 'favorable')]);
  it('keeps the leader when nothing moved and the debate made points; the draft otherwise', () => {
    expect(safetyDecision(context(draft, draftOf('favorable', [h('12 months', 'favorable', 0.7)], 'LEADER')))).toMatchObject({
      kept: 'final',
      stanceChanged: false,
      horizonsChanged: false,
      noRecommendations: false,
    });
    expect(safetyDecision(context(draft, draftOf('favorable', [h('12 months', 'neutral')], 'LEADER')))).toMatchObject({
      kept: 'draft',
      stanceChanged: false,
      horizonsChanged: true,
    });
    expect(safetyDecision(context(draft, draftOf('favorable', [h('12 months', 'favorable')], 'LEADER'), 0))).toMatchObject({
      kept: 'draft',
      noRecommendations: true,
    });
  });

  it("sets a model that kept the draft for nothing back to the leader's version, and says so in the run's language", () => {
    const leader = draftOf('favorable', [h('12 months', 'favorable', 0.7)], 'LEADER');
    const answer = { reason: 'Kept the draft to be safe.', stanceChanged: true, horizonsChanged: false, kept: 'draft', edits: [] };
    const { output, repairs } = enforce(getStep(fd, 'SAFETY'), answer, { context: context(draft, leader), language: 'ko' });
    expect(output).toMatchObject({ stanceChanged: false, horizonsChanged: false, kept: 'final', report: leader });
    expect((output as { reason: string }).reason).toBe(
      '안전 점검 에이전트의 답이 아니라 엔진이 직접 확인한 결과: 입장(긍정적)과 기간별 전망이 그대로이므로, 토론이 더한 근거와 위험을 반영한 리더 안을 유지한다.',
    );
    expect(repairs).toEqual([
      {
        kind: 'safety-corrected',
        detail:
          "the leader's version (stance favorable) is kept: stance and horizon outlooks are unchanged and the debate made its points; the safety checker answered stanceChanged true, horizonsChanged false, kept draft",
      },
    ]);
  });

  it('leaves an answer that agrees with the comparison as it is, and adds the version it keeps as the report', () => {
    const leader = draftOf('favorable', [h('12 months', 'favorable', 0.7)], 'LEADER');
    const answer = { reason: 'Unchanged.', stanceChanged: false, horizonsChanged: false, kept: 'final', edits: [] };
    const { edits: _edits, ...decision } = answer;
    expect(enforce(getStep(fd, 'SAFETY'), answer, { context: context(draft, leader), language: 'en' })).toEqual({
      output: { ...decision, report: leader },
      repairs: [],
    });
  });
});

describe("the kept version the engine assembles from the safety checker's decision and edits", () => {
  const draft = draftOf('favorable', [h('12m', 'favorable')]);
  const leader: Draft = {
    ...draftOf('favorable', [h('12m', 'favorable', 0.7)], 'LEADER'),
    claims: [
      {
        id: 'LEADER-c1',
        text: 'Orders grew (DRAFT-c1, SKEPTIC-c1 반영).',
        factor: 'certifications',
        polarity: 'favorable',
        citations: [
          { evidenceId: 'e1', source: 'DART', date: '2024-01-01' },
          { evidenceId: 'e1', source: 'DART', date: '2024-01-01' },
        ],
      },
      {
        id: 'LEADER-c2',
        text: 'A lawsuit is pending.',
        factor: 'litigation_risk',
        polarity: 'adverse',
        citations: [{ evidenceId: 'e2', source: 'Court', date: '2024-02-01' }],
      },
    ],
  };

  it('rewords the claims the edits name, keeps their reading and citations, and cites each item once', () => {
    const { report, setAside } = keptReport(leader, [{ claimId: 'LEADER-c1', wording: ' Orders grew. ' }]);
    expect(setAside).toEqual([]);
    expect(report.claims[0]).toEqual({ ...leader.claims[0], text: 'Orders grew.', citations: [leader.claims[0].citations[0]] });
    expect(report.claims[1]).toEqual(leader.claims[1]);
    expect({ ...report, claims: [] }).toEqual({ ...leader, claims: [] });
  });

  it('applies the edits of an answer whose decision stands, and sets aside an edit naming no claim of the kept version', () => {
    const answer = {
      reason: 'Unchanged.',
      stanceChanged: false,
      horizonsChanged: false,
      kept: 'final',
      edits: [
        { claimId: 'LEADER-c1', wording: 'Orders grew.' },
        { claimId: 'DRAFT-c1', wording: 'Something else.' },
      ],
    };
    const { output, repairs } = enforce(getStep(fd, 'SAFETY'), answer, { context: context(draft, leader), language: 'en' });
    const stored = output as { report: Draft };
    expect(stored.report.claims.map((c) => c.text)).toEqual(['Orders grew.', 'A lawsuit is pending.']);
    // Applied, not kept beside the report: the stored shape is the one older runs have.
    expect(stored).not.toHaveProperty('edits');
    expect(repairs).toEqual([
      { kind: 'safety-corrected', detail: '1 edit set aside (DRAFT-c1): no claim of the kept version has that id, or the edit has no wording' },
    ]);
  });

  it('applies no edit when the engine keeps the version the model did not choose', () => {
    const moved: Draft = { ...leader, stance: 'adverse' };
    const answer = {
      reason: 'Unchanged.',
      stanceChanged: false,
      horizonsChanged: false,
      kept: 'final',
      edits: [{ claimId: 'DRAFT-c1', wording: 'Reworded.' }],
    };
    const { output, repairs } = enforce(getStep(fd, 'SAFETY'), answer, { context: context(draft, moved), language: 'en' });
    expect((output as { kept: string; report: Draft }).kept).toBe('draft');
    expect((output as { report: Draft }).report).toEqual(draft);
    expect(repairs).toHaveLength(1);
    expect(repairs[0].kind).toBe('draft-restored');
    expect(repairs[0].detail).toMatch(/; 1 edit set aside \(DRAFT-c1\): they reword the version that is not kept$/);
  });
});
