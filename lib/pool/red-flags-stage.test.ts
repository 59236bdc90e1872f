// Red flags with a stage: an event that happened (a fine imposed, a sentence handed down, a
// judgment against the company, a default, a rehabilitation filing, a workout) is a decisive red
// flag; a proceeding or a possibility (an investigation, a suit filed, "may impose", "could
// result in", "if … then") is not, in a pool item or in a document's sentence (docs/protocols.md,
// "Red flags"). Every sentence below is real text, copied from the filing it names: Tesla's
// 10-K for FY2024 (Item 1A risk factors, Item 3 / Note 14 legal proceedings), Samsung
// Electronics' 2022 half-year report on DART (XI-2 contingencies, XI-3 sanctions), and OpenDART
// responses for DH오토넥스 (회생절차 개시신청, 부도발생) and 태영건설 (관리절차 개시).
import { describe, expect, it } from 'vitest';
import type { RedFlagKind } from '@/lib/domain/red-flags';
import { redFlagMessages } from '@/lib/i18n/messages/red-flags';
import { proposeCandidates } from '@/lib/pool/documents/candidates';
import { HAPPENED, NOT_YET } from '@/lib/pool/red-flags-rules';
import { redFlagKindsOf } from '@/lib/pool/red-flags';

// Every rule reads an item filed as "other disclosure": the sentence alone decides.
const kindsOf = (text: string, category = 'disclosure_other'): RedFlagKind[] => redFlagKindsOf({ category, title: '', text });
const flaggedSentences = (body: string) =>
  proposeCandidates({ body, publishedDate: '2025-01-30' })
    .filter((c) => c.reason.startsWith('red-flag:'))
    .map((c) => c.text);

