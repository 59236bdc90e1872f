// A case's runs as JSON, for the case page's list while runs are going (React Query polls it).
import { assertCaseAccess } from '@/lib/auth/run-access';
import { route } from '@/lib/auth/route';
import { getDb } from '@/lib/db/client';
import { listRunsForCase } from '@/lib/db/queries/cases';

export const dynamic = 'force-dynamic';

export const GET = route<{ params: Promise<{ id: string }> }>('runs:read', async (_request, user, { params }) => {
  const { id } = await params;
  await assertCaseAccess(user, id, 'read');
  const runs = await listRunsForCase({ db: await getDb(), caseId: id });
  return Response.json({ runs }, { headers: { 'Cache-Control': 'no-store' } });
});
