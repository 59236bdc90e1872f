import type { Metadata } from 'next';
import { AssignmentsList } from '@/components/lists/assignments-list';
import { EmptyState, PageHeader } from '@/components/ui/layout';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { listAssignmentsForEvaluator } from '@/lib/db/queries/studies';

export const metadata: Metadata = { title: 'My ratings' };

export default async function RatingsPage() {
  const user = await requirePermission('ratings:read-own');
  const assignments = await listAssignmentsForEvaluator({ db: await getDb(), evaluatorId: user.id });
  return (
    <>
      <PageHeader
        title="My ratings"
        description="Reports assigned to you in evaluation studies. Reports are blinded: you will not see which system wrote them."
      />
      {assignments.length ? (
        <AssignmentsList assignments={assignments} />
      ) : (
        <EmptyState title="No reports assigned to you">An administrator assigns reports to evaluators when a study opens.</EmptyState>
      )}
    </>
  );
}
