// The Import page's upload (POST /api/import): a multipart body of files, read only after the
// session, role and origin are checked, and only up to the limit of lib/pool/import/limits.ts
// (from IMPORT_MAX_FILE_MB). The page states the limits and checks them before sending; this
// checks them again, because anything can be sent to the route.
import { env } from '@/lib/env';
import { formatMb, importLimitsFor, MB, type ImportLimits } from '@/lib/pool/import/limits';
import type { ImportSource } from '@/lib/pool/import/parse';
import { problem } from '@/lib/pool/import/problems';
import type { Phrase } from '@/lib/i18n';

/** Room for the multipart boundaries and headers around the files. */
export const MULTIPART_SLACK = MB;
/** Files in one upload: a folder of documents, not a disk. */
export const MAX_UPLOAD_FILES = 10_000;

/** The limits of this server's configuration. */
export const importLimits = (): ImportLimits => importLimitsFor(env().IMPORT_MAX_FILE_MB);

/** What the page shows for an upload over the limit (the client's check says the same). */
export const uploadTooLarge = (bytes: number | null, limits: ImportLimits) =>
  bytes === null
    ? problem('uploadTooLargeUnknown', { limit: formatMb(limits.maxRequestBytes) })
    : problem('uploadTooLarge', { size: formatMb(bytes), limit: formatMb(limits.maxRequestBytes) });

/** A refused upload says why in English (`message`, for the JSON API) and as a phrase of the import table. */
export type UploadResult = { ok: true; sources: ImportSource[]; validOnly: boolean } | { ok: false; status: 400 | 403 | 413; message: string; phrase: Phrase };

/**
 * Whether a POST comes from the app's own pages. proxy.ts does not see this route (its body
 * copy would cut large uploads), so the route makes the origin check itself: the browser's
 * Sec-Fetch-Site when it sends one, else Origin against the host the request was sent to.
 */
export function fromOwnSite(headers: Pick<Headers, 'get'>): boolean {
  const site = headers.get('sec-fetch-site');
  if (site) return site === 'same-origin';
  const origin = headers.get('origin');
  const host = headers.get('x-forwarded-host')?.split(',')[0].trim() || headers.get('host');
  if (!origin || origin === 'null' || !host) return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

/** The body, refused with the size message as soon as it passes the limit (the rest is never read). */
export function limitedBody(body: ReadableStream<Uint8Array>, maxBytes: number, state: { over: boolean }) {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) {
          state.over = true;
          controller.error(new Error('upload over the limit'));
        } else controller.enqueue(chunk);
      },
    }),
  );
}

/** The files of an upload and the valid-only choice, or why the upload is refused. */
export async function readImportUpload(request: Request, limits: ImportLimits = importLimits()): Promise<UploadResult> {
  // Not an upload at all: nothing would be read or written, so the answer can come first.
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data;/i.test(type) || !request.body) return { ok: false, status: 400, ...problem('chooseFile') };
  if (!fromOwnSite(request.headers)) return { ok: false, status: 403, ...problem('uploadForeign') };
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limits.maxRequestBytes + MULTIPART_SLACK) {
    return { ok: false, status: 413, ...uploadTooLarge(declared, limits) };
  }
  const state = { over: false };
  let form: FormData;
  try {
    form = await new Response(limitedBody(request.body, limits.maxRequestBytes + MULTIPART_SLACK, state), { headers: { 'content-type': type } }).formData();
  } catch {
    if (state.over) return { ok: false, status: 413, ...uploadTooLarge(null, limits) };
    return { ok: false, status: 400, ...problem('uploadUnreadable') };
  }
  const files = form.getAll('files').filter((f): f is File => typeof f !== 'string');
  const paths = form.getAll('paths').map(String);
  if (files.length === 0 || files.every((f) => f.size === 0 && !f.name)) return { ok: false, status: 400, ...problem('chooseFile') };
  if (files.length > MAX_UPLOAD_FILES) {
    return { ok: false, status: 413, ...problem('uploadTooManyFiles', { n: files.length, max: MAX_UPLOAD_FILES }) };
  }
  const sources = await Promise.all(
    // A path names the file inside a chosen folder (webkitRelativePath); plan.ts checks its length and characters.
    files.map(async (file, i) => ({ name: paths[i] || file.name, bytes: new Uint8Array(await file.arrayBuffer()) })),
  );
  return { ok: true, sources, validOnly: form.get('validOnly') === 'true' };
}
