// A synthetic knowledge pool for benchmarks: Korean and English evidence and filing passages
// that look like the real pool (disclosures, news, court and rating notices), deterministic for
// a seed so two runs measure the same data. The vocabulary mixes a few dozen topics with
// counterparties, places, figures and dates, so posting lists range from rare to very common,
// as they do in real text, rather than every word being equally frequent.
import type { EvidenceCategory } from '@/lib/domain/factors';
import { searchTokens } from '@/lib/pool/search-text';
import { addDays, daysBetween } from '@/lib/util/dates';
import { seededRandom, type Random } from '@/lib/util/random';

const pick = <T>(r: Random, list: readonly T[]): T => list[Math.floor(r() * list.length)];
const int = (r: Random, min: number, max: number) => min + Math.floor(r() * (max - min + 1));

// Categories from the import vocabulary (lib/domain/factors.ts), so the rows also pass an import.
type Topic = { category: EvidenceCategory; ko: string[]; en: string[] };

// Phrases as they appear in DART filings, Korean news and US 10-Ks / news wires.
export const TOPICS: Topic[] = [
  {
    category: 'legal_proceedings',
    ko: ['손해배상 청구소송', '특허침해소송', '행정소송', '집단소송', '소송 제기', '항소심 판결'],
    en: ['patent infringement lawsuit', 'class action lawsuit', 'securities litigation', 'lawsuits filed', 'court ruling on appeal'],
  },
  {
    category: 'patent',
    ko: ['특허 등록', '특허권 취득', '실용신안 등록', '특허 라이선스 계약'],
    en: ['patent granted', 'patent portfolio', 'cross-licensing agreement', 'intellectual property'],
  },
  {
    category: 'industry_competition',
    ko: ['반도체 업황 둔화', '메모리반도체 가격 하락', '파운드리 수주 확대', 'HBM 공급 계약'],
    en: ['semiconductor demand slowdown', 'memory chip prices', 'foundry orders', 'HBM supply deal'],
  },
  {
    category: 'risk_factor',
    ko: ['개인정보 유출 사고', '해킹 피해', '랜섬웨어 공격', '정보보안 투자'],
    en: ['cybersecurity incident', 'data breach', 'ransomware attack', 'information security program'],
  },
  {
    category: 'distress_default',
    ko: ['유동성 위기', '워크아웃 신청', '기업회생절차 개시', '어음 부도', '채무불이행'],
    en: ['liquidity shortfall', 'debt restructuring', 'covenant breach', 'missed coupon payment', 'going concern doubt'],
  },
  {
    category: 'management_change',
    ko: ['대표이사 변경', '최대주주 변경', '사외이사 선임', '경영권 분쟁'],
    en: ['CEO resignation', 'board reshuffle', 'change of control', 'new chief financial officer'],
  },
  {
    category: 'esg',
    ko: ['온실가스 배출량', '환경규제 위반', '탄소중립 목표', 'ESG 등급 상향'],
    en: ['greenhouse gas emissions', 'environmental violation fine', 'net zero target', 'ESG rating upgrade'],
  },
  {
    category: 'supply_contract',
    ko: ['공급망 차질', '원자재 가격 상승', '물류비 증가'],
    en: ['supply chain disruption', 'raw material costs', 'shipping costs'],
  },
  {
    category: 'employment',
    ko: ['노조 파업', '임금 협상 타결', '산업재해 사망사고', '중대재해처벌법 위반'],
    en: ['labor strike', 'wage agreement', 'workplace fatality', 'safety violation'],
  },
  {
    category: 'sanctions',
    ko: ['공정거래위원회 과징금', '시정명령', '검찰 고발', '금융감독원 제재'],
    en: ['regulatory fine', 'antitrust investigation', 'consent decree', 'SEC enforcement action'],
  },
  {
    category: 'news',
    ko: ['신용등급 하향', '신용등급 상향', '등급전망 부정적', '회사채 발행'],
    en: ['credit rating downgrade', 'rating outlook negative', 'bond issuance', 'credit rating upgrade'],
  },
  {
    category: 'news',
    ko: ['수출 실적 증가', '해외 수주', '신규 공장 증설', '설비투자 확대'],
    en: ['export growth', 'overseas contract win', 'new plant construction', 'capital expenditure'],
  },
  {
    category: 'risk_factor',
    ko: ['부동산 PF 우발채무', '미분양 증가', '공사비 상승', '책임준공 약정'],
    en: ['project financing exposure', 'unsold housing inventory', 'construction cost overruns', 'completion guarantee'],
  },
  {
    category: 'governance_ownership',
    ko: ['감사의견 한정', '감사의견 적정', '계속기업 불확실성', '내부회계관리제도'],
    en: ['qualified audit opinion', 'unqualified opinion', 'material weakness', 'internal control over financial reporting'],
  },
  { category: 'news', ko: ['제품 리콜', '품질 결함', '소비자 집단 불만'], en: ['product recall', 'quality defect', 'customer complaints'] },
  {
    category: 'rnd_activity',
    ko: ['연구개발비 증가', '신제품 출시', '기술 이전 계약'],
    en: ['research and development spending', 'new product launch', 'technology transfer agreement'],
  },
  {
    category: 'disclosure_other',
    ko: ['매출 감소', '영업이익 증가', '적자 전환', '흑자 전환'],
    en: ['revenue decline', 'operating profit growth', 'swung to a loss', 'returned to profit'],
  },
  { category: 'governance_ownership', ko: ['배당 확대', '자사주 매입', '유상증자 결정'], en: ['dividend increase', 'share buyback', 'rights offering'] },
];

