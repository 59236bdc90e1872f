// OpenDART rows → pool evidence. Each endpoint is described once (Korean name, category, the
// fields worth quoting, which field dates the event) and one generic mapper does the rest, so
// adding an endpoint is a table entry. Text stays Korean: it quotes the filing, and the pool's
// full-text search indexes Korean directly.
import { createHash } from 'node:crypto';
import type { EvidenceCategory } from '@/lib/domain/factors';
import type { PoolEvidence } from '@/lib/pool/types';
import { dayOf } from '@/lib/util/dates';

export type DartRow = Record<string, unknown>;

export type DartEndpoint = 'list' | 'empSttus' | 'exctvSttus' | 'hyslrChgSttus' | 'lwstLg' | 'dfOcr' | 'ctrcvsBgrq' | 'bsnSp' | 'bnkMngtPcbg' | 'bnkMngtPcsp';

export const DART_LICENSE = 'DART 공시정보 (public disclosure)';

type Spec = {
  nameKo: string;
  category: EvidenceCategory | ((row: DartRow) => EvidenceCategory);
  /** [field, Korean label] in the order the text quotes them. */
  fields: [string, string][];
  title: (row: DartRow) => string;
  eventDate?: string;
  value?: (row: DartRow) => string | null;
  /** Fields that tell apart several rows of one filing (a periodic report lists many people). */
  rowKey?: string[];
};

/** A field as display text: trimmed, with OpenDART's "-" and blanks read as absent. */
export function field(row: DartRow, key: string): string | null {
  const raw = row[key];
  if (raw === null || raw === undefined) return null;
  const text = String(raw).replace(/\s+/g, ' ').trim();
  return text === '' || text === '-' ? null : text;
}

const join = (parts: (string | null | false | undefined)[], sep = ' ') => parts.filter(Boolean).join(sep);
const paren = (inner: string | null) => (inner ? ` (${inner})` : '');
const won = (amount: string | null) => (amount ? `${amount}원` : null);

/**
 * OpenDART writes dates as `YYYYMMDD`, `YYYY-MM-DD`, `YYYY.MM.DD` or `YYYY년 MM월 DD일`
 * depending on the endpoint; the pool wants ISO dates, or null when a field is not a day.
 */