/** Events that happened: each must be the decisive flag named. */
const HAPPENED_EVENTS: readonly [string, RedFlagKind, string][] = [
  // Samsung, DART 2022 half-year report, XI-3: the KFTC's fine, under appeal.
  [
    '공정위 과징금 처분 (혐의로 … 처분을 받았습니다)',
    'regulatory_sanction',
    '또한 당사와 삼성디스플레이㈜는 삼성웰스토리㈜와의 단체급식 거래와 관련하여 「독점규제 및 공정거래에 관한 법률」제23조 제1항 제7호 위반 혐의로 공정거래위원회로부터 2021년 8월 27일 시정조치 및 과징금(당사: 1,012억 17백만원, 삼성디스플레이㈜: 228억 5천 7백만원) 처분을 받았습니다.',
  ],
  [
    '과태료 부과, 이의신청 진행 중',
    'regulatory_sanction',
    "당사는 2022년 6월 27일 공정거래위원회로부터 '대리점거래의 공정화에 관한 법률' 제5조 (대리점거래 계약서의 작성의무) 제1항 위반 혐의로 과태료 1천만원을 부과 받았으며, 이에 대하여 현재 이의신청 절차가 진행 중입니다.",
  ],
  [
    '벌금 납입 명령',
    'regulatory_sanction',
    '서울중앙지방법원은 위 혐의를 인정하여 이건희 회장에게 2019년 4월 18일 일억원의 벌금 납입을 명령하였으며, 이건희 회장은 위 벌금을 납입하였습니다.',
  ],
  [
    '벌금 선고',
    'regulatory_sanction',
    '수원지방법원은 2018년 9월 4일 발생한 기흥사업장의 이산화탄소 누출사고와 관련하여, 2020년 2월 14일「구.산업안전보건법」제23조(안전조치), 제24조(보건조치), 제29조(도급사업 시의 안전ㆍ보건조치) 등 위반으로 당사에 벌금(7백만원)과 당사 임원 1명(안전보건총괄책임자 P부사장, 근속연수 27년)에게 벌금(5백만원)을 선고하였으며, 당사 및 당사 임원은 위 벌금을 납입하였습니다.',
  ],
  [
    '현장조사 중 드러난 위반의 과태료, 납부 완료',
    'regulatory_sanction',
    '당사는 2020년 8월 18일부터 2021년 1월 18일까지 진행된 광주사업장에 대한 고용노동부 광주지방고용노동청의 현장조사 중 2015년부터 광주사업장에서 발생한 산업재해와 관련하여, 2020년 9월 1일「구.산업안전보건법」제10조(산업재해 발생 기록 및 보고 등) 제2항 위반으로 과태료(6백만원)가 발생하였고, 2020년 9월 10일과 9월 23일「산업안전보건법」제57조(산업재해 발생 은폐 금지 및 보고 등) 제3항 및 제164조(서류의 보존) 제1항 위반으로 과태료(60.4백만원과 11.5백만원)가 발생하여 자진 납부 완료하였습니다.',
  ],
  [
    '시정명령과 과징금 부과 처분',
    'regulatory_sanction',
    '공정거래위원회는 당사의 공기청정기 등 공기청정 제품에 대한 광고와 관련하여, 2018년 10월 4일 당사에「표시ㆍ광고의 공정화에 관한 법률」제3조(부당한 표시ㆍ광고 행위의 금지) 제1항 제2호 및 동법 시행령 제3조 제2항 위반으로 시정명령 및 과징금(488백만원)을 부과 처분하였으며, 당사는 이를 납부하였습니다.',
  ],
  [
    '징역 선고 확정',
    'regulatory_sanction',
    '서울고등법원은 2021년 1월 18일 파기 환송심에서 이재용 부회장, 최지성 前부회장, 장충기 前사장에 대해 징역 2년 6개월, 박상진 前사장, 황성수 前전무에 대해 징역 2년 6개월(집행유예 4년)을 선고하였으며, 위 판결은 2021년 1월 25일 확정되었습니다.',
  ],
  [
    '상고기각으로 벌금·징역 확정 (혐의에 대해 … 확정)',
    'regulatory_sanction',
    '또한 위 사건에서 자회사 삼성전자서비스㈜ 및 임직원의「노동조합 및 노동관계조정법」제90조, 제81조 등 위반과 허위 세금 계산서 수수에 대한「조세범처벌법」제10조 위반(위반금액 약 1,678백만원) 혐의에 대해 삼성전자서비스㈜ 벌금 50백만원(추징세액 약 97백만원), 삼성전자서비스㈜ 前대표이사(근속연수 4년) 징역 1년 4개월, I전무(근속연수 11년) 징역 1년, J상무(근속연수 21년) 징역 10개월(2년간 집행유예)의 형이 확정되었습니다.',
  ],
  [
    '공사중지 명령과 과태료',
    'regulatory_sanction',
    '삼성전자판매㈜는 2020년 7월 8일 방송통신위원회로부터「이동통신단말장치 유통구조 개선에 관한 법률」제3조(지원금의 차별 지급 금지) 제1항, 제4조(지원금의 과다 지급 제한 및 공시) 제5항 위반으로 시정명령 및 과태료(36백만원) 부과 처분을 받아 납부하였습니다.',
  ],
  // OpenDART 회생절차 개시신청 (DH오토넥스, ft_ctp_sc) and 부도발생 (df_cn, df_rs).
  ['회생절차 개시신청', 'court_rehabilitation', '2023.09.25자로 서울회생법원에 회생절차개시를 신청하였습니다.'],
  ['만기어음 부도', 'payment_default', '당사 김제지점 발행 만기어음 부도. 부도사유 : 법적지급제한'],
  // OpenDART 채권은행 등의 관리절차 개시 (태영건설), as the demo pool holds it.
  [
    '채권은행 관리절차 개시',
    'creditor_workout',
    "OpenDART 주요사항보고서(채권은행 등의 관리절차 개시, bnkMngtPcbg) 기록 응답: 관리절차개시 결정일 2024년 01월 11일, 관리기관 '(주)태영건설 금융채권자협의회 (주채권은행: 한국산업은행)', 관리기간 2024년 01월 11일 ~ 2027년 05월 30일, 관리사유 '경영정상화', 확인일자 2025년 02월 17일 (접수번호 20250217001661).",
  ],
  // Tesla 10-K FY2024, Note 14: the $345 million fee award after the rescission ruling.
  [
    'fee award after a ruling against the company',
    'lawsuit_lost',
    'On December 2, 2024, the Court issued an opinion denying the motion to revise the Court’s January 30, 2024 opinion and awarded Plaintiff’s counsel fees in the amount of $345 million.',
  ],
];

