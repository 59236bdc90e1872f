import { describe, expect, it } from 'vitest';
import { getProtocol, getStep } from '@/lib/debate/protocols';
import { enforce, horizonChanges, safetyDecision } from '@/lib/debate/enforce';
import type { StepOutput } from '@/lib/domain/outputs';

type Draft = StepOutput<'stanceDraft'>;
const fd = getProtocol('findebate');
const h = (horizon: string, outlook: Draft['stance'], confidence = 0.5) => ({ horizon, outlook, confidence });
const draftOf = (stance: Draft['stance'], horizons: Draft['horizons'], id = 'DRAFT'): Draft => ({
  text: `${id} text`,
  stance,
  horizons,
  claims: [{ id: `${id}-c1`, text: 'claim', factor: 'certifications', polarity: 'favorable', citations: [{ evidenceId: 'e1', source: 'DART', date: '2024-01-01' }] }],
});
const turn = (claims: number) => ({ text: 't', claims: Array.from({ length: claims }, (_, i) => ({ id: `c${i}`, text: 'x', factor: 'other', polarity: 'adverse', citations: [] })), questions: [] });
const context = (draft: Draft, leader: Draft, points = 1) => [
  { step: getStep(fd, 'DRAFT'), output: draft },
  { step: getStep(fd, 'TRUST'), output: turn(points) },
  { step: getStep(fd, 'SKEPTIC'), output: turn(0) },
  { step: getStep(fd, 'LEADER'), output: leader },
];

describe('the horizons the leader changed', () => {
  it('pairs horizons by label whatever their spelling, and counts an outlook, not a confidence', () => {
    expect(horizonChanges([h('12 months', 'favorable', 0.6), h('3 years', 'neutral')], [h('12-Months', 'favorable', 0.4), h('3 Years', 'neutral', 0.7)])).toEqual([]);
    expect(horizonChanges([h('12 months', 'favorable'), h('3 years', 'neutral')], [h('3 years', 'adverse'), h('12 months', 'favorable')])).toEqual([{ horizon: '3 years', from: 'neutral', to: 'adverse' }]);
  });

  it('pairs reworded labels by position, and counts a horizon dropped or added', () => {
    expect(horizonChanges([h('12 months', 'favorable')], [h('one year', 'adverse')])).toEqual([{ horizon: '12 months', from: 'favorable', to: 'adverse' }]);
    expect(horizonChanges([h('12 months', 'favorable'), h('3 years', 'neutral')], [h('12 months', 'favorable')])).toEqual([{ horizon: '3 years', from: 'neutral', to: null }]);
    expect(horizonChanges([h('12 months', 'favorable')], [h('12 months', 'favorable'), h('5 years', 'adverse')])).toEqual([{ horizon: '5 years', from: null, to: 'adverse' }]);
  });
});

describe('the safety decision', () => {
  const draft = draftOf('favorable', [h('12 months', 'favorable')]);
  it('keeps the leader when nothing moved and the debate made points; the draft otherwise', () => {
    expect(safetyDecision(context(draft, draftOf('favorable', [h('12 months', 'favorable', 0.7)], 'LEADER')))).toMatchObject({ kept: 'final', stanceChanged: false, horizonsChanged: false, noRecommendations: false });
    expect(safetyDecision(context(draft, draftOf('favorable', [h('12 months', 'neutral')], 'LEADER')))).toMatchObject({ kept: 'draft', stanceChanged: false, horizonsChanged: true });
    expect(safetyDecision(context(draft, draftOf('favorable', [h('12 months', 'favorable')], 'LEADER'), 0))).toMatchObject({ kept: 'draft', noRecommendations: true });
  });

  it('sets a model that kept the draft for nothing back to the leader\'s version, and says so in the run\'s language', () => {
    const leader = draftOf('favorable', [h('12 months', 'favorable', 0.7)], 'LEADER');
    const answer = { reason: 'Kept the draft to be safe.', stanceChanged: true, horizonsChanged: false, kept: 'draft', report: draft };
    const { output, repairs } = enforce(getStep(fd, 'SAFETY'), answer, { context: context(draft, leader), language: 'ko' });
    expect(output).toMatchObject({ stanceChanged: false, horizonsChanged: false, kept: 'final', report: leader });
    expect((output as { reason: string }).reason).toBe(
      '안전 점검 에이전트의 답이 아니라 엔진이 직접 확인한 결과: 입장(긍정적)과 기간별 전망이 그대로이므로, 토론이 더한 근거와 위험을 반영한 리더 안을 유지한다.',
    );
    expect(repairs).toEqual([
      {
        kind: 'safety-corrected',
        detail: "the leader's version (stance favorable) is kept: stance and horizon outlooks are unchanged and the debate made its points; the safety checker answered stanceChanged true, horizonsChanged false, kept draft, with the other version as the report",
      },
    ]);
  });

  it('leaves an answer that agrees with the comparison as it is', () => {
    const leader = draftOf('favorable', [h('12 months', 'favorable', 0.7)], 'LEADER');
    const answer = { reason: 'Unchanged.', stanceChanged: false, horizonsChanged: false, kept: 'final', report: leader };
    expect(enforce(getStep(fd, 'SAFETY'), answer, { context: context(draft, leader), language: 'en' })).toEqual({ output: answer, repairs: [] });
  });
});
