import { defineMessages } from '@/lib/i18n';

// What the engine writes into a step's answer when it decides instead of the model
// (lib/debate/enforce.ts): FinDebate's safety check, in the run's output language, since it is
// the reason the report shows. `nothingRecommended` is also the offline analyst's own reason.
export const enforcementMessages = defineMessages({
  en: {
    stance_favorable: 'favorable',
    stance_neutral: 'neutral',
    stance_adverse: 'adverse',
    stance_none: 'none',
    horizon_12m: '12 months',
    horizon_24m: '2 years',
    horizon_36m: '3 years',
    and: ' and ',
    checkedByEngine: 'Checked by the engine, not taken from the safety checker:',
    stanceMoved: 'the leader’s version moved the stance from {from} to {to}',
    horizonsMoved: 'it changed the outlook of the horizons ({changes})',
    movedKeepDraft: '{what}. The draft is kept, because one bounded debate round may strengthen or qualify a view but not overturn it.',
    nothingRecommended: 'the trust agent and the skeptic recommended nothing, so the debate round had nothing to add and the draft is kept.',
    unchangedKeepFinal:
      'the stance ({stance}) and the horizon outlooks are unchanged, so the leader’s version, with the evidence and risks the debate added, is kept.',
  },
  ko: {
    stance_favorable: '긍정적',
    stance_neutral: '중립적',
    stance_adverse: '부정적',
    stance_none: '없음',
    horizon_12m: '12개월',
    horizon_24m: '2년',
    horizon_36m: '3년',
    and: ', 그리고 ',
    checkedByEngine: '안전 점검 에이전트의 답이 아니라 엔진이 직접 확인한 결과:',
    stanceMoved: '리더 안이 입장을 {from}에서 {to}(으)로 바꾸었다',
    horizonsMoved: '기간별 전망을 바꾸었다({changes})',
    movedKeepDraft: '{what}. 한 차례의 제한된 토론은 판단을 보강하거나 단서를 달 수는 있어도 뒤집어서는 안 되므로 초안을 유지한다.',
    nothingRecommended: '신뢰 에이전트와 회의론자가 아무 제안도 하지 않아 토론이 더한 것이 없으므로 초안을 유지한다.',
    unchangedKeepFinal: '입장({stance})과 기간별 전망이 그대로이므로, 토론이 더한 근거와 위험을 반영한 리더 안을 유지한다.',
  },
});
