// The raw ratings of one study as CSV, for administrators (studies:manage), evaluators pseudonymised.
import { route } from '@/lib/auth/route';
import { getDb } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { getStudy, listStudyAssignments } from '@/lib/db/queries/studies';
import { ratingsCsv } from '@/lib/eval/study-csv';
import { evaluatorPseudonym } from '@/lib/eval/study-pseudonym';
import { AppError } from '@/lib/errors';

export const dynamic = 'force-dynamic';

export const GET = route('studies:manage', async (_request, user, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const db = await getDb();
  const study = await getStudy({ db, id });
  if (!study) throw new AppError('not_found');
  const rows = await listStudyAssignments({ db, studyId: id });
  // Evaluators under their pseudonym in this study: the file names no one (docs/security.md).
  const csv = ratingsCsv({ studyId: id, studyName: study.name, rows: rows.map((r) => ({ ...r, evaluator: evaluatorPseudonym(id, r.evaluatorId) })) });
  await db.transaction(async (tx) => {
    await appendAudit({ tx, actorId: user.id, action: 'study.export', entityType: 'study', entityId: id, detail: { format: 'csv', rows: rows.length } });
  });
  const slug =
    study.name
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase() || 'study';
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="ratings-${slug}.csv"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
});
