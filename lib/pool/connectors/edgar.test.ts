import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVIDENCE_CATEGORIES } from '@/lib/domain/factors';
import { tagByCategory } from '@/lib/pool/factors';
import {
  categoryFor8kItems,
  createEdgarClient,
  EdgarError,
  edgarFilingUrl,
  fetchEdgarEvidence,
  mapEdgarFilings,
  normalizeCik,
  type EdgarClientOptions,
} from './edgar';
import { startFixtureServer, type FixtureServer } from './fixture-server';

const UA = 'Crosscheck tests ops@bank.example';
const FIXTURES = path.resolve(__dirname, '../../../data/fixtures/edgar');
const recorded2022 = JSON.parse(readFileSync(path.join(FIXTURES, 'CIK0001318605.json'), 'utf8'));
const recorded2026 = JSON.parse(readFileSync(path.join(FIXTURES, 'CIK0001318605.recorded-2026-02-03.json'), 'utf8'));
const mapOptions = { companyId: 'tesla', cik: '1318605', companyName: 'Tesla, Inc.' };

let server: FixtureServer;
let sleeps: number[];
beforeAll(async () => {
  server = await startFixtureServer({ dartKey: 'unused-in-these-tests' });
});
afterAll(() => server.close());
afterEach(() => server.reset());

function client(overrides: Partial<EdgarClientOptions> = {}) {
  sleeps = [];
  return createEdgarClient({ userAgent: UA, baseUrl: server.origin, sleep: async (ms) => void sleeps.push(ms), ...overrides });
}

