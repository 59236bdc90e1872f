import type { Metadata } from 'next';
import { CasesTable } from '@/components/lists/cases-table';
import { EmptyState, PageHeader } from '@/components/ui/layout';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { listCasesByStatus } from '@/lib/db/queries/cases';

export const metadata: Metadata = { title: 'Review' };

export default async function ReviewPage() {
  await requirePermission('review:read');
  const db = await getDb();
  const [waiting, decided] = await Promise.all([
    listCasesByStatus({ db, statuses: ['submitted'] }),
    listCasesByStatus({ db, statuses: ['decided'] }),
  ]);
  return (
    <>
      <PageHeader title="Review" description="Cases relationship managers have submitted to the credit committee." />
      <h2 className="mb-3 text-lg font-semibold">Waiting for a decision ({waiting.length})</h2>
      {waiting.length ? (
        <CasesTable cases={waiting} caption="Cases waiting for a decision" showOwner />
      ) : (
        <EmptyState title="Nothing to review">Cases appear here when an RM submits them to the committee.</EmptyState>
      )}
      <h2 className="mb-3 mt-8 text-lg font-semibold">Decided ({decided.length})</h2>
      {decided.length ? (
        <CasesTable cases={decided} caption="Decided cases" showOwner />
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No decisions recorded yet.</p>
      )}
    </>
  );
}
