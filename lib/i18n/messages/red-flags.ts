import { defineMessages } from '@/lib/i18n';
import type { RedFlagKind } from '@/lib/domain/red-flags';

/**
 * Red flags (decisive credit events found by rule before any debate) and the reading-consistency
 * flag on claims, as the case, company and run pages, the panels and the report say them.
 */
export const redFlagMessages = defineMessages({
  en: {
    heading: 'Red flags',
    intro: 'Decisive credit events found in the evidence by fixed rules, before any debate. Every analysis must address each one.',
    scopeCompany: 'Found in this company’s evidence as it stands today ({date}).',
    scopeCase: 'Found in the evidence as of the case’s date ({date}); each run of the case keeps the flags it found.',
    scopeRun: 'Found in the evidence as of the run’s date ({date}), before the debate started.',
    date: 'Date',
    kind: 'Event',
    item: 'Evidence item',
    alsoIn: 'Also reported in',
    kind_payment_default: 'Payment default or dishonoured note',
    kind_court_rehabilitation: 'Court rehabilitation filing',
    kind_bankruptcy: 'Bankruptcy',
    kind_creditor_workout: 'Creditor-bank workout',
    kind_trading_suspension: 'Trading suspension',
    kind_delisting: 'Delisting',
    kind_tax_arrears: 'Tax arrears',
    kind_regulatory_sanction: 'Sanction or fine imposed',
    kind_audit_opinion: 'Audit opinion other than clean',
    kind_going_concern: 'Going-concern doubt',
    kind_lawsuit_lost: 'Lawsuit lost (ruling against the borrower)',
    readsAgainst: 'Reads against its evidence',
    readsAgainstHint: 'This claim argues the opposite of how the item it cites is tagged in the pool.',
    readsAgainstItem: 'cites an item tagged {reading}: {title}',
    reading_favorable: 'favorable',
    reading_adverse: 'adverse',
    polarity_favorable: 'Favorable',
    polarity_adverse: 'Adverse',
    checkLabel: 'Every claim reads with the tagged reading of the evidence it cites',
    checkItem: '{claim} ({step}, {polarity}) cites an item tagged {reading}: {title}',
    transcriptLine: '{claim} reads against its evidence: {polarity} claim, cited item tagged {reading} ({title})',
  },
  ko: {
    heading: '위험 신호',
    intro: '토론 전에 정해진 규칙으로 증거에서 찾은 결정적 신용 사건입니다. 모든 분석은 각 신호를 다루어야 합니다.',
    scopeCompany: '이 기업의 오늘({date}) 기준 증거에서 찾았습니다.',
    scopeCase: '심사 기준일({date}) 기준 증거에서 찾았습니다. 각 실행은 자신이 찾은 신호를 보관합니다.',
    scopeRun: '실행 기준일({date}) 기준 증거에서 토론 시작 전에 찾았습니다.',
    date: '일자',
    kind: '사건',
    item: '증거 항목',
    alsoIn: '같은 사건을 전하는 다른 항목',
    kind_payment_default: '지급 불이행·어음 부도',
    kind_court_rehabilitation: '회생절차 개시 신청',
    kind_bankruptcy: '파산',
    kind_creditor_workout: '채권은행 관리절차(워크아웃)',
    kind_trading_suspension: '매매거래 정지',
    kind_delisting: '상장폐지',
    kind_tax_arrears: '조세 체납',
    kind_regulatory_sanction: '제재·벌금 부과',
    kind_audit_opinion: '감사의견 비적정',
    kind_going_concern: '계속기업 존속 불확실성',
    kind_lawsuit_lost: '소송 패소(차주에 불리한 판결)',
    readsAgainst: '증거와 반대로 읽음',
    readsAgainstHint: '이 주장은 인용한 증거 항목의 태그와 반대 방향을 주장합니다.',
    readsAgainstItem: '{reading}(으)로 태그된 항목 인용: {title}',
    reading_favorable: '긍정',
    reading_adverse: '부정',
    polarity_favorable: '긍정',
    polarity_adverse: '부정',
    checkLabel: '모든 주장이 인용한 증거의 태그와 같은 방향으로 읽힘',
    checkItem: '{claim}({step}, {polarity}) — {reading}(으)로 태그된 항목 인용: {title}',
    transcriptLine: '{claim} 증거와 반대로 읽음: {polarity} 주장, 인용 항목은 {reading}({title})',
  },
});

export type RedFlagMessages = (typeof redFlagMessages)['en'];

/** The message key of each red-flag kind. */
export function redFlagKindKey(kind: RedFlagKind): `kind_${RedFlagKind}` {
  return `kind_${kind}`;
}

// Every kind has words: a kind added to lib/domain/red-flags.ts without them fails to compile.
const _everyKind: Record<`kind_${RedFlagKind}`, string> = redFlagMessages.en;
void _everyKind;
