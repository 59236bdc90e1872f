// A document into the pool: its details checked by the import's own rules, its text read in a
// worker thread, then the document, its retrieval chunks and its candidate evidence items written
// in one transaction with one audit entry. A file that cannot be read is refused by name and the
// refusal is audited, as a refused import is. Candidates wait for an RM (review.ts).
import { createHash } from 'node:crypto';
import type { Db } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { findDocumentTitle, insertCandidates } from '@/lib/db/queries/documents';
import { insertDocument, insertDocumentChunks, selectCompanyProfiles } from '@/lib/db/queries/pool-import';
import { cleanTypedInput } from '@/lib/domain/typed-text';
import { env } from '@/lib/env';
import type { Phrase } from '@/lib/i18n';
import { chunkDocument, type Chunk } from '@/lib/pool/chunk';
import { proposeCandidates } from '@/lib/pool/documents/candidates';
import type { Extracted, ExtractSource, PageRange } from '@/lib/pool/documents/extract';
import { DocumentProblem } from '@/lib/pool/documents/problems';
import type { ModelReading } from '@/lib/pool/documents/model-reading';
import { extractOffThread } from '@/lib/pool/documents/run-extraction';
import { formatMb } from '@/lib/pool/import/limits';
import { MAX_FILE_NAME } from '@/lib/pool/import/plan';
import { problem, problemOfIssue } from '@/lib/pool/import/problems';
import { documentFrontMatter, storable, tooLong, unstorable } from '@/lib/pool/import/schemas';
import { importLimits } from '@/lib/pool/import/upload';
import { searchTokens } from '@/lib/pool/search-text';
import { isoToday } from '@/lib/util/dates';

/** What the RM says about the document: the fields of an imported document's front matter. */
export type DocumentDetails = {
  company_id: string;
  title: string;
  kind: string;
  published_date: string;
  source_name: string;
  source_url: string;
  language?: string;
};

export type IngestResult =
  | { ok: true; documentId: string; format: Extracted['format']; chars: number; pages: number; candidates: number }
  | { ok: false; message: string; phrase: Phrase; field?: string; documentId?: string };

/** A written document as a model's reading of it needs it: its chunks as written, its pages. */
export type WrittenDocument = { documentId: string; companyId: string; chunks: Chunk[]; pages: PageRange[]; publishedDate: string };

type Refusal = Extract<IngestResult, { ok: false }>;
const refusal = (p: DocumentProblem, extra: Partial<Refusal> = {}): Refusal => ({ ok: false, message: p.message, phrase: p.phrase, ...extra });

/** An uploaded document's id: its company and a hash of its bytes, so the same file is found again. */
export const uploadedDocumentId = (companyId: string, bytes: Uint8Array) =>
  `${companyId}--upload-${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}`;

/** The details and the file, checked before anything is read: the first problem, by field. */
async function checkUpload(db: Db, file: ExtractSource, details: DocumentDetails, today: string) {
  const nameProblem = file.name.length > MAX_FILE_NAME ? tooLong(file.name.length, MAX_FILE_NAME) : unstorable(file.name);
  if (nameProblem) return refusal(new DocumentProblem('badField', { field: 'file', detail: nameProblem.phrase! }), { field: 'file' });
  const { maxFileBytes } = importLimits();
  if (file.bytes.byteLength > maxFileBytes) {
    return refusal(new DocumentProblem('tooLarge', { file: file.name, size: formatMb(file.bytes.byteLength), limit: formatMb(maxFileBytes) }), {
      field: 'file',
    });
  }
  // The details are typed by the RM: the rule for every typed text (lib/domain/typed-text.ts) first,
  // so a NUL in any of them (the language code too) is refused by its field, and no bidirectional
  // control is stored.
  const typed = cleanTypedInput(details, []);
  const [unstorableField] = Object.entries(typed.problems ?? {});
  if (unstorableField) {
    const [field, [bad]] = unstorableField;
    const at = bad.at.toLocaleString('en');
    const detail = bad.kind === 'nul' ? problem('nulChar', { at }).phrase : problem('brokenChar', { code: bad.code, at }).phrase;
    return refusal(new DocumentProblem('badField', { field, detail }), { field });
  }
  const parsed = documentFrontMatter.safeParse(typed.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue.path[0] ?? 'title');
    const bad = problemOfIssue(issue.message);
    return refusal(new DocumentProblem('badField', { field, detail: bad.phrase ?? bad.message }), { field });
  }
  if (parsed.data.published_date > today) {
    return refusal(
      new DocumentProblem('badField', { field: 'published_date', detail: { key: 'documentFuture', values: { date: parsed.data.published_date } } }),
      { field: 'published_date' },
    );
  }
  if (!(await selectCompanyProfiles({ db, ids: [parsed.data.company_id] })).length) {
    return refusal(new DocumentProblem('unknownCompany', { id: parsed.data.company_id }), { field: 'company_id' });
  }
  return parsed.data;
}

