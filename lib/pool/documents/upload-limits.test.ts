// An upload that the reader's bounds refuse, through ingestDocument (the upload route's path) and
// the worker thread: a PDF decompression bomb and a reader that is busy are each refused by name,
// audited as document.upload_rejected, and nothing is written. The bomb is small (4 MB of spaces)
// against a bound of 1 MB given to the thread; the busy reader is a gate of one, held.
import zlib from 'node:zlib';
import { desc, eq } from 'drizzle-orm';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { auditLog, companies, documents, users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { ingestDocument, uploadedDocumentId, type DocumentDetails } from '@/lib/pool/documents/ingest';
import { extractOffThread, ReadingGate } from '@/lib/pool/documents/run-extraction';

const MB = 1024 * 1024;

/** A one-page PDF whose content stream is `n` spaces, deflated: a few kilobytes. */
function bomb(n: number) {
  const data = zlib.deflateSync(Buffer.alloc(n, 0x20), { level: 9 });
  return new Uint8Array(
    Buffer.concat([
      Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n', 'latin1'),
      Buffer.from('3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>\nendobj\n', 'latin1'),
      Buffer.from(`4 0 obj\n<< /Length ${data.byteLength} /Filter /FlateDecode >>\nstream\n`, 'latin1'),
      data,
      Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1'),
    ]),
  );
}

async function onePage(line: string) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText(line, { x: 40, y: 740, size: 10, font });
  return doc.save();
}

const details: DocumentDetails = {
  company_id: 'bounded-co',
  title: 'Annual report',
  kind: 'annual_report',
  published_date: '2025-01-30',
  source_name: 'Company website',
  source_url: 'https://example.org/annual-report.pdf',
  language: 'en',
};

describe.each(testBackends())('an upload the reader’s bounds refuse, on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let userId: string;
  const lastRefusal = async () =>
    (await db.select().from(auditLog).where(eq(auditLog.action, 'document.upload_rejected')).orderBy(desc(auditLog.seq)).limit(1))[0];

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await db.insert(companies).values({ id: 'bounded-co', name: 'Bounded Co', country: 'US' });
    [{ id: userId }] = await db.insert(users).values({ email: 'rm@bounded.test', name: 'RM', role: 'rm' }).returning({ id: users.id });
  }, 60_000);
  afterAll(() => handle?.close());

  it('refuses a PDF decompression bomb by name, audits it and writes nothing', async () => {
    const file = { name: 'annual-report.pdf', bytes: bomb(4 * MB) };
    expect(file.bytes.byteLength).toBeLessThan(10_000);
    const result = await ingestDocument({
      db,
      file,
      details,
      actorId: userId,
      today: '2026-01-01',
      extract: (source) => extractOffThread(source, { options: { pdfDecodedBytes: MB } }),
    });
    const message = 'annual-report.pdf: the PDF’s compressed contents unpack to more than 1 MB; it is refused as a possible decompression bomb.';
    expect(result).toEqual({ ok: false, field: 'file', message, phrase: { key: 'pdfTooLarge', values: { file: 'annual-report.pdf', limit: '1 MB' } } });
    expect((await lastRefusal()).detail).toEqual({ file: 'annual-report.pdf', bytes: file.bytes.byteLength, reason: message });
    expect(
      await db
        .select()
        .from(documents)
        .where(eq(documents.id, uploadedDocumentId('bounded-co', file.bytes))),
    ).toEqual([]);
  }, 60_000);

  it('asks an upload to try again while every reader is busy and none may wait, then reads it once one is free', async () => {
    const gate = new ReadingGate(1, 0);
    const file = { name: 'letter.pdf', bytes: await onePage('On March 5, 2024, the company settled a lawsuit.') };
    const upload = () =>
      ingestDocument({
        db,
        file,
        details: { ...details, title: 'Letter' },
        actorId: userId,
        today: '2026-01-01',
        extract: (source) => extractOffThread(source, { gate }),
      });
    const leave = await gate.enter('another upload');
    const busy = await upload();
    const message = 'letter.pdf: too many documents are being read right now. Try again in a minute.';
    expect(busy).toEqual({ ok: false, field: 'file', message, phrase: { key: 'extractionBusy', values: { file: 'letter.pdf' } } });
    expect((await lastRefusal()).detail).toEqual({ file: 'letter.pdf', bytes: file.bytes.byteLength, reason: message });
    expect(
      await db
        .select()
        .from(documents)
        .where(eq(documents.id, uploadedDocumentId('bounded-co', file.bytes))),
    ).toEqual([]);
    leave();
    expect(await upload()).toMatchObject({ ok: true, documentId: uploadedDocumentId('bounded-co', file.bytes), format: 'pdf', pages: 1 });
    expect(gate.peak).toBe(1);
  }, 60_000);
});
