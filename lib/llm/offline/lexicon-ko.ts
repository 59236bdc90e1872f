// 요인별 문구(한국어): 긍정·부정 자료의 해석, 그 전제, 반증 조건, 각 해석에 대한 대표적 반론.
// 해석·전제·반론은 '-다'로 끝나는 문장, 반증 조건은 명사구로 써서 문장 틀에 그대로 넣는다.
import type { FactorId } from '@/lib/domain/factors';
import type { FactorWords } from './factor-words';
import type { Signal } from './reading';

export const LEXICON_KO: Record<FactorId, FactorWords> = {
  industry_growth_outlook: {
    favReading: '시장이 커지면 상환 재원이 되는 매출 기반도 넓어진다',
    advReading: '시장이 줄면 상환 재원이 되는 매출이 압박을 받는다',
    favAssumption: '시장 성장이 회사의 주력 제품군까지 이어진다',
    advAssumption: '수요 감소가 이번 경기 순환을 넘어 이어진다',
    favFalsifier: '주력 시장의 수요 감소를 보여 주는 더 최근 전망',
    advFalsifier: '주력 시장의 수요 회복을 보여 주는 더 최근 자료',
    favChallenge: '산업 평균의 성장이 곧 이 차주의 성장을 뜻하지는 않는다',
    advAlternative: '수요 감소가 일부 제품군이나 한 해의 경기 순환에 그칠 수 있다',
  },
  industry_competition_intensity: {
    favReading: '높은 시장 지위는 가격 결정력과 상환 재원이 되는 이익률을 지켜 준다',
    advReading: '경쟁이 치열하면 가격과 이익률이 깎여 상환 재원이 줄어든다',
    favAssumption: '저가·신규 경쟁자에 맞서 현재 점유율이 유지된다',
    advAssumption: '경쟁 압력이 일부 틈새가 아니라 주력 제품까지 미친다',
    favFalsifier: '주력 제품군의 점유율 하락',
    advFalsifier: '주력 제품군 점유율의 유지 또는 상승',
    favChallenge: '점유율은 지위를 보여 줄 뿐 수익성은 아니며, 1위라도 가격 경쟁에서 이익률을 잃을 수 있다',
    advAlternative: '경쟁 압력이 한 부문에 그치고 주력 제품은 지위를 지키고 있을 수 있다',
  },
  technological_disruption_risk: {
    favReading: '특허와 연구개발 기반이 탄탄할수록 기술 대체로 밀려날 위험이 낮다',
    advReading: '기술 변화에 노출되면 대출 상환 전에 제품이 경쟁력을 잃을 수 있다',
    favAssumption: '권리로 보호된 기술이 사업적으로 계속 쓰인다',
    advAssumption: '소멸·만료되는 기술을 새 권리로 대체하지 못한다',
    favFalsifier: '핵심 특허의 소멸·무효 또는 주력 제품의 기술적 진부화',
    advFalsifier: '핵심 기술에서의 신규 등록이나 연구개발 성과',
    favChallenge: '특허 건수는 투입의 지표일 뿐, 등록이 곧 현금 창출을 뜻하지는 않는다',
    advAlternative: '소멸되거나 심사 중인 권리는 포트폴리오의 통상적인 교체일 뿐 기술력 상실은 아닐 수 있다',
  },
  economic_sensitivity: {
    favReading: '경기 변동에 덜 흔들릴수록 침체기에도 현금흐름이 안정적이다',
    advReading: '경기 민감도가 높으면 상환 시점에 현금흐름이 급감할 수 있다',
    favAssumption: '침체기에도 제품 수요가 유지된다',
    advAssumption: '거시 환경의 압력이 상환 기간까지 이어진다',
    favFalsifier: '경기에 따라 매출이 함께 꺾이는 모습',
    advFalsifier: '언급된 거시 압력 속에서도 실적이 유지되었다는 자료',
    favChallenge: '한 시기의 선방이 더 깊은 침체에서도 버틴다는 증거는 아니다',
    advAlternative: '압력이 구조적이기보다 날씨나 일회성 충격 같은 일시적 요인일 수 있다',
  },
  government_support_programs: {
    favReading: '정부 지원은 비용 부담을 낮추고 정책적 뒷받침을 보여 준다',
    advReading: '지원에서 제외되거나 의무가 딸린 지원은 비용 완충 장치를 약하게 만든다',
    favAssumption: '지원이 대출 기간 동안 유지된다',
    advAssumption: '제외나 의무 조건이 회사 수익 구조에 의미 있는 영향을 준다',
    favFalsifier: '지원의 중단·환수 또는 조건 강화',
    advFalsifier: '해당 지원이 매출에 비해 작다는 자료',
    favChallenge: '언제든 철회될 수 있는 지원은 강점이면서 동시에 의존이다',
    advAlternative: '제외나 의무 조건이 특정 지역에 한정되고 회사 규모에 비해 작을 수 있다',
  },
  internal_control_risk: {
    favReading: '감사·지배구조상 문제가 없으면 보고 수치에서 돌발 악재가 나올 위험이 낮다',
    advReading: '소송·제재·부실 사건은 상환에 쓰일 현금과 경영 역량을 빼앗는다',
    favAssumption: '새로운 중요한 취약점·제재·주요 패소가 나오지 않는다',
    advAssumption: '진행 중인 사안이 현금흐름에 의미 있는 지급이나 제약으로 이어진다',
    favFalsifier: '한정·부적정 의견, 중요한 취약점, 제재 또는 주요 소송 패소',
    advFalsifier: '소송 기각, 미미한 비용의 합의, 또는 사건 이후의 적정 감사의견',
    favChallenge: '감사의견은 재무제표에 대한 의견일 뿐 소송·규제 위험까지 보증하지 않는다',
    advAlternative: '공시된 사안은 이 규모의 기업에게 일상적이며 이미 충당되어 있을 수 있다',
  },
  management_continuity: {
    favReading: '경영진이 안정적이면 전략과 상환 계획이 일관되게 유지된다',
    advReading: '경영진 교체나 한 사람에 대한 의존은 전략과 실행을 흔들 수 있다',
    favAssumption: '현 경영진이 대출 기간 동안 유지된다',
    advAssumption: '교체가 통상적인 이사회 순환이 아니라 사업을 이끄는 핵심 인력에 해당한다',
    favFalsifier: '대표이사나 핵심 임원의 사임·해임 공시',
    advFalsifier: '내부 승계로 전략이 그대로 유지된다는 자료',
    favChallenge: '긴 재직은 소수 인물에 대한 의존과 승계 위험을 뜻할 수도 있다',
    advAlternative: '공시된 변동은 불안정이 아니라 계획된 교체일 수 있다',
  },
  employment_stability: {
    favReading: '숙련 인력이 안정적으로 유지되면 사업 운영도 안정된다',
    advReading: '노사 갈등이나 인력 감축은 운영과 현금흐름을 흔들 수 있다',
    favAssumption: '큰 노사 분쟁 없이 인원과 근속이 유지된다',
    advAssumption: '노사 문제가 파업이나 큰 비용의 합의로 번진다',
    favFalsifier: '대규모 감원, 파업 또는 근속연수의 급감',
    advFalsifier: '파업 없이 타결되었다는 자료',
    favChallenge: '인원과 근속은 인력의 규모를 보여 줄 뿐 인건비 부담이나 생산성은 아니다',
    advAlternative: '통상적인 노사 협상일 뿐 운영 차질로 이어지지 않을 수 있다',
  },
  certifications: {
    favReading: '인증 보유는 외부 기준을 충족하는 관리 체계를 보여 준다',
    advReading: '인증 취소나 상실은 기준 위반이 있었다는 신호이다',
    favAssumption: '인증이 갱신되고 주요 사업장을 포괄한다',
    advAssumption: '취소 사유가 더 넓은 준법 문제를 반영한다',
    favFalsifier: '인증 취소나 갱신 실패',
    advFalsifier: '재인증 또는 한 사업장에 한정된 사안이라는 자료',
    favChallenge: '인증은 준법의 최저선일 뿐 현금을 만들어 내지는 않는다',
    advAlternative: '취소가 한 사업장에 한정되고 다른 인증은 유지되고 있을 수 있다',
  },
  public_interest_trend: {
    favReading: '대중의 관심이 높아지면 수요와 자금 조달 여건이 좋아진다',
    advReading: '관심이 식으면 수요 약화가 뒤따를 수 있다',
    favAssumption: '관심이 실제 매출로 이어진다',
    advAssumption: '관심 감소가 뉴스 주기가 아니라 고객 이탈을 반영한다',
    favFalsifier: '부정적 이슈로 인한 관심 증가',
    advFalsifier: '관심 감소에도 유지되는 매출',
    favChallenge: '관심은 수요가 아니며, 나쁜 소식에도 관심은 치솟는다',
    advAlternative: '화제가 지나가며 관심만 줄고 수요는 그대로일 수 있다',
  },
  other: {
    favReading: '현금흐름을 뒷받침할 수 있는 사업 활동을 보여 준다',
    advReading: '현금흐름에 부담이 될 수 있는 비용이나 의무를 보여 준다',
    favAssumption: '해당 활동이 대출 기간 안에 매출로 이어진다',
    advAssumption: '해당 비용이 현금흐름에 비해 의미 있는 규모이다',
    favFalsifier: '계획의 취소나 지연',
    advFalsifier: '비용이 작거나 이미 반영되었다는 자료',
    favChallenge: '계획이나 계약은 아직 현금이 아니며, 조건과 시기는 자료만으로 알 수 없다',
    advAlternative: '통상적인 공시일 뿐 현금흐름에 미치는 영향은 작을 수 있다',
  },
};