describe('EDGAR mapping of the recorded submissions', () => {
  const evidence = mapEdgarFilings(recorded2022.filings.recent, mapOptions);

  it('keeps 8-K, 10-K and 10-Q (with amendments) and nothing else', () => {
    // 163 8-K + 1 8-K/A + 9 10-K + 3 10-K/A + 27 10-Q in the 2022 recording.
    expect(evidence).toHaveLength(203);
    expect(new Set(evidence.map((e) => e.sourceName.match(/Form (\S+)/)![1]))).toEqual(new Set(['8-K', '8-K/A', '10-K', '10-K/A', '10-Q']));
    expect(new Set(evidence.map((e) => e.id)).size).toBe(203);
    for (const e of evidence) {
      expect(EVIDENCE_CATEGORIES).toContain(e.category);
      expect(e.publishedDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(e.id).toMatch(/^edgar-\d{10}-\d{2}-\d{6}$/);
      expect(e.sourceUrl).toContain(`https://www.sec.gov/Archives/edgar/data/1318605/${e.id.slice(6).replaceAll('-', '')}/`);
      expect(e.language).toBe('en');
    }
  });

  it('maps an 8-K with Item 5.02 to a management change linking the filing', () => {
    const item = evidence.find((e) => e.id === 'edgar-0001564590-22-032575')!;
    expect(item).toMatchObject({
      category: 'management_change',
      title: '8-K: Item 5.02 — Director/officer changes or compensatory arrangements (2022-09-25)',
      publishedDate: '2022-09-28',
      eventDate: '2022-09-25',
      value: '5.02, 9.01',
      sourceUrl: 'https://www.sec.gov/Archives/edgar/data/1318605/000156459022032575/tsla-8k_20220925.htm',
      sourceName: 'SEC EDGAR — Form 8-K (Tesla, Inc.)',
      upstream: 'edgar:submissions',
    });
    expect(item.text).toContain('Tesla, Inc. filed Form 8-K with the SEC on 2022-09-28 (event date 2022-09-25).');
    expect(item.text).toContain('5.02 Departure of Directors or Certain Officers; Election of Directors');
    expect(item.text).toContain('9.01 Financial Statements and Exhibits');
    // The title must not read as a departure: the code covers appointments too.
    expect(tagByCategory(item)).toEqual({ factor: 'management_continuity', polarity: 'context' });
    expect(evidence.filter((e) => e.category === 'management_change')).toHaveLength(22);
  });

  it('maps material agreements, periodic reports and routine 8-Ks', () => {
    expect(evidence.find((e) => e.id === 'edgar-0001564590-21-046390')).toMatchObject({
      category: 'supply_contract',
      title: '8-K: Item 1.01 — Entry into a Material Definitive Agreement (2021-08-27)',
    });
    expect(evidence.find((e) => e.id === 'edgar-0000950170-22-019867')).toMatchObject({
      category: 'disclosure_other',
      title: '10-Q: Quarterly report for the period ended 2022-09-30 (2022-10-24)',
      eventDate: '2022-09-30',
      value: null,
      sourceUrl: 'https://www.sec.gov/Archives/edgar/data/1318605/000095017022019867/tsla-20220930.htm',
    });
    const earnings = evidence.find((e) => e.value === '2.02, 9.01')!;
    expect(earnings.category).toBe('disclosure_other');
    expect(earnings.title).toMatch(/^8-K: Item 2\.02 — Results of Operations and Financial Condition \(\d{4}-\d{2}-\d{2}\)$/);
  });

  it('picks the gravest item of a multi-item 8-K', () => {
    expect(categoryFor8kItems(['2.02', '1.03', '9.01'])).toEqual({ category: 'distress_rehabilitation', primary: '1.03' });
    expect(categoryFor8kItems(['2.04'])).toMatchObject({ category: 'distress_default' });
    expect(categoryFor8kItems(['2.06', '5.02'])).toMatchObject({ category: 'risk_factor' });
    expect(categoryFor8kItems(['9.01', '7.01'])).toEqual({ category: 'disclosure_other', primary: '7.01' });
    expect(categoryFor8kItems([])).toEqual({ category: 'disclosure_other', primary: null });
  });

  it('filters by filing date and form', () => {
    const recent = mapEdgarFilings(recorded2026.filings.recent, { ...mapOptions, since: '2025-01-01', forms: ['10-K'] });
    expect(recent.map((e) => e.title)).toContain('10-K: Annual report for the period ended 2025-12-31 (2026-01-29)');
    expect(recent.every((e) => e.publishedDate >= '2025-01-01' && /^10-K/.test(e.title))).toBe(true);
  });

  it('normalises CIKs and builds filing URLs', () => {
    expect(normalizeCik(1318605)).toBe('0001318605');
    expect(normalizeCik('CIK0001318605')).toBe('0001318605');
    expect(() => normalizeCik('TSLA')).toThrow(/up to 10 digits/);
    expect(edgarFilingUrl('0001318605', '0000950170-22-019867', null)).toBe(
      'https://www.sec.gov/Archives/edgar/data/1318605/000095017022019867/0000950170-22-019867-index.htm',
    );
  });
});

describe('EDGAR client over HTTP', () => {
  it('refuses to start without a User-Agent, naming SEC_USER_AGENT', () => {
    for (const userAgent of [undefined, '', '   ']) {
      const error = (() => {
        try {
          createEdgarClient({ userAgent });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(EdgarError);
      expect(error).toMatchObject({ status: 'config', message: expect.stringContaining('Set SEC_USER_AGENT') });
    }
  });

  it('sends the User-Agent and reads the zero-padded submissions file', async () => {
    const submissions = await client().getSubmissions(1318605);
    expect(submissions.name).toBe('Tesla, Inc.');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].path).toBe('/submissions/CIK0001318605.json');
    expect(server.requests[0].headers['user-agent']).toBe(UA);
  });

  it('honours Retry-After on 429 and then succeeds', async () => {
    server.fail('CIK0001318605.json', { httpStatus: 429, retryAfter: '2' }, 2);
    const submissions = await client().getSubmissions('1318605');
    expect(submissions.filings.recent.form.length).toBe(1001);
    expect(sleeps).toEqual([2000, 2000]);
    expect(server.requests).toHaveLength(3);
  });

  it('fails clearly when 429 persists', async () => {
    server.fail('CIK0001318605.json', { httpStatus: 429 }, 10);
    const error = await client({ retries: 2 })
      .getSubmissions('1318605')
      .catch((e) => e);
    expect(error).toMatchObject({ status: 'http', message: expect.stringMatching(/failed after 3 attempts: HTTP 429$/) });
    expect(server.requests).toHaveLength(3);
    expect(sleeps[1]).toBeGreaterThanOrEqual(sleeps[0] / 2); // jittered but growing ceiling
  });

  it('explains 403 and 404', async () => {
    server.fail('CIK0001318605.json', { httpStatus: 403 });
    await expect(client().getSubmissions('1318605')).rejects.toMatchObject({ status: 'forbidden', message: expect.stringContaining('check SEC_USER_AGENT') });
    await expect(client().getSubmissions('42')).rejects.toMatchObject({ status: 'not-found', message: expect.stringContaining('CIK 0000000042') });
  });
});

describe('fetchEdgarEvidence', () => {
  it('returns the recent 8-K, 10-K and 10-Q filed on or after since', async () => {
    const { evidence, warnings } = await fetchEdgarEvidence(client(), { cik: '1318605', companyId: 'tesla', since: '2022-01-01' });
    expect(warnings).toEqual([]);
    expect(evidence.length).toBeGreaterThan(10);
    expect(evidence.every((e) => e.publishedDate >= '2022-01-01' && e.companyId === 'tesla')).toBe(true);
    expect(evidence[0]).toMatchObject({ id: 'edgar-0000950170-22-019867', publishedDate: '2022-10-24' }); // newest first: the Q3 10-Q
    expect(server.requests).toHaveLength(1);
  });

  it('reads older pages when since predates the recent list', async () => {
    // Serve the 2026 recording as the live index; its older page (2005–2018) is answered with
    // the 2022 recording's columns, real filings that overlap the recent list on purpose.
    server.serve('/submissions/CIK0001318605.json', { file: 'edgar/CIK0001318605.recorded-2026-02-03.json' });
    server.serve('/submissions/CIK0001318605-submissions-001.json', { json: recorded2022.filings.recent });
    const { evidence, warnings } = await fetchEdgarEvidence(client(), { cik: '1318605', companyId: 'tesla', since: '2014-01-01' });
    expect(warnings).toEqual([]);
    expect(server.requests.map((r) => r.path)).toEqual(['/submissions/CIK0001318605.json', '/submissions/CIK0001318605-submissions-001.json']);
    expect(new Set(evidence.map((e) => e.id)).size).toBe(evidence.length);
    expect(evidence.at(-1)!.publishedDate < '2018-02-13').toBe(true);
    expect(evidence[0].publishedDate).toBe('2026-01-29');
  });

  it('warns when an older page cannot be read', async () => {
    server.serve('/submissions/CIK0001318605.json', { file: 'edgar/CIK0001318605.recorded-2026-02-03.json' });
    const { evidence, warnings } = await fetchEdgarEvidence(client(), { cik: '1318605', companyId: 'tesla', since: '2010-01-01' });
    expect(evidence.length).toBe(164);
    expect(warnings).toEqual([
      expect.stringMatching(/^Older EDGAR filings \(CIK0001318605-submissions-001\.json, 2005-02-17 – 2018-02-11\) were not read: SEC EDGAR has no/),
    ]);
  });
});
