// A document in and its candidates decided: the upload writes the document, its chunks and its
// candidates with one audit entry; a refused file is audited by name; accepting goes through the
// import's write path and keeps the passage; rejecting is audited; nothing is decided twice.
import fs from 'node:fs';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { insertCandidates, listCandidates, listPassages } from '@/lib/db/queries/documents';
import { auditLog, companies, documentChunks, documents, evidenceItems, users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { extractDocument } from '@/lib/pool/documents/extract';
import { ingestDocument, uploadedDocumentId, type DocumentDetails } from '@/lib/pool/documents/ingest';
import { titleOf } from '@/lib/pool/documents/candidates';
import { acceptCandidate, rejectCandidate } from '@/lib/pool/documents/review';

const file = { name: 'tsla-10k.htm', bytes: new Uint8Array(fs.readFileSync('data/fixtures/documents/tesla-10k-fy2024-legal-proceedings.htm')) };
const details: DocumentDetails = {
  company_id: 'filing-co',
  title: 'Tesla 10-K FY2024 — Legal Proceedings',
  kind: 'annual_report',
  published_date: '2025-01-30',
  source_name: 'SEC EDGAR — Tesla, Inc. Form 10-K (FY2024)',
  source_url: 'https://www.sec.gov/Archives/edgar/data/1318605/000162828025003063/tsla-20241231.htm',
  language: 'en',
};

describe.each(testBackends())('filings in, on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let userId: string;
  const lastAudit = async (action: string) => (await db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.seq)).limit(1))[0];
  // In this thread: the worker thread has tests of its own (extract.test.ts).
  const ingest = (over: Partial<Parameters<typeof ingestDocument>[0]> = {}) =>
    ingestDocument({ db, file, details, actorId: userId, today: '2026-01-01', extract: extractDocument, ...over });

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await db.insert(companies).values({ id: 'filing-co', name: 'Filing Co', country: 'US' });
    [{ id: userId }] = await db.insert(users).values({ email: 'rm@filing.test', name: 'RM', role: 'rm' }).returning({ id: users.id });
  }, 60_000);
  afterAll(() => handle?.close());

  it('writes the document, its chunks and its candidates, with one audit entry', async () => {
    const result = await ingest();
    const id = uploadedDocumentId('filing-co', file.bytes);
    expect(result).toEqual({ ok: true, documentId: id, format: 'html', chars: 16949, pages: 0, candidates: 46 });
    const [doc] = await db.select().from(documents).where(eq(documents.id, id));
    expect(doc).toMatchObject({ companyId: 'filing-co', title: details.title, sourceUrl: details.source_url, publishedDate: '2025-01-30' });
    expect(doc.meta).toMatchObject({ file: 'tsla-10k.htm', format: 'html' });
    const chunks = await db.select().from(documentChunks).where(eq(documentChunks.documentId, id));
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) expect(doc.body.slice(c.charStart, c.charEnd)).toBe(c.text);
    const candidates = await listCandidates({ db, documentId: id });
    expect(candidates).toHaveLength(46);
    expect(candidates.every((c) => c.status === 'proposed' && c.proposedBy === 'rule')).toBe(true);
    const audit = await lastAudit('document.upload');
    expect(audit).toMatchObject({ actorId: userId, entityType: 'document', entityId: id });
    expect(audit.detail).toMatchObject({ companyId: 'filing-co', format: 'html', chars: 16949, candidates: 46 });
    // Nothing entered the pool.
    expect(await db.select().from(evidenceItems).where(eq(evidenceItems.companyId, 'filing-co'))).toEqual([]);
  });

  it('refuses the same file twice, by the title it was given', async () => {
    const again = await ingest();
    expect(again).toMatchObject({ ok: false, phrase: { key: 'alreadyUploaded' }, documentId: uploadedDocumentId('filing-co', file.bytes) });
  });

  it('refuses a file it cannot read by name, audits the refusal and writes nothing else', async () => {
    const bad = { name: 'scan.png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) };
    const result = await ingest({ file: bad });
    expect(result).toEqual({
      ok: false,
      field: 'file',
      message: 'scan.png: not a document Crosscheck reads. Upload HTML, a DART original document (.zip or .xml) or a PDF.',
      phrase: { key: 'unsupportedFormat', values: { file: 'scan.png' } },
    });
    const audit = await lastAudit('document.upload_rejected');
    expect(audit).toMatchObject({ actorId: userId, entityType: 'company', entityId: 'filing-co' });
    expect(audit.detail).toEqual({ file: 'scan.png', bytes: 7, reason: result.ok ? '' : result.message });
    expect(
      await db
        .select()
        .from(documents)
        .where(eq(documents.id, uploadedDocumentId('filing-co', bad.bytes))),
    ).toEqual([]);
  });

  it('checks the details by the import’s rules before reading anything', async () => {
    const future = await ingest({ details: { ...details, published_date: '2026-02-01' } });
    expect(future).toMatchObject({
      ok: false,
      field: 'published_date',
      message: 'published_date: 2026-02-01 is in the future; a document can only be imported once it is public.',
    });
    const link = await ingest({ details: { ...details, source_url: 'javascript:alert(1)' } });
    expect(link).toMatchObject({ ok: false, field: 'source_url' });
    const nobody = await ingest({ details: { ...details, company_id: 'nobody' } });
    expect(nobody).toMatchObject({ ok: false, field: 'company_id', message: 'No company nobody in the pool.' });
  });

  it('accepts a candidate through the import: a tagged pool item that keeps its passage, audited', async () => {
    const documentId = uploadedDocumentId('filing-co', file.bytes);
    const [first] = await listCandidates({ db, documentId });
    const accepted = await acceptCandidate({ db, id: first.id, userId, edits: { title: 'Stockholder suit over the 2018 CEO award' }, today: '2026-01-01' });
    const [item] = await db.select().from(evidenceItems).where(eq(evidenceItems.id, accepted.evidenceId));
    expect(item).toMatchObject({
      companyId: 'filing-co',
      category: 'legal_proceedings',
      title: 'Stockholder suit over the 2018 CEO award',
      text: first.text,
      eventDate: '2018-06-04',
      publishedDate: '2025-01-30',
      sourceUrl: details.source_url,
      sourceName: details.source_name,
      origin: 'document',
      factor: 'internal_control_risk',
      factorSource: 'rule',
      createdById: userId,
    });
    const [decided] = (await listCandidates({ db, documentId })).filter((c) => c.id === first.id);
    expect(decided).toMatchObject({ status: 'accepted', evidenceId: item.id, decidedById: userId, title: 'Stockholder suit over the 2018 CEO award' });
    expect(await listPassages({ db, evidenceIds: [item.id] })).toEqual([
      { evidenceId: item.id, companyId: 'filing-co', documentId, page: null, charStart: first.charStart, charEnd: first.charEnd },
    ]);
    const audit = await lastAudit('document.candidate_accept');
    expect(audit).toMatchObject({ actorId: userId, entityType: 'document_candidate', entityId: first.id });
    expect(audit.detail).toEqual({ documentId, evidenceId: item.id, page: null, charStart: first.charStart, charEnd: first.charEnd, edited: ['title'] });
    expect((await lastAudit('evidence.create')).detail).toMatchObject({ origin: 'document', evidence: 1 });
    // Decided once: a second accept or a reject is a conflict.
    await expect(acceptCandidate({ db, id: first.id, userId, today: '2026-01-01' })).rejects.toMatchObject({ code: 'conflict' });
    await expect(rejectCandidate({ db, id: first.id, userId })).rejects.toMatchObject({ code: 'conflict' });
  });

  it('refuses an edit the import would refuse, and leaves the candidate waiting', async () => {
    const documentId = uploadedDocumentId('filing-co', file.bytes);
    const waiting = (await listCandidates({ db, documentId })).find((c) => c.status === 'proposed')!;
    await expect(acceptCandidate({ db, id: waiting.id, userId, edits: { title: ' ' }, today: '2026-01-01' })).rejects.toMatchObject({
      code: 'bad_request',
      fieldErrors: { title: [{ key: 'missingTitle' }] },
    });
    const [still] = (await listCandidates({ db, documentId })).filter((c) => c.id === waiting.id);
    expect(still.status).toBe('proposed');
  });

  it('rejects a candidate: recorded, audited, and nothing enters the pool', async () => {
    const documentId = uploadedDocumentId('filing-co', file.bytes);
    const before = (await db.select().from(evidenceItems).where(eq(evidenceItems.companyId, 'filing-co'))).length;
    const waiting = (await listCandidates({ db, documentId })).find((c) => c.status === 'proposed')!;
    await rejectCandidate({ db, id: waiting.id, userId });
    const [decided] = (await listCandidates({ db, documentId })).filter((c) => c.id === waiting.id);
    expect(decided).toMatchObject({ status: 'rejected', evidenceId: null, decidedById: userId });
    expect((await db.select().from(evidenceItems).where(eq(evidenceItems.companyId, 'filing-co'))).length).toBe(before);
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'document.candidate_reject'), eq(auditLog.entityId, waiting.id)));
    expect(audit.detail).toEqual({ documentId, page: null, charStart: waiting.charStart, charEnd: waiting.charEnd, title: waiting.title });
  });

  it("titles a model's candidate by its text when accepted, never by the model's words an older reading stored as its title", async () => {
    const documentId = uploadedDocumentId('filing-co', file.bytes);
    const rule = (await listCandidates({ db, documentId })).filter((c) => c.status === 'proposed').at(-1)!;
    await insertCandidates({
      db,
      rows: [
        {
          ...rule,
          id: undefined,
          createdAt: undefined,
          proposedBy: 'model',
          reason: 'model:gpt-4o-mini',
          title: 'FABRICATED: the borrower defaulted on its bonds',
          category: 'distress_default',
        },
      ],
    });
    const [model] = (await listCandidates({ db, documentId })).filter((c) => c.proposedBy === 'model');
    await rejectCandidate({ db, id: rule.id, userId });
    const { evidenceId } = await acceptCandidate({ db, id: model.id, userId, today: '2026-01-01' });
    const [item] = await db.select().from(evidenceItems).where(eq(evidenceItems.id, evidenceId));
    expect(item).toMatchObject({ title: titleOf(rule.text), text: rule.text, category: 'distress_default' });
    // The document's words only: the model's are nowhere in the item.
    expect(`${item.title} ${item.text}`).not.toContain('FABRICATED');
  });
});
