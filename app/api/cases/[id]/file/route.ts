// GET /api/cases/{id}/file: the examiner's case file of one case, a zip (docs/case-file.md).
// The credit committee for a case it may read (submitted or decided), an administrator for any
// case; each download is audited as `case.file_export`.
import { assertCaseAccess } from '@/lib/auth/run-access';
import { route } from '@/lib/auth/route';
import { getDb } from '@/lib/db/client';
import { AppError } from '@/lib/errors';
import { caseExists } from '@/lib/db/queries/case-file';
import { exportCaseFile } from '@/lib/report/case-file';
import { contentDisposition } from '@/lib/report/export';

export const dynamic = 'force-dynamic';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const GET = route('cases:file-export', async (_request, user, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  if (!UUID.test(id)) throw new AppError('not_found', 'This case does not exist.');
  const db = await getDb();
  // An administrator answers to the examiner for every case; a committee member only for the cases it reviews.
  if (user.role === 'admin') {
    if (!(await caseExists({ db, id }))) throw new AppError('not_found', 'This case does not exist.');
  } else await assertCaseAccess(user, id, 'read');
  const file = await exportCaseFile({ db, caseId: id, by: { id: user.id, name: user.name, role: user.role } });
  return new Response(file.zip as BodyInit, {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': contentDisposition({ readable: file.filename, ascii: file.filename }),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
});
