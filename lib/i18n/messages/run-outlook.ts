import { defineMessages } from '@/lib/i18n';

// The launcher, before *Start*, for a run that will not debate (runOutlook in
// lib/debate/sufficiency.ts): what it will give instead and why, said in the place of the time
// and cost estimate, since such a run calls no model. English counts are ICU plurals.
export const runOutlookMessages = defineMessages({
  en: {
    screeningTitle: 'A red-flag screening, not a debate',
    screening:
      'This pool will give a red-flag screening, not a debate: as of {asOf} it holds {items, plural, one {# evidence item} other {# evidence items}} on {factors, plural, one {# guideline factor} other {# guideline factors}} (a debate needs {minItems, plural, one {# item} other {# items}} on {minFactors, plural, one {# factor} other {# factors}}) and {flags, plural, one {# decisive red flag} other {# decisive red flags}}. No step runs and no model is called: the run ends with a screening report that leads with each event.',
    screeningNext: 'For a debate, add evidence first:',
    insufficientTitle: 'Insufficient evidence: no analysis',
    insufficient:
      'This run will end as insufficient evidence, not a debate: as of {asOf} the pool {items, plural, =0 {holds no evidence item} one {holds # evidence item on {factors, plural, one {# guideline factor} other {# guideline factors}}} other {holds # evidence items on {factors, plural, one {# guideline factor} other {# guideline factors}}}} (a debate needs {minItems, plural, one {# item} other {# items}} on {minFactors, plural, one {# factor} other {# factors}}) and no decisive red flag. No model is called.',
    insufficientNext: 'Add evidence first:',
    importLink: 'import a file of evidence',
    connectorsLink: 'fetch filings from OpenDART or SEC EDGAR on the company page',
  },
  ko: {
    screeningTitle: '토론이 아닌 위험 신호 점검',
    screening:
      '이 풀로는 토론이 아닌 위험 신호 점검이 실행됩니다. {asOf} 기준 근거 {items, number}건이 가이드라인 요인 {factors, number}개에 걸쳐 있고(토론에는 근거 {minItems, number}건, 요인 {minFactors, number}개 이상이 필요합니다), 결정적 위험 신호가 {flags, number}건 있습니다. 토론 단계는 실행되지 않고 모델도 호출하지 않으며, 각 사건을 앞세운 점검 보고서로 끝납니다.',
    screeningNext: '토론을 하려면 먼저 근거를 추가하세요:',
    insufficientTitle: '근거 부족: 분석 불가',
    insufficient:
      '이 실행은 토론 없이 근거 부족으로 끝납니다. {asOf} 기준 {items, plural, =0 {근거가 한 건도 없고} other {근거 {items, number}건이 가이드라인 요인 {factors, number}개에 걸쳐 있고}}(토론에는 근거 {minItems, number}건, 요인 {minFactors, number}개 이상이 필요합니다), 결정적 위험 신호는 없습니다. 모델은 호출하지 않습니다.',
    insufficientNext: '먼저 근거를 추가하세요:',
    importLink: '근거 파일 가져오기',
    connectorsLink: '기업 페이지에서 OpenDART 또는 SEC EDGAR 공시 가져오기',
  },
});
