import { defineMessages } from '@/lib/i18n';

// A run that ended for want of evidence (lib/debate/sufficiency.ts): what the pool held at the
// as-of date, which factors had nothing, and where to add more. English counts are ICU plurals.
export const shortfallMessages = defineMessages({
  en: {
    title: 'Not enough evidence to analyse',
    held: 'As of {asOf}, the knowledge pool holds {items, plural, one {# evidence item} other {# evidence items}} on {factors, number} of the ten guideline factors.',
    needs:
      'An analysis needs at least {minItems, plural, one {# item} other {# items}} on at least {minFactors, plural, one {# factor} other {# factors}}, so no model was called and nothing was debated.',
    missing: 'No evidence on: {factors}.',
    next: 'Add evidence for this borrower, then start a new run from the case page:',
    importLink: 'import a file of evidence',
    connectorsLink: 'fetch filings from OpenDART or SEC EDGAR on the company page',
    short:
      'Pool: {items, plural, one {# item} other {# items}}; factors covered: {factors, number}. Needs {minItems, plural, one {# item} other {# items}} on {minFactors, plural, one {# factor} other {# factors}}.',
  },
  ko: {
    title: '분석할 근거가 부족합니다',
    held: '{asOf} 기준 지식 풀에는 근거 {items, number}건이 가이드라인 10개 요인 중 {factors, number}개에 걸쳐 있습니다.',
    needs: '분석에는 최소 {minItems, number}건, {minFactors, number}개 요인 이상의 근거가 필요하므로 모델을 호출하지 않았고 토론도 진행하지 않았습니다.',
    missing: '근거가 없는 요인: {factors}.',
    next: '이 차주의 근거를 추가한 뒤 심사 건 페이지에서 새로 실행하세요:',
    importLink: '근거 파일 가져오기',
    connectorsLink: '기업 페이지에서 OpenDART 또는 SEC EDGAR 공시 가져오기',
    short: '풀: 근거 {items, number}건, 요인 {factors, number}개. 필요: 근거 {minItems, number}건, 요인 {minFactors, number}개.',
  },
});
