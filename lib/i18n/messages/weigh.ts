import { defineMessages } from '@/lib/i18n';

/**
 * "What the committee must weigh" (lib/report/weigh.ts): the bottom line every finished report
 * ends with, whichever system wrote it, apart from the report's own objective sentence.
 */
export const weighMessages = defineMessages({
  en: {
    title: 'What the committee must weigh',
    intro: 'The points below are drawn from the analysis as it was written, for the committee to weigh; the analysis itself picks no winner.',
    forTitle: 'Strongest points for repayment capability',
    againstTitle: 'Strongest points against it',
    eventsTitle: 'Decisive events',
    gapsTitle: 'Evidence that is missing or weak',
    none: 'None was made.',
    point: '{text} — {speaker}, on {factor}',
    pointNoFactor: '{text} — {speaker}',
    event: '{kind}, {date}: {title}',
    eventAddressed: 'the report answers it',
    eventNotAddressed: 'the report does not answer it',
    noEvents: 'No decisive credit event was found in the evidence before the debate.',
    unargued: 'No side argued: {factors}.',
    stale: '{n} cited items are older than the recency window.',
    staleOne: '1 cited item is older than the recency window.',
    afterAsOf: '{n} citations are dated after the as-of date and support nothing.',
    afterAsOfOne: '1 citation is dated after the as-of date and supports nothing.',
    unverified: '{n} citations do not resolve to evidence the analysis was shown.',
    unverifiedOne: '1 citation does not resolve to evidence the analysis was shown.',
    noGaps: 'Every guideline factor was argued, and every citation resolves to dated evidence inside the recency window.',
  },
  ko: {
    title: '위원회가 따져 볼 점',
    intro: '아래 내용은 작성된 분석에서 위원회가 따져 볼 수 있도록 뽑은 것입니다. 분석 자체는 어느 쪽의 손도 들어 주지 않습니다.',
    forTitle: '상환능력을 뒷받침하는 가장 강한 논점',
    againstTitle: '상환능력에 반하는 가장 강한 논점',
    eventsTitle: '결정적 사건',
    gapsTitle: '없거나 약한 근거',
    none: '제시된 논점이 없습니다.',
    point: '{text} — {speaker}, {factor}',
    pointNoFactor: '{text} — {speaker}',
    event: '{kind}, {date}: {title}',
    eventAddressed: '보고서가 이를 다룸',
    eventNotAddressed: '보고서가 이를 다루지 않음',
    noEvents: '토론 전 증거에서 결정적 신용 사건을 찾지 못했습니다.',
    unargued: '어느 쪽도 다루지 않은 요인: {factors}.',
    stale: '인용 근거 {n}건이 최근성 기간보다 오래되었습니다.',
    staleOne: '인용 근거 1건이 최근성 기간보다 오래되었습니다.',
    afterAsOf: '인용 {n}건이 기준일 이후 날짜여서 아무것도 뒷받침하지 않습니다.',
    afterAsOfOne: '인용 1건이 기준일 이후 날짜여서 아무것도 뒷받침하지 않습니다.',
    unverified: '인용 {n}건이 분석에 제시된 근거로 확인되지 않습니다.',
    unverifiedOne: '인용 1건이 분석에 제시된 근거로 확인되지 않습니다.',
    noGaps: '모든 가이드라인 요인이 논의되었고, 모든 인용이 최근성 기간 안의 날짜 있는 근거로 확인됩니다.',
  },
});