/** Proceedings and possibilities: adverse items the debate weighs, never a decisive flag. */
const NOT_YET_MATTERS: readonly [string, string][] = [
  // Tesla 10-K FY2024, Item 1A risk factors.
  [
    'a judgment that could come',
    'While we defend such actions vigorously, any judgment against us or any future stockholder litigation could result in substantial costs and a diversion of our management’s attention and resources.',
  ],
  [
    'sanctions that could follow investigations',
    'However, we cannot predict the outcome or impact of any such ongoing matters, and there exists the possibility that we could be subject to liability, penalties and other restrictive sanctions and adverse consequences if the SEC, the U.S. Department of Justice or any other government agency were to pursue legal action in the future.',
  ],
  [
    'fines a breach may bring',
    'A major breach of our network security and systems may occur despite defensive measures, and may result in fines, penalties and damages and harm our brand, prospects and operating results.',
  ],
  [
    'penalties if the company fails to comply',
    'If we do not successfully monitor and comply with applicable national, state and/or local financial regulations and consumer protection laws governing these transactions, we may become subject to enforcement actions or penalties.',
  ],
  [
    'a default a covenant breach could cause',
    'Furthermore, our failure to comply with our debt covenants could result in a default under our debt agreements, which could permit the holders to accelerate our obligation to repay the debt.',
  ],
  [
    'a default financing may bring',
    'We may not be able to engage in these activities on desirable terms or at all, which may result in a default on our existing or future indebtedness and harm our financial condition and operating results.',
  ],
  [
    'the risk of GDPR fines',
    'For example, the General Data Protection Regulation applies to the processing of personal information collected from individuals located in the European Union requiring certain data protection measures when handling, with a significant risk of fines for noncompliance.',
  ],
  ['penalties noncompliance could bring', 'Noncompliance could result in significant penalties or legal liability.'],
  // Tesla 10-K FY2024, Note 14 "Certain Investigations and Other Matters" and the suits.
  [
    'open investigations, no wrongdoing found',
    'To our knowledge no government agency in any ongoing investigation has concluded that any wrongdoing occurred.',
  ],
  [
    'an enforcement action the government may pursue',
    'Should the government decide to pursue an enforcement action, there exists the possibility of a material adverse impact on our business, results of operation, prospects, cash flows, financial position or brand.',
  ],
  [
    'a ruling that might come',
    'If an unfavorable ruling or development were to occur in these or other possible legal proceedings, risks and claims, there exists the possibility of a material adverse impact on our business, results of operations, prospects, cash flows, financial position or brand.',
  ],
  [
    'a suit filed by a regulator',
    'On September 28, 2023, the EEOC filed a civil complaint against Tesla in the United States District Court for the Northern District of California asserting claims for race harassment and retaliation and seeking, among other things, monetary and injunctive relief.',
  ],
  [
    'a settlement the court approved',
    'On January 8, 2025, the Court approved the settlement and awarded Plaintiff’s counsel fees in the amount of approximately $176 million.',
  ],
  // Issue 26 quotes a competition authority's 10-K wording, elided as the issue gives it.
  ['a fine the Commission may impose', 'if the Commission makes a final determination … may impose fines'],
  // Samsung, DART 2022 half-year report, XI-2 and XI-3: investigations and a referral.
  ['규제기관 조사 진행 중', '당사는 다수의 회사 등과 정상적인 영업과정에서 발생한 소송, 분쟁 및 규제기관의 조사 등을 진행 중에 있습니다.'],
  [
    '검찰 고발',
    '공정거래위원회는 2018년 11월 21일「독점규제 및 공정거래에 관한 법률」제14조(상호출자제한기업집단 등의 지정 등) 제4항에 따른 2014년도 기업집단 지정자료 제출 시 ㈜삼우종합건축사사무소 및 ㈜서영엔지니어링을 기업집단「삼성」소속회사에서 누락한 허위의 자료를 제출했다는 이유로 당사 임원 이건희 회장을 고발 조치하였습니다.',
  ],
  // OpenDART 소송 등의 제기 (올리패스): an injunction sought until a judgment becomes final.
  ['가처분 신청, 판결 확정시까지', '신주발행무효의 소 본안 판결 확정시까지 신주발행 금지 등을 구하는 가처분 신청. 법적 절차에 따라 적극적으로 대응할 예정'],
];

