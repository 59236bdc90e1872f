import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EVIDENCE_CATEGORIES } from '@/lib/domain/factors';
import type { PoolEvidence } from '@/lib/pool/types';
import { createDartClient, DartError, fetchDartEvidence, type DartClientOptions } from './dart';
import { categoryForReportName, mapDartRows, parseDartDate, type DartEndpoint } from './dart-map';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import type { RetryNotice } from './http';

const KEY = '0123456789abcdef0123456789abcdef01234567';
const FIXTURES = path.resolve(__dirname, '../../../data/fixtures/opendart');
const rowsOf = (file: string) => JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8')).list;
const ctx = { companyId: 'test-co', retrievedAt: new Date('2026-01-01T00:00:00Z') };

let server: FixtureServer;
let sleeps: number[];
let notices: RetryNotice[];
beforeAll(async () => {
  server = await startFixtureServer({ dartKey: KEY });
});
afterAll(() => server.close());
afterEach(() => {
  server.reset();
  vi.restoreAllMocks();
});

function client(overrides: Partial<DartClientOptions> = {}) {
  sleeps = [];
  notices = [];
  return createDartClient({
    apiKey: KEY,
    baseUrl: server.dartBaseUrl,
    sleep: async (ms) => void sleeps.push(ms),
    onRetry: (n) => notices.push(n),
    ...overrides,
  });
}