export const CATEGORY_KO: Record<string, Partial<FactorWords>> = {
  distress_creditor_management: {
    favAssumption: '채권단이 정상화 계획을 종료일까지 지원한다',
    favFalsifier: '관리절차의 연장이나 법정관리(회생절차) 신청',
    advReading: '채권단 관리절차 개시는 회사가 자력으로 채무를 감당하지 못했다는 뜻이다',
    advAssumption: '관리절차가 끝나기 전에 정상화 계획이 지연되거나 무산된다',
    advFalsifier: '정상화 계획을 달성하고 관리절차가 예정대로 종료되는 것',
    advAlternative: '채권단 주도 관리절차는 채권단이 청산 대신 정상화 지원을 택했다는 뜻이며, 정해진 일정 안에서 진행된다',
  },
  distress_rehabilitation: {
    advReading: '회생절차는 기존 채권자의 권리가 조정된다는 뜻이다',
    advAssumption: '회생계획이 이행되지 못한다',
    advFalsifier: '법원의 회생계획 인가와 절차 종결',
    advAlternative: '회생절차는 청산이 아니라 법원 감독 아래 사업을 이어 가는 길이다',
  },
  distress_default: {
    advReading: '채무 불이행은 상환 부담을 직접 보여 주는 증거이다',
    advAlternative: '불이행이 이미 해소되었거나 작은 채무에 관한 것일 수 있다',
  },
  risk_factor: {
    advAlternative: '공시서류의 위험 요인은 일어날 수 있는 일을 적는 의무 기재 사항일 뿐, 이미 일어난 사건은 아니다',
  },
  legal_proceedings: {
    advAlternative: '진행 중인 소송은 주장일 뿐 결과가 아니며, 그 비용은 아직 확정되지 않았다',
  },
};

