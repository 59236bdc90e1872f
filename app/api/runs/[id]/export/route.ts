// GET /api/runs/{id}/export?format=pdf|md|json[&lang=ko|en]: the run's report as a file
// (docs/run-export.md). Who may export is who may read the run (lib/auth/run-access.ts).
import { assertRunAccess } from '@/lib/auth/run-access';
import { route } from '@/lib/auth/route';
import { getDb } from '@/lib/db/client';
import { AppError } from '@/lib/errors';
import { isLocale } from '@/lib/i18n';
import { exportRun, isExportFormat } from '@/lib/report/export';

export const dynamic = 'force-dynamic';

export const GET = route('runs:read', async (request, user, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const url = new URL(request.url);
  const format = url.searchParams.get('format');
  if (!isExportFormat(format)) throw new AppError('bad_request', `Unknown export format "${format ?? ''}": use pdf, md or json.`);
  const lang = url.searchParams.get('lang');
  if (lang !== null && !isLocale(lang)) throw new AppError('bad_request', `Unknown language "${lang}": use ko or en.`);
  await assertRunAccess(user, id, 'read');

  const file = await exportRun({ db: await getDb(), actorId: user.id, runId: id, format, locale: lang ?? undefined });
  return new Response(file.body as BodyInit, {
    headers: {
      'Content-Type': file.contentType,
      'Content-Disposition': file.contentDisposition,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
});
