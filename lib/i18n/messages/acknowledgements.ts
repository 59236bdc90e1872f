import { defineMessages } from '@/lib/i18n';

// Checks that block (lib/report/failed-checks.ts, lib/report/acknowledgements.ts): the notice a
// run whose final checks failed carries at the top of its page, report and exports; the submit
// form's list of what the RM must acknowledge with a reason; and what the committee reads of it.
export const acknowledgementMessages = defineMessages({
  en: {
    noticeTitle: 'Final checks failed',
    noticeLead:
      'This run finished, but its final checks found the problems below. Read the report with them in mind; submitting the case asks for a reason for each one.',
    'fail.red-flags-addressed': '{n, plural, one {# red flag is} other {# red flags are}} not addressed in the report',
    'fail.undated-or-unsourced': '{n, plural, one {# citation has} other {# citations have}} no date or no source',
    'fail.unverified-citations': '{n, plural, one {# citation does} other {# citations do}} not resolve to evidence its step was shown',
    'fail.after-as-of': '{n, plural, one {# citation is} other {# citations are}} dated after the as-of date',
    'fail.stale-evidence':
      '{n, plural, one {# citation cites} other {# citations cite}} evidence older than the recency window where newer evidence on its factor was in the pool',
    'fail.reused-factors': '{n, plural, one {# turn makes} other {# turns make}} two claims on one factor from the same evidence',
    'fail.output-language': 'The output is not in the run language',
    'fail.reading-consistency': '{n, plural, one {# citation reads} other {# citations read}} against the claim that cites it',
    'fail.other': '{label}: {n, plural, one {# item} other {# items}}',
    // The submit form.
    formTitle: 'Acknowledge before submitting',
    formLead: 'The committee reads each reason beside the report. Each one is required.',
    itemCheck: '{run}: {summary}',
    itemFlag: 'Red flag no analysis addresses: {title} ({date})',
    itemFlagHint: 'Run an analysis that addresses it, or say why it does not apply to this credit.',
    reasonLabel: 'Reason',
    reasonHint: 'Up to {max, number} characters.',
    errAckMissing: '{n, plural, one {# failed check or red flag needs} other {# failed checks or red flags need}} a reason before the case can be submitted.',
    errAckRequired: 'Give a reason.',
    errAckTooLong: 'At most {max, number} characters.',
    // The committee's view.
    cardTitle: 'Failed checks acknowledged by the RM',
    cardLead: 'Submitted on {at}. Each item failed or went unaddressed; the RM gave these reasons.',
    cardNone: 'No failed check or open red flag was acknowledged with this submission.',
    byWhom: '{name}, {at}',
    openRun: 'Open the run',
    runRef: '{protocol} run of {date}',
  },
  ko: {
    noticeTitle: '최종 점검 실패',
    noticeLead:
      '실행은 완료되었으나 최종 점검에서 아래 문제가 확인되었습니다. 이를 감안하여 보고서를 검토하십시오. 심사 건 제출 시 항목별로 사유를 기재해야 합니다.',
    'fail.red-flags-addressed': '보고서에서 다루지 않은 위험 신호 {n, number}건',
    'fail.undated-or-unsourced': '날짜 또는 출처가 없는 인용 {n, number}건',
    'fail.unverified-citations': '해당 단계에 제시된 근거로 확인되지 않는 인용 {n, number}건',
    'fail.after-as-of': '기준일 이후 날짜의 인용 {n, number}건',
    'fail.stale-evidence': '최근 근거를 두고 오래된 근거를 인용 {n, number}건',
    'fail.reused-factors': '같은 근거로 같은 요인의 주장을 반복한 발언 {n, number}건',
    'fail.output-language': '출력이 실행 언어로 작성되지 않음',
    'fail.reading-consistency': '주장과 반대 방향으로 읽히는 인용 근거 {n, number}건',
    'fail.other': '{label}: {n, number}건',
    formTitle: '제출 전 확인 사항',
    formLead: '심사위원회는 보고서와 함께 각 사유를 검토합니다. 모든 항목에 사유를 기재해야 합니다.',
    itemCheck: '{run}: {summary}',
    itemFlag: '어느 분석도 다루지 않은 위험 신호: {title} ({date})',
    itemFlagHint: '이 위험 신호를 다루는 분석을 실행하거나, 본 여신에 해당하지 않는 사유를 기재하십시오.',
    reasonLabel: '사유',
    reasonHint: '최대 {max, number}자',
    errAckMissing: '사유가 기재되지 않은 점검 실패 또는 위험 신호가 {n, number}건 있어 제출할 수 없습니다.',
    errAckRequired: '사유를 기재하십시오.',
    errAckTooLong: '최대 {max, number}자까지 기재할 수 있습니다.',
    cardTitle: 'RM이 확인한 점검 실패 사항',
    cardLead: '{at} 제출. 아래 항목은 점검에 실패했거나 다뤄지지 않았으며, RM이 다음과 같이 사유를 기재했습니다.',
    cardNone: '이번 제출 시 사유를 기재한 점검 실패 또는 위험 신호가 없습니다.',
    byWhom: '{name}, {at}',
    openRun: '실행 열기',
    runRef: '{date} {protocol} 실행',
  },
});
