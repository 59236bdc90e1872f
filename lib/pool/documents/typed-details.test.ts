// The details an RM types with an uploaded document (POST /api/import/documents) follow the rule for
// every typed text (lib/domain/typed-text.ts): a NUL is a refusal naming its field, with nothing
// written; bidirectional controls are removed from every field, the language code included.
import fs from 'node:fs';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { auditLog, companies, documents } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { extractDocument } from '@/lib/pool/documents/extract';
import { ingestDocument, uploadedDocumentId, type DocumentDetails } from '@/lib/pool/documents/ingest';

const file = { name: 'tsla-10k.htm', bytes: new Uint8Array(fs.readFileSync('data/fixtures/documents/tesla-10k-fy2024-legal-proceedings.htm')) };
const details: DocumentDetails = {
  company_id: 'typed-co',
  title: 'Tesla 10-K FY2024 — Legal Proceedings',
  kind: 'annual_report',
  published_date: '2025-01-30',
  source_name: 'SEC EDGAR',
  source_url: 'https://www.sec.gov/Archives/edgar/data/1318605/000162828025003063/tsla-20241231.htm',
  language: 'en',
};

describe.each(testBackends())("an uploaded document's typed details, on %s", (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  const ingest = (over: Partial<DocumentDetails>) =>
    ingestDocument({ db, file, details: { ...details, ...over }, actorId: null, today: '2026-01-01', extract: extractDocument });
  const rows = async () => ({
    documents: (await db.select({ n: count() }).from(documents))[0].n,
    audit: (await db.select({ n: count() }).from(auditLog))[0].n,
  });

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await db.insert(companies).values({ id: 'typed-co', name: 'Typed Co', country: 'US' });
  }, 60_000);
  afterAll(() => handle?.close());

  it('a NUL in any detail is refused by its field, and nothing is written', async () => {
    const before = await rows();
    for (const field of ['title', 'kind', 'source_name', 'language'] as const) {
      const result = await ingest({ [field]: `${details[field]}\u0000` });
      expect(result, field).toMatchObject({
        ok: false,
        field,
        phrase: { key: 'badField', values: { field, detail: { key: 'nulChar', values: { at: String(details[field]!.length + 1) } } } },
      });
    }
    expect(await rows()).toEqual(before);
  });

  it('removes bidirectional controls from every detail before it is checked and stored', async () => {
    const result = await ingest({ title: 'Legal \u202Eproceedings', kind: 'annual\u2066_report', language: 'e\u202En' });
    expect(result).toMatchObject({ ok: true, documentId: uploadedDocumentId('typed-co', file.bytes) });
    const [doc] = await db.select().from(documents).where(eq(documents.companyId, 'typed-co'));
    expect({ title: doc.title, kind: doc.kind, language: doc.language }).toEqual({ title: 'Legal proceedings', kind: 'annual_report', language: 'en' });
  });
});
