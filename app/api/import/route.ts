// POST /api/import: the Import page's upload. A route handler rather than a server action so the
// body streams in under our own limit (lib/pool/import/upload.ts) instead of the action's and the
// proxy's; proxy.ts leaves this path alone, so the checks it would make happen here, before the
// body is read: session and role (route), then origin and size.
import { revalidatePath } from 'next/cache';
import { route } from '@/lib/auth/route';
import { getDb } from '@/lib/db/client';
import { AppError } from '@/lib/errors';
import { say } from '@/lib/i18n';
import { importMessages } from '@/lib/i18n/messages/import';
import { importPool } from '@/lib/pool/import';
import type { ImportResponse } from '@/lib/pool/import/response';
import { readImportUpload } from '@/lib/pool/import/upload';

export const dynamic = 'force-dynamic';

// The report can name thousands of rows; the page shows this many and the count of the rest.
const MAX_REPORTED = 500;

export const POST = route('pool:write', async (request, user) => {
  const upload = await readImportUpload(request);
  if (!upload.ok) {
    // Refusals go through the wrapper (a forbidden one is audited); 413 has no code of its own.
    if (upload.status === 413) return Response.json({ code: 'bad_request', message: upload.message, phrase: upload.phrase }, { status: 413 });
    throw new AppError(
      upload.status === 403 ? 'forbidden' : 'bad_request',
      say(importMessages, upload.phrase.key as keyof typeof importMessages.en, upload.phrase.values),
    );
  }
  const { sources, validOnly } = upload;
  const report = await importPool({
    db: await getDb(),
    sources,
    actorId: user.id,
    validOnly,
    label: sources
      .map((s) => s.name)
      .slice(0, 20)
      .join(', '),
    // Changing an existing company's profile is an administrator's; anyone else's import only adds and fills.
    companyProfiles: user.role === 'admin' ? 'replace' : 'fill',
  });
  if (report.written) revalidatePath('/companies', 'layout');
  const body: ImportResponse = { ...report, rejected: report.rejected.slice(0, MAX_REPORTED), rejectedCount: report.rejected.length };
  return Response.json(body, { headers: { 'Cache-Control': 'no-store' } });
});