/** Records that a document was refused, in a transaction of its own (nothing else was written). */
async function auditRefused(db: Db, actorId: string | null, file: ExtractSource, companyId: string, reason: string) {
  await db.transaction((tx) =>
    appendAudit({
      tx,
      actorId,
      action: 'document.upload_rejected',
      entityType: 'company',
      entityId: companyId.slice(0, 100),
      detail: { file: storable(file.name.slice(0, 200)), bytes: file.bytes.byteLength, reason: storable(reason.slice(0, 500)) },
    }),
  );
}

export async function ingestDocument({
  db,
  file,
  details,
  actorId,
  today = isoToday(),
  extract = extractOffThread,
  modelReading = null,
}: {
  db: Db;
  file: ExtractSource;
  details: DocumentDetails;
  actorId: string | null;
  today?: string;
  /** The reader; the tests may read in this thread. */
  extract?: (source: ExtractSource) => Promise<Extracted>;
  /**
   * A model will read the document after this upload (lib/jobs/document-reading.ts): the document
   * is marked as being read by `model` in the same transaction, and `start` is called once it is
   * written, with what the reading needs. Absent when no model is configured.
   */
  modelReading?: { model: string; start: (document: WrittenDocument) => void } | null;
}): Promise<IngestResult> {
  const checked = await checkUpload(db, file, details, today);
  if ('ok' in checked) return checked;
  const id = uploadedDocumentId(checked.company_id, file.bytes);
  const existing = await findDocumentTitle({ db, id });
  if (existing) return refusal(new DocumentProblem('alreadyUploaded', { title: existing.title }), { documentId: id });

  let extracted: Extracted;
  try {
    extracted = await extract(file);
  } catch (err) {
    if (!(err instanceof DocumentProblem)) throw err;
    await auditRefused(db, actorId, file, checked.company_id, err.message);
    return refusal(err, { field: 'file' });
  }

  const candidates = proposeCandidates({ body: extracted.text, pages: extracted.pages, publishedDate: checked.published_date });
  const chunks = chunkDocument(extracted.text, { size: env().CHUNK_SIZE, overlap: env().CHUNK_OVERLAP });
  const reading: ModelReading | null = modelReading ? { state: 'reading', model: modelReading.model, startedAt: new Date().toISOString() } : null;
  const meta = {
    file: storable(file.name),
    format: extracted.format,
    pages: extracted.pages.map((p) => [p.page, p.start, p.end]),
    ...(extracted.title ? { extractedTitle: extracted.title } : {}),
    ...(reading ? { modelReading: reading } : {}),
  };
  const written = await db.transaction(async (tx) => {
    if (
      !(await insertDocument({
        db: tx,
        document: {
          id,
          companyId: checked.company_id,
          title: checked.title,
          kind: checked.kind,
          publishedDate: checked.published_date,
          sourceName: checked.source_name,
          sourceUrl: checked.source_url,
          language: checked.language,
          license: checked.license,
          upstream: checked.upstream,
          meta,
          body: extracted.text,
        },
      }))
    ) {
      return false; // The same file, uploaded at the same moment by someone else.
    }
    await insertDocumentChunks({ db: tx, chunks: chunks.map((c) => ({ ...c, documentId: id, searchTokens: searchTokens(c.heading, c.text) })) });
    await insertCandidates({
      db: tx,
      rows: candidates.map((c) => ({ ...c, documentId: id, companyId: checked.company_id, proposedBy: 'rule' as const })),
    });
    await appendAudit({
      tx,
      actorId,
      action: 'document.upload',
      entityType: 'document',
      entityId: id,
      detail: {
        companyId: checked.company_id,
        file: storable(file.name.slice(0, 200)),
        format: extracted.format,
        chars: extracted.text.length,
        pages: extracted.pages.length,
        chunks: chunks.length,
        candidates: candidates.length,
      },
    });
    return true;
  });
  if (!written) return refusal(new DocumentProblem('alreadyUploaded', { title: checked.title }), { documentId: id });
  // After the transaction, so the upload answers without waiting for the model.
  modelReading?.start({ documentId: id, companyId: checked.company_id, chunks, pages: extracted.pages, publishedDate: checked.published_date });
  return { ok: true, documentId: id, format: extracted.format, chars: extracted.text.length, pages: extracted.pages.length, candidates: candidates.length };
}
