// OpenDART (Korea's electronic disclosure API) client and the evidence fetch built on it.
// OpenDART answers HTTP 200 for nearly everything and puts the outcome in `status`; this module
// turns those codes into DartErrors an RM can act on, treats 013 (no data) as an empty result,
// and retries 020 (rate limit) with backoff. The key travels in the query string, so every
// message goes through redact() before it leaves here.
import { z } from 'zod';
import { env, type Env } from '@/lib/env';
import type { PoolEvidence } from '@/lib/pool/types';
import type { FetchLike } from '@/lib/util/http';
import { redact } from '@/lib/util/redact';
import { mapDartRows, parseDartDate, type DartEndpoint, type DartRow } from './dart-map';
import { fetchJson, HttpError, type RetryNotice, type Sleep } from './http';

export { mapDartRecord, mapDartRows, parseDartDate, DART_ENDPOINTS, type DartEndpoint, type DartRow } from './dart-map';

/** OpenDART status codes, plus our own for failures that never reached a status. */
export type DartErrorStatus = string | 'http' | 'invalid-response' | 'input' | 'config';

const KEY_FIX = 'Check OPENDART_API_KEY.';
const STATUS_MESSAGES: Record<string, (ctx: { endpoint: string; message: string; attempts: number }) => string> = {
  '010': () => `OpenDART rejected the API key (010: unregistered key). ${KEY_FIX}`,
  '011': () => `OpenDART rejected the API key (011: key disabled — it is temporarily suspended or no longer usable). ${KEY_FIX}`,
  '012': () => `OpenDART refused this server's IP address (012: IP not allowed). Register the server's IP for the key on opendart.fss.or.kr.`,
  '014': ({ endpoint }) => `OpenDART has no such file for ${endpoint} (014: file not found).`,
  '020': ({ attempts }) =>
    `OpenDART request limit exceeded (020) after ${attempts} attempt${attempts === 1 ? '' : 's'}. The key allows about 20,000 requests a day; try again later.`,
  '021': () => 'OpenDART allows at most 100 companies per request (021).',
  '100': ({ endpoint, message }) => `OpenDART rejected a request field for ${endpoint} (100: invalid field value${message ? ` — ${message}` : ''}).`,
  '101': ({ endpoint }) => `OpenDART refused the request to ${endpoint} (101: improper access).`,
  '800': () => 'OpenDART is down for system maintenance (800). Try again later.',
  '900': ({ endpoint }) => `OpenDART returned an undefined error for ${endpoint} (900). Try again later; if it persists, report it to OpenDART.`,
  '901': () =>
    `OpenDART rejected the API key (901: key expired — the personal-information retention period has ended). Apply for a new key and update OPENDART_API_KEY.`,
};

/** Statuses that mean the key itself is unusable: every further call would fail the same way. */
export const DART_KEY_STATUSES: ReadonlySet<string> = new Set(['010', '011', '012', '901']);
/** Statuses that stop a multi-endpoint fetch but keep what was already read. */
const DART_STOP_STATUSES: ReadonlySet<string> = new Set(['020', '800']);

export class DartError extends Error {
  constructor(
    readonly status: DartErrorStatus,
    readonly endpoint: string | null,
    message: string,
  ) {
    super(message);
    this.name = 'DartError';
  }
  get isKeyProblem() {
    return DART_KEY_STATUSES.has(this.status);
  }
}

const envelopeSchema = z.object({ status: z.string(), message: z.string().optional() });
const rowsSchema = z.object({ list: z.array(z.record(z.string(), z.unknown())).default([]) });
const listPageSchema = rowsSchema.extend({
  page_no: z.coerce.number().default(1),
  total_page: z.coerce.number().default(1),
  total_count: z.coerce.number().default(0),
});

export type DartCompany = Record<string, unknown> & { corp_code: string; corp_name: string };
export type DartListPage = { rows: DartRow[]; pageNo: number; totalPage: number; totalCount: number };
/** Dates as `YYYY-MM-DD` (or `YYYYMMDD`). */
export type DartRange = { corpCode: string; from: string; to: string };
/** Periodic-report endpoints: a business year and a report code (11011 annual, 11012 half-year, 11013 Q1, 11014 Q3). */
export type DartReportQuery = { corpCode: string; bsnsYear: number; reprtCode?: '11011' | '11012' | '11013' | '11014' };