const KO_PREFIX = [
  '한빛',
  '대성',
  '세진',
  '동양',
  '삼화',
  '우리',
  '태평',
  '금강',
  '신일',
  '한솔',
  '미래',
  '대한',
  '성원',
  '경남',
  '동부',
  '청암',
  '서해',
  '남양',
  '영진',
  '가온',
];
const KO_SUFFIX = ['산업', '테크', '물산', '건설', '전자', '화학', '중공업', '에너지', '바이오', '제약', '정밀', '로지스'];
const EN_NAMES = ['Apex', 'Northwind', 'Harbor', 'Summit', 'Pioneer', 'Redwood', 'Atlas', 'Meridian', 'Bluewater', 'Granite', 'Crescent', 'Vertex'];
const EN_SUFFIX = ['Holdings', 'Industries', 'Capital', 'Systems', 'Logistics', 'Materials', 'Partners', 'Semiconductor'];
const PLACES_KO = ['서울', '부산', '평택', '화성', '울산', '베트남', '미국 텍사스', '중국 시안', '인도', '폴란드'];
const PLACES_EN = ['Texas', 'Nevada', 'Shanghai', 'Berlin', 'Ontario', 'Mexico', 'Arizona', 'Ohio', 'Vietnam', 'Poland'];
const SOURCES_KO = ['금융감독원 전자공시시스템', '연합뉴스', '매일경제', '한국경제', '대법원 판결문', '한국신용평가', 'KIPRIS'];
const SOURCES_EN = ['SEC EDGAR', 'Reuters', 'Bloomberg', 'Moody’s', 'S&P Global Ratings', 'PACER', 'Company press release'];
const HEADINGS = [
  '위험요소',
  '우발부채 등에 관한 사항',
  '제재 등과 관련된 사항',
  '사업의 내용',
  'Risk Factors',
  'Legal Proceedings',
  'Liquidity and Capital Resources',
  'Cybersecurity',
  "Management's Discussion and Analysis",
];

function counterparty(r: Random, korean: boolean) {
  return korean ? `${pick(r, KO_PREFIX)}${pick(r, KO_SUFFIX)}` : `${pick(r, EN_NAMES)} ${pick(r, EN_SUFFIX)}`;
}

function koSentence(r: Random, company: string, topic: Topic, date: string): string {
  const phrase = pick(r, topic.ko);
  const amount = `${int(r, 1, 9999).toLocaleString('en')}억원`;
  const templates = [
    () => `${company}는 ${date} ${counterparty(r, true)}와(과) 관련하여 ${phrase} 사실을 공시하였습니다.`,
    () => `당사는 ${pick(r, PLACES_KO)} 사업장에서 발생한 ${phrase} 건으로 약 ${amount}의 영향이 예상된다고 밝혔다.`,
    () => `${phrase} 관련 금액은 ${amount}이며, 향후 재무상태에 미치는 영향은 제한적일 것으로 판단하고 있습니다.`,
    () => `업계에서는 ${company}의 ${phrase}이(가) ${int(r, 2025, 2027)}년 실적에 부담이 될 수 있다고 전망했다.`,
    () => `${counterparty(r, true)} 측은 ${phrase}에 대해 ${pick(r, ['이의를 제기', '입장을 유보', '협의를 진행', '추가 자료를 요청'])}하였다.`,
  ];
  return pick(r, templates)();
}

function enSentence(r: Random, company: string, topic: Topic, date: string): string {
  const phrase = pick(r, topic.en);
  const amount = `$${int(r, 1, 950)}.${int(r, 0, 9)} million`;
  const templates = [
    () => `On ${date}, ${company} disclosed a ${phrase} involving ${counterparty(r, false)}.`,
    () => `The company said the ${phrase} at its ${pick(r, PLACES_EN)} operations could cost about ${amount}.`,
    () => `Management does not expect the ${phrase} to have a material adverse effect on its financial condition.`,
    () => `Analysts said the ${phrase} may weigh on ${company}'s results for fiscal ${int(r, 2025, 2027)}.`,
    () => `${counterparty(r, false)} ${pick(r, ['disputed', 'welcomed', 'declined to comment on', 'is reviewing'])} the ${phrase}.`,
  ];
  return pick(r, templates)();
}