/** 요인과 관계없이 자료의 문구가 따로 읽기를 요구하는 종류(reading.ts `signalOf`). 승소는 적정 감사의견이 아니다. */
export const SIGNAL_KO: Partial<Record<Signal, Partial<FactorWords>>> = {
  suit_won: {
    favReading: '소송이 회사에 유리하게 끝나 우발채무 하나가 사라졌다',
    favAssumption: '상급심에서 판결이 뒤집히지 않고 관련 소송도 같은 결론에 이른다',
    favFalsifier: '판결의 파기 또는 관련 소송의 패소',
    favChallenge: '한 건의 승소가 아직 진행 중인 관련 소송이나 상소까지 끝내지는 않는다',
  },
  suit_withdrawn: {
    favReading: '소송이 취하되거나 합의로 끝나 소송 위험 하나가 해소되었다',
    favAssumption: '같은 사안으로 새 소송이 제기되지 않는다',
    favFalsifier: '같은 사안의 새 소송 제기',
    favChallenge: '합의 조건은 자료에 없으며 그 자체로 비용이 따를 수 있다',
  },
  suit_pending: {
    advReading: '진행 중인 소송은 손해배상·비용·제약으로 이어져 현금을 잠식할 수 있다',
    advAssumption: '소송이 현금흐름에 의미 있는 지급이나 제약으로 끝난다',
  },
  sanction: {
    advReading: '벌금이나 형사 제재는 준법 실패를 보여 주며 현금과 규제 당국의 신뢰를 잃게 한다',
    advAssumption: '제재의 원인이 된 실패가 일회성이 아니고 되풀이된다',
    advFalsifier: '규제 당국이 확인한 개선 조치와 추가 제재가 없다는 자료',
    advAlternative: '제재금은 이미 납부되었고 원인도 개선되어 추가 비용이 없을 수 있다',
  },
  audit_qualified: {
    advReading: '적정이 아닌 감사의견은 보고된 수치를 그대로 믿을 수 없다는 뜻이다',
    advAssumption: '감사인의 유보가 상환에 중요한 계정에 관한 것이다',
    advFalsifier: '다음 회계연도의 적정 의견',
  },
  buyback: {
    favReading: '이 규모의 자기주식 취득은 영업에 필요한 것 이상의 현금이 있음을 보여 준다',
    advReading: '주주에게 돌려준 현금은 채권자에게 쓸 수 없다',
    favAssumption: '자기주식 취득이 차입이 아니라 여유 현금으로 이루어진다',
    advAssumption: '취득 규모가 채무 상환에 쓰이는 현금에 비해 크다',
    favFalsifier: '차입으로 자금을 댄 자기주식 취득',
    advFalsifier: '취득 뒤에도 현금과 부채 비율이 그대로라는 자료',
    favChallenge: '주주에게 쓴 현금은 채권자를 위해 남겨 둔 현금이 아니다',
    advAlternative: '여유 현금으로 하는 취득이라면 상환 능력은 그대로다',
  },
  patent_lapsed: {
    favReading: '오래된 권리의 소멸은 포트폴리오의 통상적인 교체일 뿐 현재 주력 제품과는 관계가 없다',
    advReading: '소멸된 권리는 더 이상 해당 기술을 보호하지 못한다',
    favAssumption: '소멸된 권리가 더 이상 팔지 않는 기술에 관한 것이다',
    advAssumption: '소멸된 권리가 주력 제품에 아직 쓰이는 기술을 다룬다',
    favChallenge: '소멸된 권리의 기술은 경쟁사에 열려 있다',
  },
  patent_pending: {
    favReading: '공개된 출원은 연구개발이 계속 성과로 이어지고 있음을 보여 준다',
    advReading: '공개된 출원은 아직 보호받는 권리가 아니다',
    favAssumption: '출원이 등록된다',
    favFalsifier: '출원의 거절이나 취하',
    favChallenge: '출원은 등록된 권리가 아니며 거절될 수 있다',
  },
  filing_index: {
    favReading: '공시 목록은 조건이 드러나지 않은 회사 행사를 기록할 뿐이며, 기껏해야 통상적 활동을 보여 준다',
    advReading: '공시 목록은 조건이 드러나지 않은 사건을 기록하며, 원문을 읽기 전에는 그 영향을 알 수 없다',
    favAssumption: '공시 원문에 상환에 부담이 되는 내용이 없다',
    advAssumption: '공시 원문에 상환에 부담이 되는 변화가 담겨 있다',
    favFalsifier: '원문에서 드러나는 사임·새 의무·손실',
    advFalsifier: '원문이 통상적인 사안으로 확인되는 것',
    favChallenge: '목록 항목은 항목 번호만 보여 줄 뿐 무슨 일이 있었는지는 알려 주지 않는다',
    advAlternative: '이런 공시의 대부분은 선임·보수·표결 같은 통상적인 사안이다',
  },
  support_dependence: {
    advReading: '정부 인센티브에 기대는 수요는 인센티브가 줄면 함께 줄 수 있다',
    advAssumption: '대출 기간 안에 인센티브가 축소되거나 끝난다',
    advFalsifier: '인센티브의 연장, 또는 인센티브가 끝난 곳에서도 유지되는 수요',
    advAlternative: '인센티브가 연장될 수 있고, 인센티브 없이도 수요가 유지될 수 있다',
  },
  support_obligation: {
    favReading: '정부 지원이 회사가 지키고 있는 약정과 묶여 있다',
    advReading: '투자·고용 의무는 현금을 묶어 두며 지키지 못하면 불이익이 따른다',
    favAssumption: '약정이 계속 이행된다',
    advAssumption: '약정을 지키지 못해 불이익이 따른다',
    favFalsifier: '약정 미이행이나 불이익 부과',
    advFalsifier: '약정이 일정대로 이행되었다는 자료',
  },
  contraction: {
    advReading: '시장이 줄면 상환 재원이 되는 매출이 압박을 받는다',
  },
};