export type DartClientOptions = {
  apiKey: string | undefined;
  baseUrl?: string;
  fetchImpl?: FetchLike;
  sleep?: Sleep;
  timeoutMs?: number;
  retries?: number;
  baseDelayMs?: number;
  onRetry?: (notice: RetryNotice) => void;
};

export type DartClient = ReturnType<typeof createDartClient>;

export function createDartClient(options: DartClientOptions) {
  const apiKey = options.apiKey?.trim();
  if (!apiKey) throw new DartError('config', null, 'OpenDART is not configured: set OPENDART_API_KEY (a 40-character key from opendart.fss.or.kr).');
  const baseUrl = (options.baseUrl ?? 'https://opendart.fss.or.kr/api').replace(/\/+$/, '');
  const retries = options.retries ?? 3;

  /** The response body for status 000, or null for 013 (no data); every other status throws. */
  async function call(endpoint: string, params: Record<string, string>): Promise<Record<string, unknown> | null> {
    const url = new URL(`${baseUrl}/${endpoint}.json`);
    url.searchParams.set('crtfc_key', apiKey!);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    let body: unknown;
    try {
      body = await fetchJson(url.toString(), {
        secrets: [apiKey!],
        retries,
        timeoutMs: options.timeoutMs,
        baseDelayMs: options.baseDelayMs ?? 1_000,
        fetchImpl: options.fetchImpl,
        sleep: options.sleep,
        onRetry: options.onRetry,
        retryOnBody: (b) => (envelopeSchema.safeParse(b).data?.status === '020' ? 'OpenDART 020 (request limit exceeded)' : null),
      });
    } catch (err) {
      if (err instanceof HttpError) throw new DartError('http', endpoint, `OpenDART ${endpoint}.json could not be read: ${err.message}`);
      throw err; // the caller's abort, or a bug: not ours to reword
    }
    const envelope = envelopeSchema.safeParse(body);
    if (!envelope.success) throw new DartError('invalid-response', endpoint, `OpenDART ${endpoint}.json returned an unexpected response (no status field).`);
    const { status, message = '' } = envelope.data;
    if (status === '000') return body as Record<string, unknown>;
    if (status === '013') return null;
    const explain = STATUS_MESSAGES[status];
    const ctx = { endpoint: `${endpoint}.json`, message: redact(message, [apiKey]), attempts: status === '020' ? retries + 1 : 1 };
    throw new DartError(status, endpoint, explain ? explain(ctx) : `OpenDART returned status ${status} for ${endpoint}.json: ${ctx.message}`);
  }

  async function rows(endpoint: DartEndpoint, params: Record<string, string>): Promise<DartRow[]> {
    const body = await call(endpoint, params);
    return body ? rowsSchema.parse(body).list : [];
  }

  const range = ({ corpCode, from, to }: DartRange) => ({ corp_code: corpCodeParam(corpCode), bgn_de: dateParam(from, 'from'), end_de: dateParam(to, 'to') });
  const report = ({ corpCode, bsnsYear, reprtCode = '11011' }: DartReportQuery) => ({
    corp_code: corpCodeParam(corpCode),
    bsns_year: String(bsnsYear),
    reprt_code: reprtCode,
  });

  return {
    /** 기업개황 (company.json); null when OpenDART knows no such company. */
    async getCompany(corpCode: string): Promise<DartCompany | null> {
      return (await call('company', { corp_code: corpCodeParam(corpCode) })) as DartCompany | null;
    },
    /** 공시검색 (list.json): one page of a company's filings received in the range, newest first. */
    async listDisclosures(query: DartRange & { pageNo?: number; pageCount?: number }): Promise<DartListPage> {
      const body = await call('list', { ...range(query), page_no: String(query.pageNo ?? 1), page_count: String(query.pageCount ?? 100) });
      if (!body) return { rows: [], pageNo: query.pageNo ?? 1, totalPage: 0, totalCount: 0 };
      const page = listPageSchema.parse(body);
      return { rows: page.list, pageNo: page.page_no, totalPage: page.total_page, totalCount: page.total_count };
    },
    /** 직원 현황 (empSttus.json). */
    getEmployees: async (query: DartReportQuery) => rows('empSttus', report(query)),
    /** 임원 현황 (exctvSttus.json). */
    getExecutives: async (query: DartReportQuery) => rows('exctvSttus', report(query)),
    /** 최대주주 변동현황 (hyslrChgSttus.json). */
    getLargestShareholderChanges: async (query: DartReportQuery) => rows('hyslrChgSttus', report(query)),
    /** 소송 등의 제기 (lwstLg.json). */
    getLawsuits: async (query: DartRange) => rows('lwstLg', range(query)),
    /** 부도발생 (dfOcr.json). */
    getDefaults: async (query: DartRange) => rows('dfOcr', range(query)),
    /** 회생절차 개시신청 (ctrcvsBgrq.json). */
    getRehabilitationFilings: async (query: DartRange) => rows('ctrcvsBgrq', range(query)),
    /** 영업정지 (bsnSp.json). */
    getBusinessSuspensions: async (query: DartRange) => rows('bsnSp', range(query)),
    /** 채권은행 등의 관리절차 개시 (bnkMngtPcbg.json). */
    getCreditorManagementStarts: async (query: DartRange) => rows('bnkMngtPcbg', range(query)),
    /** 채권은행 등의 관리절차 중단 (bnkMngtPcsp.json). */
    getCreditorManagementEnds: async (query: DartRange) => rows('bnkMngtPcsp', range(query)),
  };
}

