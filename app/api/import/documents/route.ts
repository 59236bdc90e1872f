// POST /api/import/documents: a filing or document uploaded from a company's page. A route handler
// rather than a server action for the same reason as /api/import (its body streams in under the
// import's own limit), and under /api/import so proxy.ts leaves its body alone; the session, role
// and origin are checked here before the body is read. The text is read in a worker thread; a
// configured model reads it for candidates after the answer (lib/jobs/document-reading.ts).
import { revalidatePath } from 'next/cache';
import { route } from '@/lib/auth/route';
import { getDb } from '@/lib/db/client';
import { AppError } from '@/lib/errors';
import { say } from '@/lib/i18n';
import { importMessages } from '@/lib/i18n/messages/import';
import { configuredReader, uploadAndRead } from '@/lib/jobs/document-reading';
import { readDocumentUpload } from '@/lib/pool/documents/upload';

export const dynamic = 'force-dynamic';

export const POST = route('pool:write', async (request, user) => {
  const upload = await readDocumentUpload(request);
  if (!upload.ok) {
    if (upload.status === 413) return Response.json({ code: 'bad_request', message: upload.message, phrase: upload.phrase }, { status: 413 });
    throw new AppError(
      upload.status === 403 ? 'forbidden' : 'bad_request',
      say(importMessages, upload.phrase.key as keyof typeof importMessages.en, upload.phrase.values),
    );
  }
  // With a configured model, its reading goes on after this answer (it records its own outcome).
  const { result } = await uploadAndRead({ db: await getDb(), file: upload.file, details: upload.details, actorId: user.id, provider: configuredReader() });
  if (!result.ok) return Response.json({ code: 'bad_request', ...result }, { status: 400, headers: { 'Cache-Control': 'no-store' } });
  revalidatePath(`/companies/${upload.details.company_id}`);
  return Response.json(result, { headers: { 'Cache-Control': 'no-store' } });
});