function expectWellFormed(e: PoolEvidence) {
  expect(EVIDENCE_CATEGORIES).toContain(e.category);
  expect(e.publishedDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  if (e.eventDate !== null) expect(e.eventDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(e.sourceUrl).toMatch(/^https:\/\/dart\.fss\.or\.kr\/dsaf001\/main\.do\?rcpNo=\d{14}$/);
  expect(e.sourceUrl.slice(-14, -6)).toBe(e.publishedDate.replaceAll('-', ''));
  expect(e.language).toBe('ko');
  expect(e.license).toBe('DART 공시정보 (public disclosure)');
  expect(e.title.length).toBeGreaterThan(5);
  expect(e.text).toContain(e.sourceUrl.slice(-14));
}

describe('DART mappers on the recorded responses', () => {
  // endpoint, file, id, category, published, event, a phrase the title must carry
  const cases: [DartEndpoint, string, string, string, string, string | null, string][] = [
    ['lwstLg', 'material/testdata/lwstLg.json', 'dart-20240513000890-lwstLg', 'legal_proceedings', '2024-05-13', '2024-05-10', '신주발행금지'],
    ['dfOcr', 'material/testdata/dfOcr.json', 'dart-20231012000317-dfOcr', 'distress_default', '2023-10-12', null, '만기어음 부도'],
    [
      'ctrcvsBgrq',
      'material/testdata/ctrcvsBgrq.json',
      'dart-20230926000754-ctrcvsBgrq',
      'distress_rehabilitation',
      '2023-09-26',
      '2023-09-25',
      '서울회생법원',
    ],
    ['bsnSp', 'material/testdata/bsnSp.json', 'dart-20230616000582-bsnSp', 'business_suspension', '2023-06-16', '2023-08-31', '방적 사업'],
    [
      'bnkMngtPcbg',
      'material/testdata/bnkMngtPcbg.json',
      'dart-20250217001661-bnkMngtPcbg',
      'distress_creditor_management',
      '2025-02-17',
      '2024-01-11',
      '한국산업은행',
    ],
    // Synthetic upstream (see the fixture README): used for shape only.
    [
      'bnkMngtPcsp',
      'material/testdata/bnkMngtPcsp.json',
      'dart-20200410000123-bnkMngtPcsp',
      'distress_creditor_management',
      '2020-04-10',
      '2020-04-10',
      '경영정상화 완료',
    ],
    ['list', 'disclosure/testdata/list_samsung.json', 'dart-20240131000326-list', 'disclosure_other', '2024-01-31', null, '특수관계인과의내부거래'],
  ];

  it.each(cases)('%s → %s', (endpoint, file, id, category, published, event, phrase) => {
    const [first] = mapDartRows(endpoint, rowsOf(file), ctx);
    expectWellFormed(first);
    expect(first).toMatchObject({ id, category, publishedDate: published, eventDate: event, upstream: `opendart:${endpoint}`, companyId: 'test-co' });
    expect(first.sourceUrl).toBe(`https://dart.fss.or.kr/dsaf001/main.do?rcpNo=${id.split('-')[1]}`);
    expect(first.title).toContain(phrase);
    expect(first.retrievedAt).toEqual(ctx.retrievedAt);
  });

  it('writes Korean title, text, value and source name from the fields', () => {
    const [lawsuit] = mapDartRows('lwstLg', rowsOf('material/testdata/lwstLg.json'), ctx);
    expect(lawsuit.sourceName).toBe('OpenDART — 소송 등의 제기 (올리패스)');
    expect(lawsuit.title).toBe('소송 등의 제기: 신주발행금지 등 임시의 지위를 구하는 가처분 (수원지방법원)');
    expect(lawsuit.text).toContain('원고ㆍ신청인: 윤용빈');
    const [dflt] = mapDartRows('dfOcr', rowsOf('material/testdata/dfOcr.json'), ctx);
    expect(dflt.value).toBe('48,322,175원');
    expect(dflt.text).not.toContain('최종부도'); // "-" means absent and is not quoted
    const [emp] = mapDartRows('empSttus', rowsOf('report/testdata/empSttus.json'), ctx);
    expect(emp).toMatchObject({ category: 'employment', value: '38,286명', eventDate: '2023-12-31', publishedDate: '2024-03-12' });
    expect(emp.title).toBe('직원 현황 (2023-12-31): DX 남 38,286명');
    const [exec] = mapDartRows('exctvSttus', rowsOf('report/testdata/exctvSttus.json'), ctx);
    expect(exec).toMatchObject({ category: 'management_change', value: '부회장' });
    expect(exec.title).toContain('한종희 부회장');
    const [holder] = mapDartRows('hyslrChgSttus', rowsOf('report/testdata/hyslrChgSttus.json'), ctx);
    expect(holder).toMatchObject({ category: 'governance_ownership', eventDate: '2021-04-29', value: '21.16%' });
  });

  it('gives rows of one filing distinct, stable ids', () => {
    const [row] = rowsOf('report/testdata/exctvSttus.json');
    const rows = [row, { ...row, nm: '노태문', ofcps: '사장' }, row];
    const mapped = mapDartRows('exctvSttus', rows, ctx);
    expect(mapped).toHaveLength(2); // the exact duplicate is dropped
    expect(new Set(mapped.map((e) => e.id)).size).toBe(2);
    expect(mapped[0].id).toMatch(/^dart-20240312000736-exctvSttus-[0-9a-f]{10}$/);
    expect(mapDartRows('exctvSttus', rows, ctx).map((e) => e.id)).toEqual(mapped.map((e) => e.id));
    const twoLawsuits = mapDartRows(
      'lwstLg',
      [rowsOf('material/testdata/lwstLg.json')[0], { ...rowsOf('material/testdata/lwstLg.json')[0], icnm: '손해배상' }],
      ctx,
    );
    expect(twoLawsuits.map((e) => e.id)).toEqual(['dart-20240513000890-lwstLg', expect.stringMatching(/^dart-20240513000890-lwstLg-[0-9a-f]{10}$/)]);
  });

  it('skips rows it cannot cite', () => {
    expect(mapDartRows('lwstLg', [{ corp_name: 'x' }, { rcept_no: '-' }], ctx)).toEqual([]);
  });

  it('parses every date format OpenDART uses', () => {
    expect(parseDartDate('2024년 05월 10일')).toBe('2024-05-10');
    expect(parseDartDate('20240131')).toBe('2024-01-31');
    expect(parseDartDate('2023-12-31')).toBe('2023-12-31');
    expect(parseDartDate('2023.09.25')).toBe('2023-09-25');
    expect(parseDartDate('1962년 03월')).toBeNull();
    expect(parseDartDate('2023-02-30')).toBeNull();
    expect(parseDartDate('-')).toBeNull();
  });

  it('categorises filing-list entries by report name', () => {
    expect(categoryForReportName('[기재정정]소송등의제기ㆍ신청(일정금액이상의청구)')).toBe('legal_proceedings');
    expect(categoryForReportName('주요사항보고서(회생절차개시신청)')).toBe('distress_rehabilitation');
    expect(categoryForReportName('주권매매거래정지')).toBe('trading_halt');
    expect(categoryForReportName('최대주주변경')).toBe('governance_ownership');
    expect(categoryForReportName('대표이사변경')).toBe('management_change');
    expect(categoryForReportName('단일판매ㆍ공급계약체결')).toBe('supply_contract');
    expect(categoryForReportName('사업보고서 (2023.12)')).toBe('disclosure_other');
  });
});

describe('DART client over HTTP', () => {
  it('sends the key and the parameters OpenDART expects', async () => {
    const dart = client();
    const company = await dart.getCompany('00126380');
    expect(company).toMatchObject({ corp_name: '삼성전자(주)', stock_code: '005930' });
    await dart.getLawsuits({ corpCode: '01070149', from: '2024-01-01', to: '2024-12-31' });
    await dart.getExecutives({ corpCode: '00126380', bsnsYear: 2023 });
    const [c, l, x] = server.requests;
    expect(c.path).toBe('/api/company.json');
    expect(Object.fromEntries(l.query)).toEqual({ crtfc_key: KEY, corp_code: '01070149', bgn_de: '20240101', end_de: '20241231' });
    expect(Object.fromEntries(x.query)).toMatchObject({ bsns_year: '2023', reprt_code: '11011' });
  });

  it('reads a page of the filing list', async () => {
    const page = await client().listDisclosures({ corpCode: '00126380', from: '2024-01-01', to: '2024-01-31' });
    expect(page).toMatchObject({ pageNo: 1, totalPage: 8, totalCount: 15 });
    expect(page.rows.map((r) => r.rcept_no)).toEqual(['20240131000326', '20240131800110']);
    expect(server.requests[0].query.get('page_count')).toBe('100');
  });

  it('treats 013 as no data', async () => {
    server.fail('lwstLg.json', { dartStatus: '013', message: '조회된 데이타가 없습니다.' });
    server.fail('company.json', { dartStatus: '013' });
    const dart = client();
    await expect(dart.getLawsuits({ corpCode: '01070149', from: '2024-01-01', to: '2024-12-31' })).resolves.toEqual([]);
    await expect(dart.getCompany('00126380')).resolves.toBeNull();
  });

  it.each([
    ['010', /^OpenDART rejected the API key \(010: unregistered key\)\. Check OPENDART_API_KEY\.$/],
    ['011', /^OpenDART rejected the API key \(011: key disabled.*Check OPENDART_API_KEY\.$/],
    ['012', /IP address \(012/],
    ['100', /^OpenDART rejected a request field for dfOcr\.json \(100: invalid field value — 필드 오류\)\.$/],
    ['800', /^OpenDART is down for system maintenance \(800\)\. Try again later\.$/],
    ['900', /^OpenDART returned an undefined error for dfOcr\.json \(900\)/],
    ['901', /key expired/],
    ['999', /^OpenDART returned status 999 for dfOcr\.json: 필드 오류$/],
  ])('status %s becomes a DartError with a clear message', async (code, message) => {
    server.fail('dfOcr.json', { dartStatus: code, message: '필드 오류' });
    const error = await client()
      .getDefaults({ corpCode: '00126089', from: '2023-01-01', to: '2023-12-31' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(DartError);
    expect(error).toMatchObject({ status: code, endpoint: 'dfOcr' });
    expect(error.message).toMatch(message);
    expect(server.requests).toHaveLength(1); // none of these is retried
  });

  it('answers a wrong key with 010 from the server, without echoing the key', async () => {
    const wrong = 'ffffffffffffffffffffffffffffffffffffffff';
    const error = await client({ apiKey: wrong })
      .getCompany('00126380')
      .catch((e) => e);
    expect(error).toMatchObject({ status: '010', isKeyProblem: true });
    expect(error.message).not.toContain(wrong);
  });

  it('retries 020 with backoff and succeeds', async () => {
    server.fail('bsnSp.json', { dartStatus: '020', message: '요청 제한을 초과하였습니다.' }, 2);
    const rows = await client().getBusinessSuspensions({ corpCode: '00153393', from: '2023-01-01', to: '2023-12-31' });
    expect(rows).toHaveLength(1);
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[1]).toBeGreaterThan(sleeps[0] - 1); // 1st wait in [500,1000], 2nd in [1000,2000]
    expect(sleeps[0]).toBeGreaterThanOrEqual(500);
    expect(sleeps[1]).toBeGreaterThanOrEqual(1000);
  });

  it('gives a clear 020 error when the limit persists', async () => {
    server.fail('bsnSp.json', { dartStatus: '020' }, 10);
    const error = await client({ retries: 3 })
      .getBusinessSuspensions({ corpCode: '00153393', from: '2023-01-01', to: '2023-12-31' })
      .catch((e) => e);
    expect(error).toMatchObject({ status: '020' });
    expect(error.message).toBe('OpenDART request limit exceeded (020) after 4 attempts. The key allows about 20,000 requests a day; try again later.');
    expect(server.requests).toHaveLength(4);
  });

  it('honours Retry-After on HTTP 429', async () => {
    server.fail('dfOcr.json', { httpStatus: 429, retryAfter: '4' });
    const rows = await client().getDefaults({ corpCode: '00126089', from: '2023-01-01', to: '2023-12-31' });
    expect(rows[0].rcept_no).toBe('20231012000317');
    expect(sleeps).toEqual([4000]);
    expect(server.requests).toHaveLength(2);
  });

  it('reports HTTP 500 after the retries without the key', async () => {
    server.fail('company.json', { httpStatus: 500 }, 10);
    const error = await client({ retries: 2 })
      .getCompany('00126380')
      .catch((e) => e);
    expect(error).toMatchObject({ status: 'http', endpoint: 'company' });
    expect(error.message).toMatch(/^OpenDART company\.json could not be read: GET .*crtfc_key=\[redacted\].* failed after 3 attempts: HTTP 500$/);
    expect(server.requests).toHaveLength(3);
  });

  it('refuses to start without a key and validates inputs', async () => {
    expect(() => createDartClient({ apiKey: '  ' })).toThrow(/set OPENDART_API_KEY/);
    await expect(client().getCompany('126380')).rejects.toThrow(/corp_code must be 8 digits/);
    await expect(client().getDefaults({ corpCode: '00126089', from: '2023/13/01', to: '2023-12-31' })).rejects.toThrow(/from date must be YYYY-MM-DD/);
  });
});

describe('fetchDartEvidence', () => {
  const range = { companyId: 'test-co', corpCode: '00126380', from: '2015-01-01', to: '2025-12-31' };

  it('maps every endpoint into well-formed, unique evidence', async () => {
    const { evidence, warnings } = await fetchDartEvidence(client(), range);
    for (const e of evidence) expectWellFormed(e);
    expect(new Set(evidence.map((e) => e.id)).size).toBe(evidence.length);
    expect(new Set(evidence.map((e) => e.upstream))).toEqual(
      new Set(
        ['dfOcr', 'ctrcvsBgrq', 'bnkMngtPcbg', 'bnkMngtPcsp', 'bsnSp', 'lwstLg', 'hyslrChgSttus', 'exctvSttus', 'empSttus', 'list'].map((x) => `opendart:${x}`),
      ),
    );
    expect(evidence.map((e) => e.publishedDate)).toEqual([...evidence.map((e) => e.publishedDate)].sort().reverse());
    // Annual reports for the last three business years before the range ends.
    const years = server.requests.filter((r) => r.path === '/api/empSttus.json').map((r) => r.query.get('bsns_year'));
    expect(years).toEqual(['2024', '2023', '2022']);
    // The trimmed list fixture claims 8 pages: five are read and the shortfall is reported.
    expect(server.requests.filter((r) => r.path === '/api/list.json')).toHaveLength(5);
    expect(warnings).toEqual([expect.stringMatching(/read the newest 5 pages only/)]);
  });

  it('keeps registered executives only unless asked', async () => {
    const [row] = rowsOf('report/testdata/exctvSttus.json');
    server.serve('/api/exctvSttus.json', { json: { status: '000', message: '정상', list: [row, { ...row, nm: '홍길동', rgist_exctv_at: '미등기' }] } });
    const names = async (include: boolean) =>
      (await fetchDartEvidence(client(), { ...range, includeUnregisteredExecutives: include })).evidence
        .filter((e) => e.upstream === 'opendart:exctvSttus')
        .map((e) => e.title);
    expect(await names(false)).toEqual([expect.stringContaining('한종희')]);
    expect(await names(true)).toHaveLength(2);
  });

  it('keeps only filings received in the range', async () => {
    const { evidence } = await fetchDartEvidence(client(), { ...range, from: '2024-01-01', to: '2024-12-31' });
    expect(evidence.map((e) => e.id).sort()).toEqual(
      [
        'dart-20240131000326-list',
        'dart-20240131800110-list',
        'dart-20240513000890-lwstLg',
        ...evidence.filter((e) => e.id.startsWith('dart-20240312000736-')).map((e) => e.id),
      ].sort(),
    );
    expect(evidence.filter((e) => e.id.startsWith('dart-20240312000736-'))).toHaveLength(3);
  });

  it('turns a failing endpoint into a warning and goes on', async () => {
    server.fail('lwstLg.json', { dartStatus: '100', message: '부적절한 값' });
    server.fail('dfOcr.json', { dartStatus: '013' });
    const { evidence, warnings } = await fetchDartEvidence(client(), range);
    expect(warnings[0]).toBe('소송 등의 제기 (lwstLg.json): OpenDART rejected a request field for lwstLg.json (100: invalid field value — 부적절한 값).');
    expect(warnings).toHaveLength(2); // + the list-pages note; 013 adds nothing
    expect(evidence.some((e) => e.upstream === 'opendart:lwstLg' || e.upstream === 'opendart:dfOcr')).toBe(false);
    expect(evidence.some((e) => e.upstream === 'opendart:bsnSp')).toBe(true);
  });

  it('stops on a persistent rate limit but keeps what it read', async () => {
    server.fail('hyslrChgSttus.json', { dartStatus: '020' }, 10);
    const { evidence, warnings } = await fetchDartEvidence(client({ retries: 1 }), range);
    expect(evidence.map((e) => e.upstream)).toContain('opendart:bnkMngtPcbg');
    expect(evidence.some((e) => e.upstream === 'opendart:list')).toBe(false);
    expect(warnings[0]).toMatch(/^최대주주 변동현황 2024 \(hyslrChgSttus\.json\): OpenDART request limit exceeded \(020\) after 2 attempts/);
    expect(warnings[1]).toMatch(/^Stopped early; not read: 임원 현황 2024, .*공시목록\.$/);
    expect(server.requests.filter((r) => r.path === '/api/hyslrChgSttus.json')).toHaveLength(2);
  });

  it('throws when the key is bad, and never leaks the key to errors or the console', async () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) => vi.spyOn(console, m));
    const texts: string[] = [];
    const wrong = 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
    const badKey = await fetchDartEvidence(client({ apiKey: wrong }), range).catch((e) => e);
    expect(badKey).toMatchObject({ status: '010' });
    texts.push(badKey.message, String(badKey.stack));

    server.fail('company.json', { httpStatus: 500, body: `upstream failed for crtfc_key=${KEY}` }, 10);
    server.fail('dfOcr.json', { httpStatus: 503 }, 10);
    server.fail('bsnSp.json', { dartStatus: '020' }, 2);
    const dart = client({ retries: 1 });
    texts.push((await dart.getCompany('00126380').catch((e) => e)).message);
    const run = await fetchDartEvidence(dart, range);
    texts.push(...run.warnings, JSON.stringify(notices), ...spies.flatMap((s) => s.mock.calls.flat().map(String)));
    expect(notices.length).toBeGreaterThan(0);
    for (const text of texts) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(wrong);
    }
  });
});