export type BenchCompany = { id: string; name: string; country: string; korean: boolean };

export function makeCompanies(count: number, seed = 1): BenchCompany[] {
  const r = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => {
    const korean = i % 5 !== 4; // mostly Korean borrowers, as at a Korean bank
    const name = korean ? `${pick(r, KO_PREFIX)}${pick(r, KO_SUFFIX)}` : `${pick(r, EN_NAMES)} ${pick(r, EN_SUFFIX)}`;
    return { id: `bench-co-${String(i + 1).padStart(3, '0')}`, name, country: korean ? 'KR' : 'US', korean };
  });
}

const FIRST_DAY = '2015-01-01';
const DAYS = daysBetween(FIRST_DAY, '2025-12-31');
const randomDate = (r: Random) => addDays(FIRST_DAY, int(r, 0, DAYS));

/** A paragraph of `sentences` sentences on one main topic, with asides on others. */
function paragraph(r: Random, company: BenchCompany, korean: boolean, main: Topic, date: string, sentences: number) {
  const parts: string[] = [];
  for (let i = 0; i < sentences; i++) {
    const topic = i === 0 || r() < 0.6 ? main : pick(r, TOPICS);
    parts.push(korean ? koSentence(r, company.name, topic, date) : enSentence(r, company.name, topic, date));
  }
  // Korean filings quote English terms and vice versa now and then.
  if (korean && r() < 0.2) parts.push(`(${pick(r, main.en)})`);
  return parts.join(' ');
}

export function* evidenceBatches(companies: BenchCompany[], total: number, batchSize: number, seed = 2) {
  const r = seededRandom(seed);
  for (let start = 0; start < total; start += batchSize) {
    const batch = [];
    for (let i = start; i < Math.min(total, start + batchSize); i++) {
      const company = companies[i % companies.length];
      const korean = company.korean ? r() < 0.85 : r() < 0.1;
      const topic = pick(r, TOPICS);
      const date = randomDate(r);
      const title = korean
        ? `${company.name}, ${pick(r, topic.ko)} ${pick(r, ['공시', '관련 보도', '현황', '결정', '발생'])}`
        : `${company.name}: ${pick(r, topic.en)} ${pick(r, ['reported', 'disclosed', 'update', 'announced'])}`;
      const text = paragraph(r, company, korean, topic, date, int(r, 2, 4));
      batch.push({
        id: `bench-ev-${i}`,
        companyId: company.id,
        category: topic.category,
        title,
        text,
        publishedDate: date,
        sourceName: pick(r, korean ? SOURCES_KO : SOURCES_EN),
        sourceUrl: `https://example.com/bench/${i}`,
        language: korean ? 'ko' : 'en',
        searchTokens: searchTokens(title, text),
      });
    }
    yield batch;
  }
}

/** Documents of `chunksPerDocument` passages of roughly 600–1,200 characters each. */
export function* documentBatches(companies: BenchCompany[], totalChunks: number, chunksPerDocument: number, seed = 3) {
  const r = seededRandom(seed);
  const documentCount = Math.ceil(totalChunks / chunksPerDocument);
  for (let d = 0; d < documentCount; d++) {
    const company = companies[d % companies.length];
    const korean = company.korean;
    const date = randomDate(r);
    const id = `bench-doc-${d}`;
    const chunks = [];
    let offset = 0;
    for (let c = 0; c < Math.min(chunksPerDocument, totalChunks - d * chunksPerDocument); c++) {
      const heading = pick(r, HEADINGS);
      const text = paragraph(r, company, korean, pick(r, TOPICS), date, int(r, 6, 10));
      chunks.push({ documentId: id, ordinal: c, heading, text, charStart: offset, charEnd: offset + text.length, searchTokens: searchTokens(heading, text) });
      offset += text.length + 2;
    }
    const document = {
      id,
      companyId: company.id,
      title: korean ? `${company.name} 사업보고서 (${date.slice(0, 4)})` : `${company.name} Form 10-K (${date.slice(0, 4)})`,
      kind: 'filing_section',
      publishedDate: date,
      sourceName: korean ? '금융감독원 전자공시시스템' : 'SEC EDGAR',
      sourceUrl: `https://example.com/bench/doc/${d}`,
      language: korean ? 'ko' : 'en',
      body: chunks.map((c) => c.text).join('\n\n'),
    };
    yield { document, chunks };
  }
}

/** Generated evidence in the import file format (one JSON object per line). */
export function toJsonl(batch: ReturnType<typeof evidenceBatches> extends Generator<infer B> ? B : never): string {
  return batch
    .map((e) =>
      JSON.stringify({
        id: e.id,
        company_id: e.companyId,
        category: e.category,
        title: e.title,
        text: e.text,
        published_date: e.publishedDate,
        source_name: e.sourceName,
        source_url: e.sourceUrl,
        language: e.language,
      }),
    )
    .join('\n');
}
