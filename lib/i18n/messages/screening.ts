import { defineMessages } from '@/lib/i18n';
import type { RedFlagKind } from '@/lib/domain/red-flags';

/**
 * The red-flag screening (docs/protocols.md, "Red-flag screening"): what a run over a thin pool
 * with decisive red flags ends with instead of a debate. Each kind's `why_` says what that kind
 * of event is and why it decides, true of the kind (a sanction imposed, never an investigation);
 * `weigh_` what the committee should find out about it before deciding.
 */
export const screeningMessages = defineMessages({
  en: {
    noticeTitle: 'Red-flag screening, not a full analysis',
    noticeBody:
      'As of {asOf} the knowledge pool held {items} on {factors} of the ten guideline factors, too little for a debate (it needs at least {minItems} items on {minFactors} factors), but it holds {flags}. No debate was held and no model was called: this screening leads with each event, says what the pool lacks and what the committee must weigh.',
    items: '{n} evidence items',
    item: '1 evidence item',
    flags: '{n} decisive red flags',
    flag: '1 decisive red flag',
    eventsTitle: 'Decisive events',
    eventWhat: 'What happened',
    eventWhen: 'When',
    eventSource: 'Source',
    eventWhy: 'Why it decides',
    eventAlso: 'Also reported in',
    noSource: 'no source named in the item',
    gapsTitle: 'What the pool lacks',
    gapsBody: 'As of {asOf} the pool holds nothing on these guideline factors, so the screening cannot weigh them:',
    gapsNone: 'Every guideline factor has at least one item, but too few items in all for a debate.',
    weighTitle: 'What the committee must weigh',
    weighCurrent: 'Whether each event is still current on the decision date: this screening reads the evidence up to {asOf} only.',
    weighFull:
      'Whether a full analysis is needed first: a debate over every factor needs evidence on the factors above. Add it through Import or the company’s filing connectors, then start a new run.',
    methodTitle: 'How this screening was made',
    methodBody:
      'The events were found by fixed rules in the words of the filings, before any debate, and each is shown with its source and date. A screening states what happened; it does not weigh the borrower’s strengths, because the pool holds too little on them. The same rules decide on every analysis system, offline or with a model.',
    why_payment_default:
      'The borrower failed to pay a debt when it was due, or a note it issued was dishonoured. A default on one obligation usually puts others in default through cross-default and acceleration clauses; it is the event a repayment analysis exists to foresee.',
    why_court_rehabilitation:
      'The borrower asked a court to reorganise its debts. Creditors’ claims are stayed and may be cut under the rehabilitation plan, and new lending needs the court’s approval or priority as post-filing credit.',
    why_bankruptcy: 'A bankruptcy proceeding liquidates the borrower’s assets for its creditors; unsecured lenders usually recover only part of their claims.',
    why_creditor_workout:
      'The borrower’s creditor banks took over the management of its debts (a workout). Repayments are rescheduled under the creditors’ council: the borrower could not meet its obligations on their original terms.',
    why_trading_suspension:
      'The exchange suspended trading in the borrower’s shares, as it does on events such as a default, an audit opinion other than clean or a disclosure left unresolved. While it lasts the borrower cannot raise equity on the market.',
    why_delisting:
      'The borrower’s shares were removed, or are to be removed, from the exchange: it loses a source of funding and the scrutiny that came with the listing.',
    why_tax_arrears:
      'The borrower owes overdue taxes. Tax claims usually rank ahead of a bank’s, and arrears show a shortage of cash for obligations that cannot be postponed.',
    why_regulatory_sanction:
      'A regulator or a court imposed a sanction or a fine on the borrower (an outcome, not an investigation or a fine that may come). It costs cash and can restrict the business the borrower may carry on.',
    why_audit_opinion:
      'The auditor gave an opinion other than clean (qualified, adverse or a disclaimer): the financial statements a loan would be priced on cannot be relied on as they stand.',
    why_going_concern: 'The auditor or management stated substantial doubt that the borrower can continue as a going concern.',
    why_lawsuit_lost:
      'A court ruled against the borrower. The judgment can oblige it to pay; an amount the item gives should be set against the borrower’s cash.',
    weigh_payment_default: 'Whether the default has been cured, and which other obligations it put in default.',
    weigh_court_rehabilitation:
      'Whether the court opened the proceeding, what the rehabilitation plan does to existing and new claims, and whether a new loan would rank as post-filing credit.',
    weigh_bankruptcy: 'What lenders can expect to recover, and whether any lending is possible at all.',
    weigh_creditor_workout:
      'The workout’s terms and end date, whether the borrower meets its milestones, and how a new loan would rank against the creditors’ council’s claims.',
    weigh_trading_suspension: 'Why trading was suspended, and whether it has resumed.',
    weigh_delisting: 'Whether the delisting is final, and how the borrower will fund itself without the exchange.',
    weigh_tax_arrears: 'The amount overdue, any payment plan, and liens on assets the bank would take as security.',
    weigh_regulatory_sanction: 'The amount of the fine against the borrower’s cash, and any restriction on its business.',
    weigh_audit_opinion: 'The auditor’s stated reason, and whether the bank can obtain statements it can rely on.',
    weigh_going_concern: 'What management plans to do about the doubt, and whether that plan is funded.',
    weigh_lawsuit_lost: 'The amount awarded against the borrower, whether it has appealed, and whether it can pay.',
    runNoticeBody:
      'This run ended with a red-flag screening instead of a debate: the pool is too thin to debate, and it holds decisive red flags. No model was called.',
    openScreening: 'Open the screening',
  },
  ko: {
    noticeTitle: '위험 신호 점검 (전체 분석 아님)',
    noticeBody:
      '{asOf} 기준 지식 풀에 있는 증거는 10개 가이드라인 요인 중 {factors}개 요인에 걸친 {items}로, 토론하기에는 부족합니다(최소 {minItems}개 항목, {minFactors}개 요인 필요). 다만 {flags}이 있습니다. 토론을 하지 않았고 모델도 호출하지 않았습니다. 이 점검은 각 사건을 먼저 보이고, 풀에 없는 것과 위원회가 따져 볼 점을 밝힙니다.',
    items: '증거 항목 {n}개',
    item: '증거 항목 1개',
    flags: '결정적 위험 신호 {n}건',
    flag: '결정적 위험 신호 1건',
    eventsTitle: '결정적 사건',
    eventWhat: '사건 내용',
    eventWhen: '일자',
    eventSource: '출처',
    eventWhy: '결정적인 이유',
    eventAlso: '같은 사건을 전하는 다른 항목',
    noSource: '항목에 출처 없음',
    gapsTitle: '풀에 없는 것',
    gapsBody: '{asOf} 기준 풀에는 다음 가이드라인 요인에 대한 항목이 없어 점검에서 따질 수 없습니다.',
    gapsNone: '모든 가이드라인 요인에 항목이 있으나, 전체 항목 수가 토론하기에는 부족합니다.',
    weighTitle: '위원회가 따져 볼 점',
    weighCurrent: '각 사건이 의사결정일에도 유효한지: 이 점검은 {asOf}까지의 증거만 읽었습니다.',
    weighFull:
      '전체 분석이 먼저 필요한지: 모든 요인에 대한 토론에는 위 요인들에 대한 증거가 필요합니다. 가져오기나 기업의 공시 연결로 증거를 더한 뒤 새로 실행하세요.',
    methodTitle: '점검 방법',
    methodBody:
      '사건은 토론 전에 공시 원문에서 정해진 규칙으로 찾았으며, 각 사건의 출처와 일자를 함께 보입니다. 점검은 일어난 일을 알릴 뿐 차주의 강점은 따지지 않습니다. 풀에 강점에 관한 근거가 너무 적기 때문입니다. 오프라인이든 모델을 쓰든, 모든 분석 방식에서 같은 규칙으로 판단합니다.',
    why_payment_default:
      '차주가 만기에 채무를 갚지 못했거나 발행한 어음이 부도 처리되었습니다. 한 채무의 불이행은 보통 교차부도·기한이익상실 조항을 통해 다른 채무까지 불이행에 빠뜨리며, 상환능력 분석이 미리 찾아내려는 바로 그 사건입니다.',
    why_court_rehabilitation:
      '차주가 법원에 채무 재조정을 신청했습니다. 채권자의 권리 행사가 중지되고 회생계획에 따라 채권이 감면될 수 있으며, 신규 여신에는 법원 허가나 공익채권 지위가 필요합니다.',
    why_bankruptcy: '파산 절차는 채권자를 위해 차주의 자산을 청산합니다. 무담보 채권자는 보통 채권의 일부만 회수합니다.',
    why_creditor_workout:
      '채권은행이 차주의 채무 관리에 들어갔습니다(워크아웃). 채권단협의회 아래에서 상환 일정이 조정되며, 차주가 원래 조건으로는 채무를 이행할 수 없었다는 뜻입니다.',
    why_trading_suspension:
      '거래소가 차주 주식의 매매거래를 정지했습니다. 부도, 비적정 감사의견, 해소되지 않은 공시 같은 사건에 따른 조치이며, 정지 기간에는 주식시장에서 자금을 조달할 수 없습니다.',
    why_delisting: '차주 주식이 상장폐지되었거나 폐지될 예정입니다. 자금 조달 수단과 상장에 따른 외부 감시를 잃습니다.',
    why_tax_arrears: '차주에게 체납 세금이 있습니다. 조세채권은 보통 은행 채권보다 우선하며, 체납은 미룰 수 없는 채무에도 현금이 부족하다는 뜻입니다.',
    why_regulatory_sanction:
      '규제기관이나 법원이 차주에게 제재나 벌금을 부과했습니다(조사 개시나 부과 가능성이 아닌 확정된 결과). 현금이 나가고 영업이 제한될 수 있습니다.',
    why_audit_opinion: '감사인이 적정이 아닌 의견(한정·부적정·의견거절)을 냈습니다. 여신 심사의 바탕이 되는 재무제표를 그대로 믿을 수 없습니다.',
    why_going_concern: '감사인이나 경영진이 차주의 계속기업 존속에 중대한 의문이 있다고 밝혔습니다.',
    why_lawsuit_lost: '법원이 차주에게 불리한 판결을 내렸습니다. 판결은 지급 의무를 낳을 수 있으며, 항목에 금액이 있다면 차주의 현금과 견주어 보아야 합니다.',
    weigh_payment_default: '부도가 해소되었는지, 그로 인해 다른 어떤 채무가 불이행에 빠졌는지.',
    weigh_court_rehabilitation: '법원이 절차를 개시했는지, 회생계획이 기존·신규 채권을 어떻게 다루는지, 신규 여신이 공익채권으로 인정되는지.',
    weigh_bankruptcy: '채권자가 회수를 기대할 수 있는 몫과 여신이 애초에 가능한지.',
    weigh_creditor_workout: '워크아웃의 조건과 종료 예정일, 차주가 이행 목표를 지키는지, 신규 여신이 채권단 채권과 비교해 어떤 순위에 놓이는지.',
    weigh_trading_suspension: '매매거래 정지 사유와 재개 여부.',
    weigh_delisting: '상장폐지가 확정되었는지, 상장 없이 어떻게 자금을 조달할지.',
    weigh_tax_arrears: '체납액, 분납 계획, 담보로 잡을 자산에 대한 압류 여부.',
    weigh_regulatory_sanction: '벌금액이 차주의 현금에 주는 부담과 영업 제한 여부.',
    weigh_audit_opinion: '감사인이 밝힌 사유와, 믿을 수 있는 재무제표를 확보할 수 있는지.',
    weigh_going_concern: '경영진의 대응 계획과 그 계획의 자금 확보 여부.',
    weigh_lawsuit_lost: '판결 금액, 항소 여부, 지급 능력.',
    runNoticeBody:
      '이 실행은 토론 대신 위험 신호 점검으로 끝났습니다. 풀의 근거가 토론하기에는 부족하고, 결정적 위험 신호가 있습니다. 모델은 호출하지 않았습니다.',
    openScreening: '점검 보고서 열기',
  },
});

export type ScreeningMessages = (typeof screeningMessages)['en'];

// Every kind has its reason and its question: a kind added without them fails to compile.
const _everyWhy: Record<`why_${RedFlagKind}` | `weigh_${RedFlagKind}`, string> = screeningMessages.en;
void _everyWhy;
