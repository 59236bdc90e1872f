// One event, one flag (issue 26): the same filing reaching the pool twice — an item imported from
// the demo pool (the connectors' own form of a DART disclosure and an EDGAR 10-K) and a sentence
// an RM accepted from the uploaded original document — is one red flag citing both, whether the
// two copies name the filing by the same DART receipt number, the same SEC accession number or a
// link that differs only in case, trailing slash or fragment. Two events of one filing stay two.
// The items are data/demo/evidence.jsonl's own rows; the documents are the real filings' text in
// data/fixtures/documents (Samsung Electronics' 2022 half-year report, 접수번호 20220816001711, on
// 제재 현황; Tesla's FY2024 10-K, accession 0001628280-25-003063, on legal proceedings).
import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { listCandidates } from '@/lib/db/queries/documents';
import { companies, evidenceItems, users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { extractDocument } from '@/lib/pool/documents/extract';
import { ingestDocument, type DocumentDetails } from '@/lib/pool/documents/ingest';
import { acceptCandidate } from '@/lib/pool/documents/review';
import { createRun, executeRun } from '@/lib/debate/engine';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { importPool } from '@/lib/pool/import';
import { getRun } from '@/lib/db/queries/runs';
import { listEvidenceForWatch } from '@/lib/db/queries/watch';
import { judgeNewItems } from '@/lib/jobs/watch';
import { loadLiveState } from '@/lib/report/live-state';
import { poolRedFlags } from '@/lib/report/red-flag-refs';

const demo = new Map<string, Record<string, unknown>>(
  fs
    .readFileSync('data/demo/evidence.jsonl', 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const row = JSON.parse(l) as Record<string, unknown>;
      return [row.id as string, row];
    }),
);
const row = (id: string, over: Record<string, unknown> = {}) => ({ ...demo.get(id)!, ...over });
const jsonl = (...rows: object[]) => new TextEncoder().encode(rows.map((r) => JSON.stringify(r)).join('\n') + '\n');

const dartXml = { name: '20220816001711.xml', bytes: new Uint8Array(fs.readFileSync('data/fixtures/documents/20220816001711.xml')) };
const tenK = { name: 'tsla-10k.htm', bytes: new Uint8Array(fs.readFileSync('data/fixtures/documents/tesla-10k-fy2024-legal-proceedings.htm')) };

// Sentences of the filings, as the document reader proposes them.
const WELSTORY = '또한 당사와 삼성디스플레이㈜는 삼성웰스토리㈜와의 단체급식 거래와 관련하여'; // the 과징금 of 2021-08-27, demo item samsung-electronics-022
const AGENCY_FINE = "당사는 2022년 6월 27일 공정거래위원회로부터 '대리점거래의 공정화에 관한 법률'"; // a 과태료 of 2022-06-27, in no demo item
const FEE_OPINION = 'On December 2, 2024, the Court issued an opinion'; // the rescission and fee award, demo item tesla-032