/** A client from the validated env; throws DartError status 'config' naming OPENDART_API_KEY when it is unset. */
export function dartClientFromEnv(e: Env = env(), overrides: Omit<DartClientOptions, 'apiKey' | 'baseUrl'> = {}): DartClient {
  return createDartClient({ apiKey: e.OPENDART_API_KEY, baseUrl: e.OPENDART_BASE_URL, ...overrides });
}

function corpCodeParam(corpCode: string) {
  if (!/^\d{8}$/.test(corpCode)) throw new DartError('input', null, `OpenDART corp_code must be 8 digits (got "${corpCode}").`);
  return corpCode;
}

function dateParam(value: string, name: string) {
  const iso = parseDartDate(value);
  if (!iso) throw new DartError('input', null, `The ${name} date must be YYYY-MM-DD (got "${value}").`);
  return iso.replaceAll('-', '');
}

export type FetchDartEvidenceOptions = DartRange & {
  /** The pool company the evidence belongs to. */
  companyId: string;
  /** Periodic-report endpoints are read for at most this many business years, newest first. */
  maxReportYears?: number;
  /** list.json pages of 100 filings to read at most. */
  maxListPages?: number;
  /** Periodic reports list every unregistered executive (hundreds at large firms); off by default. */
  includeUnregisteredExecutives?: boolean;
  now?: () => Date;
};

type Step = { endpoint: DartEndpoint; label: string; run: () => Promise<DartRow[]> };

/**
 * Reads the distress, legal, governance and employment endpoints and the filing list for one
 * company and returns them as evidence received in [from, to]. A bad key throws (nothing else
 * can succeed); a rate limit or maintenance stops the run with what was read so far; any other
 * failure becomes a warning for that endpoint.
 */