/** 자료 자체의 문구에 맞춘 해석(lexicon-en.ts NEUTRAL_EN과 같은 역할): 자료에 없는 사실은 말하지 않는다. */
export const NEUTRAL_KO: Record<'stated' | 'context', Pick<FactorWords, 'favReading' | 'advReading' | 'favAssumption' | 'advAssumption'>> = {
  stated: {
    favReading: '자료에 적힌 내용만큼은 상환능력에 긍정적이며, 그 이상을 말해 주지는 않는다',
    advReading: '자료에 적힌 내용대로라면 상환능력에 부담이 될 수 있다',
    favAssumption: '자료에 적힌 내용이 대출 기간 동안 유지된다',
    advAssumption: '자료에 적힌 위험이 대출 기간 안에 실제로 나타나고 그 규모가 크다',
  },
  context: {
    favReading: '자료에는 불리한 사건이 적혀 있지 않으며, 상환능력에 대해 그 이상을 보여 주지는 않는다',
    advReading: '자료에는 어느 쪽 사건도 적혀 있지 않아, 적히지 않은 부분이 위험으로 남는다',
    favAssumption: '자료에 적히지 않은 부분이 상환에 부담이 되지 않는다',
    advAssumption: '자료에 적히지 않은 부분이 상환에 부담이 된다',
  },
};
