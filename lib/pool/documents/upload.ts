// The document upload's body (POST /api/import/documents): one file and its details, read only
// after the session, role and origin are checked and only up to the import's file limit
// (IMPORT_MAX_FILE_MB), as the Import page's upload is (lib/pool/import/upload.ts).
import type { DocumentDetails } from '@/lib/pool/documents/ingest';
import type { ExtractSource } from '@/lib/pool/documents/extract';
import type { Phrase } from '@/lib/i18n';
import { type ImportLimits } from '@/lib/pool/import/limits';
import { problem } from '@/lib/pool/import/problems';
import { fromOwnSite, importLimits, limitedBody, MULTIPART_SLACK, uploadTooLarge } from '@/lib/pool/import/upload';

export type DocumentUpload =
  { ok: true; file: ExtractSource; details: DocumentDetails } | { ok: false; status: 400 | 403 | 413; message: string; phrase: Phrase };

const DETAILS = ['company_id', 'title', 'kind', 'published_date', 'source_name', 'source_url', 'language'] as const;

export async function readDocumentUpload(request: Request, limits: ImportLimits = importLimits()): Promise<DocumentUpload> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data;/i.test(type) || !request.body) return { ok: false, status: 400, ...problem('chooseFile') };
  if (!fromOwnSite(request.headers)) return { ok: false, status: 403, ...problem('uploadForeign') };
  // One file: the file limit, not the request's.
  const max = limits.maxFileBytes + MULTIPART_SLACK;
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max)
    return { ok: false, status: 413, ...uploadTooLarge(declared, { ...limits, maxRequestBytes: limits.maxFileBytes }) };
  const state = { over: false };
  let form: FormData;
  try {
    form = await new Response(limitedBody(request.body, max, state), { headers: { 'content-type': type } }).formData();
  } catch {
    if (state.over) return { ok: false, status: 413, ...uploadTooLarge(null, { ...limits, maxRequestBytes: limits.maxFileBytes }) };
    return { ok: false, status: 400, ...problem('uploadUnreadable') };
  }
  const file = form.get('file');
  if (!file || typeof file === 'string' || file.size === 0) return { ok: false, status: 400, ...problem('chooseFile') };
  const value = (key: string) => {
    const v = form.get(key);
    return typeof v === 'string' ? v : '';
  };
  const details = Object.fromEntries(DETAILS.map((k) => [k, value(k)])) as DocumentDetails;
  return { ok: true, file: { name: file.name || 'document', bytes: new Uint8Array(await file.arrayBuffer()) }, details };
}