export async function fetchDartEvidence(client: DartClient, options: FetchDartEvidenceOptions): Promise<{ evidence: PoolEvidence[]; warnings: string[] }> {
  const { companyId, corpCode, maxReportYears = 3, maxListPages = 5 } = options;
  const from = parseDartDate(options.from);
  const to = parseDartDate(options.to);
  if (!from || !to) throw new DartError('input', null, `The date range must be YYYY-MM-DD (got "${options.from}" – "${options.to}").`);
  const query = { corpCode, from, to };
  const warnings: string[] = [];

  // An annual report for business year Y is filed in Y+1, so the range's years shift back by one.
  // OpenDART serves periodic-report data from business year 2015.
  const lastYear = Number(to.slice(0, 4)) - 1;
  const firstYear = Math.max(2015, Number(from.slice(0, 4)) - 1, lastYear - maxReportYears + 1);
  const years = Array.from({ length: Math.max(0, lastYear - firstYear + 1) }, (_, i) => lastYear - i);

  const steps: Step[] = [
    // Distress and legal events first: if the run is cut short, these matter most.
    { endpoint: 'dfOcr', label: '부도발생', run: () => client.getDefaults(query) },
    { endpoint: 'ctrcvsBgrq', label: '회생절차 개시신청', run: () => client.getRehabilitationFilings(query) },
    { endpoint: 'bnkMngtPcbg', label: '채권은행 관리절차 개시', run: () => client.getCreditorManagementStarts(query) },
    { endpoint: 'bnkMngtPcsp', label: '채권은행 관리절차 중단', run: () => client.getCreditorManagementEnds(query) },
    { endpoint: 'bsnSp', label: '영업정지', run: () => client.getBusinessSuspensions(query) },
    { endpoint: 'lwstLg', label: '소송 등의 제기', run: () => client.getLawsuits(query) },
    ...years.flatMap((bsnsYear): Step[] => [
      { endpoint: 'hyslrChgSttus', label: `최대주주 변동현황 ${bsnsYear}`, run: () => client.getLargestShareholderChanges({ corpCode, bsnsYear }) },
      { endpoint: 'exctvSttus', label: `임원 현황 ${bsnsYear}`, run: () => client.getExecutives({ corpCode, bsnsYear }) },
      { endpoint: 'empSttus', label: `직원 현황 ${bsnsYear}`, run: () => client.getEmployees({ corpCode, bsnsYear }) },
    ]),
    { endpoint: 'list', label: '공시목록', run: () => listAll(client, query, maxListPages, warnings) },
  ];

  const ctx = { companyId, retrievedAt: (options.now ?? (() => new Date()))() };
  const byId = new Map<string, PoolEvidence>();
  for (const [i, step] of steps.entries()) {
    let rows: DartRow[];
    try {
      rows = await step.run();
    } catch (err) {
      if (!(err instanceof DartError) || err.isKeyProblem || err.status === 'input') throw err;
      warnings.push(`${step.label} (${step.endpoint}.json): ${err.message}`);
      if (DART_STOP_STATUSES.has(err.status)) {
        const skipped = steps.slice(i + 1).map((s) => s.label);
        if (skipped.length) warnings.push(`Stopped early; not read: ${skipped.join(', ')}.`);
        break;
      }
      continue;
    }
    const kept =
      step.endpoint === 'exctvSttus' && !options.includeUnregisteredExecutives ? rows.filter((r) => !String(r.rgist_exctv_at ?? '').includes('미등기')) : rows;
    for (const item of mapDartRows(step.endpoint, kept, ctx)) byId.set(item.id, item);
  }

  // A filing read in detail (a lawsuit, the annual report behind the executive list) should not
  // appear a second time as a bare list entry.
  const detailed = new Set([...byId.values()].filter((e) => e.upstream !== 'opendart:list').map((e) => e.sourceUrl));
  const evidence = [...byId.values()]
    .filter((e) => !(e.upstream === 'opendart:list' && detailed.has(e.sourceUrl)))
    .filter((e) => e.publishedDate >= from && e.publishedDate <= to)
    .sort((a, b) => b.publishedDate.localeCompare(a.publishedDate) || a.id.localeCompare(b.id));
  return { evidence, warnings };
}

async function listAll(client: DartClient, query: DartRange, maxPages: number, warnings: string[]): Promise<DartRow[]> {
  const all: DartRow[] = [];
  for (let pageNo = 1; pageNo <= maxPages; pageNo++) {
    const page = await client.listDisclosures({ ...query, pageNo });
    all.push(...page.rows);
    if (pageNo >= page.totalPage) return all;
  }
  warnings.push(`공시목록 (list.json): read the newest ${maxPages} pages only; older filings in the range were not read.`);
  return all;
}