describe('red flags tell events that happened from proceedings and possibilities', () => {
  it.each(HAPPENED_EVENTS)('an event that happened is a decisive flag: %s', (_name, kind, text) => {
    expect(kindsOf(text)).toEqual([kind]);
  });

  it.each(NOT_YET_MATTERS)('a proceeding or a possibility is not a flag: %s', (_name, text) => {
    expect(kindsOf(text)).toEqual([]);
    expect(kindsOf(text, 'legal_proceedings')).toEqual([]);
  });

  it('keep a flag whose sentence also speaks of an appeal or a charge, and drop one that only may come', () => {
    // The stage words alone, on the shapes the two lists rest on.
    expect(NOT_YET.some((p) => p.test('위반 혐의로 과징금 처분을 받았습니다.'))).toBe(true);
    expect(HAPPENED.some((p) => p.test('위반 혐의로 과징금 처분을 받았습니다.'))).toBe(true);
    expect(HAPPENED.some((p) => p.test('과징금 부과 처분을 받을 수 있습니다.'))).toBe(false);
    expect(HAPPENED.some((p) => p.test('fines could be imposed on the company'))).toBe(false);
    expect(HAPPENED.some((p) => p.test('the regulator imposed a fine of $5 million'))).toBe(true);
    // "May" before a day is the month, not a possibility.
    expect(NOT_YET.some((p) => p.test('On May 15, 2024, plaintiffs filed a brief.'))).toBe(false);
  });
});

describe('document candidates follow the same stages', () => {
  // Tesla 10-K FY2024: a risk-factor sentence and two Note 14 sentences, as one document.
  const body = [
    'While we defend such actions vigorously, any judgment against us or any future stockholder litigation could result in substantial costs and a diversion of our management’s attention and resources.',
    'On December 2, 2024, the Court issued an opinion denying the motion to revise the Court’s January 30, 2024 opinion and awarded Plaintiff’s counsel fees in the amount of $345 million.',
    'On January 8, 2025, the Court approved the settlement and awarded Plaintiff’s counsel fees in the amount of approximately $176 million.',
  ].join('\n\n');

  it('propose the ruling against the company as a red flag, and not the judgment that could come or the approved settlement', () => {
    expect(flaggedSentences(body)).toEqual([
      'On December 2, 2024, the Court issued an opinion denying the motion to revise the Court’s January 30, 2024 opinion and awarded Plaintiff’s counsel fees in the amount of $345 million.',
    ]);
    // The dated settlement sentence is still offered, as a lawsuit for the RM to review.
    const settlement = proposeCandidates({ body, publishedDate: '2025-01-30' }).find((c) => c.text.startsWith('On January 8, 2025'));
    expect(settlement?.reason).toBe('litigation');
  });

  it('propose no hypothetical sanction sentence of a risk-factor section as a red flag', () => {
    const risks = NOT_YET_MATTERS.map(([, text]) => text).join('\n\n');
    expect(flaggedSentences(risks)).toEqual([]);
  });
});

describe('each kind is named for what it is', () => {
  it('names a sanction as imposed, and a lost suit by its ruling without calling it major', () => {
    // A criminal sentence or a court's fine is not an administrative one, and the rules do not
    // judge a suit's size: the names say only what the rules establish.
    expect([redFlagMessages.en.kind_regulatory_sanction, redFlagMessages.ko.kind_regulatory_sanction]).toEqual(['Sanction or fine imposed', '제재·벌금 부과']);
    expect([redFlagMessages.en.kind_lawsuit_lost, redFlagMessages.ko.kind_lawsuit_lost]).toEqual([
      'Lawsuit lost (ruling against the borrower)',
      '소송 패소(차주에 불리한 판결)',
    ]);
  });
});