describe.each(testBackends())('one event, one flag, on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let userId: string;

  const importRows = (...rows: object[]) =>
    importPool({ db, sources: [{ name: 'evidence.jsonl', bytes: jsonl(...rows) }], actorId: userId, today: '2026-01-01' });
  const upload = async (file: typeof tenK, details: DocumentDetails) => {
    const result = await ingestDocument({ db, file, details, actorId: userId, today: '2026-01-01', extract: extractDocument });
    if (!result.ok) throw new Error(result.message);
    return result.documentId;
  };
  const accept = async (documentId: string, opening: string) => {
    const candidate = (await listCandidates({ db, documentId })).find((c) => c.text.startsWith(opening));
    if (!candidate) throw new Error(`no candidate opens with ${opening}`);
    return (await acceptCandidate({ db, id: candidate.id, userId, today: '2026-01-01' })).evidenceId;
  };
  /** The company page's flags, each as the set of items it cites. */
  const flagsOf = async (companyId: string) => {
    const { flags, evidence } = await poolRedFlags({ db, companyId, asOf: '2026-01-01' });
    for (const f of flags) for (const id of [f.evidenceId, ...(f.alsoEvidenceIds ?? [])]) expect(evidence[id]?.id).toBe(id);
    return flags.map((f) => [f.kind, [f.evidenceId, ...(f.alsoEvidenceIds ?? [])].sort()]);
  };

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await db.insert(companies).values([
      { id: 'samsung-electronics', name: '삼성전자', country: 'KR' },
      { id: 'tesla', name: 'Tesla, Inc.', country: 'US' },
      { id: 'tesla-mirror', name: 'Tesla, Inc. (IR copy)', country: 'US' },
    ]);
    [{ id: userId }] = await db.insert(users).values({ email: 'rm@events.test', name: 'RM', role: 'rm' }).returning({ id: users.id });
  }, 60_000);
  afterAll(() => handle?.close());

  it('a DART filing imported and uploaded (same receipt number) is one flag per event', async () => {
    const sanctions = ['samsung-electronics-019', 'samsung-electronics-020', 'samsung-electronics-021', 'samsung-electronics-022'];
    expect((await importRows(...sanctions.map((id) => row(id)))).imported.evidence).toBe(4);
    expect(await flagsOf('samsung-electronics')).toHaveLength(4);

    const documentId = await upload(dartXml, {
      company_id: 'samsung-electronics',
      title: '삼성전자 반기보고서 (2022.06) — 제재 현황',
      kind: 'half_year_report',
      published_date: '2022-08-16',
      source_name: 'DART 원문',
      // The OpenDART original-document link, not the viewer link the demo item carries.
      source_url: 'https://opendart.fss.or.kr/api/document.xml?rcept_no=20220816001711',
      language: 'ko',
    });
    const welstory = await accept(documentId, WELSTORY);
    const flags = await flagsOf('samsung-electronics');
    expect(flags).toHaveLength(4);
    expect(flags).toContainEqual(['regulatory_sanction', ['samsung-electronics-022', welstory].sort()]);

    // Another sanction of the same report is another event.
    const agencyFine = await accept(documentId, AGENCY_FINE);
    const after = await flagsOf('samsung-electronics');
    expect(after).toHaveLength(5);
    expect(after).toContainEqual(['regulatory_sanction', [agencyFine]]);
    expect(after.filter(([, ids]) => ids.includes('samsung-electronics-022'))).toEqual([['regulatory_sanction', ['samsung-electronics-022', welstory].sort()]]);

    // A portfolio watch that sees both copies as new raises one flag for the event.
    const alert = judgeNewItems(await listEvidenceForWatch({ db, ids: ['samsung-electronics-022', welstory] }), 99);
    expect(alert?.redFlags.map((f) => [f.evidenceId, ...(f.alsoEvidenceIds ?? [])].sort())).toEqual([['samsung-electronics-022', welstory].sort()]);
    expect(alert?.evidenceIds.toSorted()).toEqual(['samsung-electronics-022', welstory].sort());

    // A run keeps the flags per event, and its page can open each copy of the merged one.
    const provider = createOfflineAnalyst();
    const run = await createRun({ db, protocolId: 'sas', companyId: 'samsung-electronics', provider, params: { asOf: '2026-01-01', language: 'ko' } });
    await executeRun({ db, runId: run.id, provider });
    const kept = (await getRun({ db, id: run.id })).redFlags ?? [];
    expect(kept.map((f) => [f.kind, [f.evidenceId, ...(f.alsoEvidenceIds ?? [])].sort()])).toEqual(after);
    const page = await loadLiveState({ db, runId: run.id });
    expect(page.redFlags).toHaveLength(5);
    expect(
      Object.keys(page.evidence)
        .filter((id) => id === welstory || id === 'samsung-electronics-022')
        .sort(),
    ).toEqual(['samsung-electronics-022', welstory].sort());
  });

  it('an EDGAR filing imported and uploaded (same accession number, other link) is one flag', async () => {
    expect((await importRows(row('tesla-032'))).imported.evidence).toBe(1);
    const documentId = await upload(tenK, {
      company_id: 'tesla',
      title: 'Tesla 10-K FY2024 — Legal Proceedings',
      kind: 'annual_report',
      published_date: '2025-01-30',
      source_name: 'SEC EDGAR — Tesla, Inc. Form 10-K (FY2024)',
      // The filing's index page; the demo item links its primary document.
      source_url: 'https://www.sec.gov/Archives/edgar/data/1318605/000162828025003063/0001628280-25-003063-index.htm',
      language: 'en',
    });
    const opinion = await accept(documentId, FEE_OPINION);
    expect(await flagsOf('tesla')).toEqual([['lawsuit_lost', ['tesla-032', opinion].sort()]]);
    // The same words filed under another accession number (Tesla's FY2021 10-K) are another source's.
    const { id: _id, ...rest } = row('tesla-032');
    expect(
      (await importRows({ ...rest, source_url: 'https://www.sec.gov/Archives/edgar/data/1318605/000095017022000796/tsla-20211231.htm' })).imported.evidence,
    ).toBe(1);
    const flags = await flagsOf('tesla');
    expect(flags).toHaveLength(2);
    expect(flags).toContainEqual(['lawsuit_lost', ['tesla-032', opinion].sort()]);
  });

  it('the same link in another case, with a trailing slash and a fragment, is one flag', async () => {
    const link = 'https://ir.tesla.com/_flysystem/s3/sec/000162828025003063/tsla-20241231-gen.pdf';
    expect((await importRows(row('tesla-032', { id: 'tesla-mirror-032', company_id: 'tesla-mirror', source_url: link }))).imported.evidence).toBe(1);
    const documentId = await upload(tenK, {
      company_id: 'tesla-mirror',
      title: 'Tesla 10-K FY2024 — Legal Proceedings',
      kind: 'annual_report',
      published_date: '2025-01-30',
      source_name: 'Tesla investor relations',
      source_url: 'HTTPS://IR.Tesla.com/_flysystem/s3/sec/000162828025003063/tsla-20241231-gen.pdf/#page=40',
      language: 'en',
    });
    const opinion = await accept(documentId, FEE_OPINION);
    expect(await flagsOf('tesla-mirror')).toEqual([['lawsuit_lost', ['tesla-mirror-032', opinion].sort()]]);
  });

  it('an import row naming an item already in the pool by another link form is a duplicate', async () => {
    // tesla-032 again, without its id, linked by the 10-K's index page; then by case, slash and fragment.
    const { id: _id, ...rest } = row('tesla-032');
    const byAccession = await importRows({
      ...rest,
      source_url: 'https://www.sec.gov/Archives/edgar/data/1318605/000162828025003063/0001628280-25-003063-index.htm',
    });
    expect({ imported: byAccession.imported.evidence, skipped: byAccession.skippedDuplicates }).toEqual({ imported: 0, skipped: 1 });
    const byCase = await importRows({
      ...rest,
      company_id: 'tesla-mirror',
      source_url: 'https://IR.TESLA.COM/_flysystem/s3/sec/000162828025003063/tsla-20241231-gen.pdf/#top',
    });
    expect({ imported: byCase.imported.evidence, skipped: byCase.skippedDuplicates }).toEqual({ imported: 0, skipped: 1 });
    // The same receipt number in OpenDART's link form.
    const { id: _sid, ...sanction } = row('samsung-electronics-022');
    const byReceipt = await importRows({ ...sanction, source_url: 'https://opendart.fss.or.kr/api/document.xml?rcept_no=20220816001711' });
    expect({ imported: byReceipt.imported.evidence, skipped: byReceipt.skippedDuplicates }).toEqual({ imported: 0, skipped: 1 });
    // Another filing of the same title and date is not a duplicate.
    const other = await importRows({ ...sanction, source_url: 'https://dart.fss.or.kr/dsaf001/main.do?rcpNo=20221114000297' });
    expect({ imported: other.imported.evidence, skipped: other.skippedDuplicates }).toEqual({ imported: 1, skipped: 0 });
    expect((await db.select().from(evidenceItems).where(eq(evidenceItems.companyId, 'tesla'))).length).toBe(3);
  });
});