export function parseDartDate(value: string | null | undefined): string | null {
  if (!value) return null;
  const m = /^(\d{4})\s*(?:[-.년/]\s*)?(\d{1,2})\s*(?:[-.월/]\s*)?(\d{1,2})\s*일?\.?$/.exec(value.trim());
  if (!m) return null;
  return dayOf(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** The receipt date: `rcept_dt` when the endpoint gives it, else the first 8 digits of `rcept_no`. */
export function receiptDate(row: DartRow): string | null {
  return parseDartDate(field(row, 'rcept_dt')) ?? parseDartDate(field(row, 'rcept_no')?.slice(0, 8));
}

export const dartFilingUrl = (rceptNo: string) => `https://dart.fss.or.kr/dsaf001/main.do?rcpNo=${encodeURIComponent(rceptNo)}`;

// First match wins; the order puts the gravest readings first ("회생" before "소송" etc.).
const REPORT_NAME_RULES: [RegExp, EvidenceCategory][] = [
  [/회생절차|파산/, 'distress_rehabilitation'],
  [/부도|당좌거래정지|채무불이행|기한의이익상실/, 'distress_default'],
  [/채권은행|관리절차|워크아웃/, 'distress_creditor_management'],
  [/영업정지|생산중단|조업중단/, 'business_suspension'],
  [/매매거래정지|거래정지|상장폐지|관리종목/, 'trading_halt'],
  [/불성실공시|제재|과징금|조치/, 'sanctions'],
  [/소송|횡령|배임|가처분/, 'legal_proceedings'],
  [/최대주주|대량보유|주요주주|소유상황|지배구조|감사인|감사의견|내부회계/, 'governance_ownership'],
  [/대표이사|임원|사외이사/, 'management_change'],
  [/공급계약|판매ㆍ공급|판매·공급|수주/, 'supply_contract'],
  [/특허/, 'patent'],
  [/기술이전|기술도입|연구개발/, 'rnd_activity'],
];

export function categoryForReportName(reportName: string): EvidenceCategory {
  const compact = reportName.replace(/\s+/g, '');
  return REPORT_NAME_RULES.find(([re]) => re.test(compact))?.[1] ?? 'disclosure_other';
}

// The `rm` column of list.json packs one-letter flags; spelled out so a reader sees what they mean.
const LIST_REMARKS: Record<string, string> = {
  유: '유가증권시장본부 소관',
  코: '코스닥시장본부 소관',
  채: '채권상장법인 공시',
  넥: '코넥스시장 소관',
  공: '공정거래위원회 소관',
  연: '연결부분 포함',
  정: '제출 후 정정신고 있음',
  철: '철회(간주)됨',
};

export const DART_ENDPOINTS: Record<DartEndpoint, Spec> = {
  list: {
    nameKo: '공시목록',
    category: (row) => categoryForReportName(field(row, 'report_nm') ?? ''),
    fields: [
      ['report_nm', '보고서명'],
      ['flr_nm', '제출인'],
    ],
    title: (row) => field(row, 'report_nm') ?? '공시',
  },
  empSttus: {
    nameKo: '직원 현황',
    category: 'employment',
    fields: [
      ['fo_bbm', '사업부문'],
      ['sexdstn', '성별'],
      ['rgllbr_co', '정규직 수'],
      ['cnttk_co', '계약직 수'],
      ['sm', '합계'],
      ['avrg_cnwk_sdytrn', '평균 근속연수'],
      ['fyer_salary_totamt', '연간급여 총액'],
      ['jan_salary_am', '1인평균 급여액'],
      ['stlm_dt', '결산기준일'],
      ['rm', '비고'],
    ],
    title: (row) =>
      join([`직원 현황${paren(field(row, 'stlm_dt'))}:`, field(row, 'fo_bbm'), field(row, 'sexdstn'), field(row, 'sm') && `${field(row, 'sm')}명`]),
    eventDate: 'stlm_dt',
    value: (row) => (field(row, 'sm') ? `${field(row, 'sm')}명` : null),
    rowKey: ['fo_bbm', 'sexdstn'],
  },
  exctvSttus: {
    nameKo: '임원 현황',
    category: 'management_change',
    fields: [
      ['nm', '성명'],
      ['ofcps', '직위'],
      ['rgist_exctv_at', '등기임원 여부'],
      ['fte_at', '상근 여부'],
      ['chrg_job', '담당업무'],
      ['main_career', '주요경력'],
      ['mxmm_shrholdr_relate', '최대주주와의 관계'],
      ['hffc_pd', '재직기간'],
      ['tenure_end_on', '임기만료일'],
      ['stlm_dt', '결산기준일'],
    ],
    title: (row) => `임원 현황: ${join([field(row, 'nm'), field(row, 'ofcps')])}${paren(join([field(row, 'rgist_exctv_at'), field(row, 'chrg_job')], ', '))}`,
    eventDate: 'stlm_dt',
    value: (row) => field(row, 'ofcps'),
    rowKey: ['nm', 'birth_ym', 'ofcps'],
  },
  hyslrChgSttus: {
    nameKo: '최대주주 변동현황',
    category: 'governance_ownership',
    fields: [
      ['change_on', '변동일'],
      ['mxmm_shrholdr_nm', '최대주주명'],
      ['posesn_stock_co', '소유주식수'],
      ['qota_rt', '지분율'],
      ['change_cause', '변동원인'],
      ['rm', '비고'],
    ],
    title: (row) => `최대주주 변동: ${join([field(row, 'mxmm_shrholdr_nm'), field(row, 'qota_rt')])}${paren(field(row, 'change_cause'))}`,
    eventDate: 'change_on',
    value: (row) => field(row, 'qota_rt'),
    rowKey: ['change_on', 'mxmm_shrholdr_nm'],
  },
  lwstLg: {
    nameKo: '소송 등의 제기',
    category: 'legal_proceedings',
    fields: [
      ['icnm', '사건의 명칭'],
      ['ac_ap', '원고ㆍ신청인'],
      ['rq_cn', '청구내용'],
      ['cpct', '관할법원'],
      ['lgd', '제기일자'],
      ['ft_ctp', '향후대책'],
      ['cfd', '확인일자'],
    ],
    title: (row) => `소송 등의 제기: ${field(row, 'icnm') ?? '사건명 미기재'}${paren(field(row, 'cpct'))}`,
    eventDate: 'lgd',
    value: (row) => field(row, 'icnm'),
  },
  dfOcr: {
    nameKo: '부도발생',
    category: 'distress_default',
    fields: [
      ['df_cn', '부도내용'],
      ['df_amt', '부도금액(원)'],
      ['df_bnk', '부도발생은행'],
      ['dfd', '최종부도(당좌거래정지)일자'],
      ['df_rs', '부도사유 및 경위'],
    ],
    title: (row) => `부도발생: ${field(row, 'df_cn') ?? '내용 미기재'}${paren(won(field(row, 'df_amt')))}`,
    eventDate: 'dfd',
    value: (row) => won(field(row, 'df_amt')),
  },
  ctrcvsBgrq: {
    nameKo: '회생절차 개시신청',
    category: 'distress_rehabilitation',
    fields: [
      ['apcnt', '신청인'],
      ['cpct', '관할법원'],
      ['rq_rs', '신청사유'],
      ['rqd', '신청일자'],
      ['ft_ctp_sc', '향후대책 및 일정'],
    ],
    title: (row) => `회생절차 개시신청: ${join([field(row, 'cpct'), field(row, 'rqd')], ', ') || '법원 미기재'}`,
    eventDate: 'rqd',
    value: (row) => field(row, 'cpct'),
  },
  bsnSp: {
    nameKo: '영업정지',
    category: 'business_suspension',
    fields: [
      ['bsnsp_rm', '영업정지 분야'],
      ['bsnsp_amt', '영업정지금액(원)'],
      ['rsl', '최근매출총액(원)'],
      ['sl_vs', '매출액 대비(%)'],
      ['bsnsp_cn', '영업정지 내용'],
      ['bsnsp_rs', '영업정지 사유'],
      ['ft_ctp', '향후대책'],
      ['bsnsp_af', '영업정지 영향'],
      ['bsnspd', '영업정지일자'],
      ['bddd', '이사회결의일'],
    ],
    title: (row) => `영업정지: ${field(row, 'bsnsp_rm') ?? '분야 미기재'}${paren(field(row, 'sl_vs') && `매출액 대비 ${field(row, 'sl_vs')}%`)}`,
    eventDate: 'bsnspd',
    value: (row) => won(field(row, 'bsnsp_amt')),
  },
  bnkMngtPcbg: {
    nameKo: '채권은행 등의 관리절차 개시',
    category: 'distress_creditor_management',
    fields: [
      ['mngt_pcbg_dd', '관리절차개시 결정일'],
      ['mngt_int', '관리기관'],
      ['mngt_pd', '관리기간'],
      ['mngt_rs', '관리사유'],
      ['cfd', '확인일자'],
    ],
    title: (row) => `채권은행 등의 관리절차 개시: ${join([field(row, 'mngt_int'), field(row, 'mngt_pd')], ', ') || '관리기관 미기재'}`,
    eventDate: 'mngt_pcbg_dd',
    value: (row) => field(row, 'mngt_pd'),
  },
  bnkMngtPcsp: {
    nameKo: '채권은행 등의 관리절차 중단',
    category: 'distress_creditor_management',
    fields: [
      ['mngt_pcsp_dd', '관리절차중단 결정일'],
      ['mngt_int', '관리기관'],
      ['sp_rs', '중단사유'],
      ['ft_ctp', '향후대책'],
      ['cfd', '확인일자'],
    ],
    title: (row) => `채권은행 등의 관리절차 중단: ${field(row, 'sp_rs') ?? '사유 미기재'}`,
    eventDate: 'mngt_pcsp_dd',
    value: (row) => field(row, 'sp_rs'),
  },
};

const shortHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 10);

export type DartMapContext = { companyId: string; retrievedAt?: Date | null };

/** One row → one evidence item; null when the row cannot be cited (no receipt number or date). */
export function mapDartRecord(endpoint: DartEndpoint, row: DartRow, ctx: DartMapContext): PoolEvidence | null {
  const spec = DART_ENDPOINTS[endpoint];
  const rceptNo = field(row, 'rcept_no');
  const publishedDate = receiptDate(row);
  if (!rceptNo || !/^\d{14}$/.test(rceptNo) || !publishedDate) return null;

  const corpName = field(row, 'corp_name') ?? field(row, 'corp_code') ?? '회사명 미기재';
  const key = spec.rowKey?.map((k) => field(row, k) ?? '').join('|');
  const quoted = spec.fields
    .map(([k, label]) => [label, field(row, k)] as const)
    .filter(([, v]) => v !== null)
    // Values often end in a full stop; the text adds its own separators.
    .map(([label, v]) => `${label}: ${v!.replace(/\.+$/, '')}`);
  const remarks =
    endpoint === 'list'
      ? [...(field(row, 'rm') ?? '')]
          .map((c) => LIST_REMARKS[c])
          .filter(Boolean)
          .join(', ')
      : '';
  const kind = endpoint === 'list' ? '공시' : spec.nameKo;
  const text = `${corpName} ${kind} — ${quoted.join('; ')}${remarks ? `; 비고: ${remarks}` : ''}. 접수일 ${publishedDate}, 접수번호 ${rceptNo}.`;

  return {
    id: `dart-${rceptNo}-${endpoint}${key ? `-${shortHash(key)}` : ''}`,
    companyId: ctx.companyId,
    category: typeof spec.category === 'function' ? spec.category(row) : spec.category,
    title: spec.title(row),
    text,
    value: spec.value?.(row) ?? null,
    eventDate: spec.eventDate ? parseDartDate(field(row, spec.eventDate)) : null,
    publishedDate,
    sourceName: `OpenDART — ${spec.nameKo} (${corpName})`,
    sourceUrl: dartFilingUrl(rceptNo),
    language: 'ko',
    upstream: `opendart:${endpoint}`,
    license: DART_LICENSE,
    retrievedAt: ctx.retrievedAt ?? null,
  };
}

/**
 * Maps a response's rows, dropping exact duplicates and giving rows that still collide on id
 * (two lawsuits in one filing) a suffix from their content, so ids stay stable across fetches.
 */
export function mapDartRows(endpoint: DartEndpoint, rows: DartRow[], ctx: DartMapContext): PoolEvidence[] {
  const byId = new Map<string, { evidence: PoolEvidence; raw: string }>();
  for (const row of rows) {
    const evidence = mapDartRecord(endpoint, row, ctx);
    if (!evidence) continue;
    const raw = JSON.stringify(row);
    const existing = byId.get(evidence.id);
    if (existing?.raw === raw) continue;
    if (existing) evidence.id = `${evidence.id}-${shortHash(raw)}`;
    byId.set(evidence.id, { evidence, raw });
  }
  return [...byId.values()].map((v) => v.evidence);
}
