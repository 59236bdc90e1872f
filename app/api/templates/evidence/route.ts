// GET /api/templates/evidence?format=csv|jsonl: an evidence file to fill in, for those who may import
// (the Import page links to it). Its columns and example rows come from the schema the import
// checks rows with (lib/pool/import/template.ts), so the template always imports as it is.
import { route } from '@/lib/auth/route';
import { AppError } from '@/lib/errors';
import { evidenceTemplate, isTemplateFormat } from '@/lib/pool/import/template';

export const dynamic = 'force-dynamic';

export const GET = route('pool:write', async (request) => {
  const format = new URL(request.url).searchParams.get('format') ?? 'csv';
  if (!isTemplateFormat(format)) throw new AppError('bad_request', `Unknown template format "${format.slice(0, 20)}": use csv or jsonl.`);
  const file = evidenceTemplate(format);
  return new Response(file.body, {
    headers: {
      'Content-Type': file.contentType,
      'Content-Disposition': `attachment; filename="${file.filename}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
});
