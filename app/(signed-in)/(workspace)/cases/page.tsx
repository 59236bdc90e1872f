import type { Metadata } from 'next';
import Link from 'next/link';
import { CasesTable } from '@/components/lists/cases-table';
import { EmptyState, PageHeader } from '@/components/ui/layout';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { listCasesForOwner } from '@/lib/db/queries/cases';

export const metadata: Metadata = { title: 'Cases' };

export default async function CasesPage() {
  const user = await requirePermission('cases:read-own');
  const cases = await listCasesForOwner({ db: await getDb(), ownerId: user.id });
  return (
    <>
      <PageHeader title="Cases" description="Your screening cases: one borrower, one loan request, analysed as of a date." />
      {cases.length ? (
        <CasesTable cases={cases} caption="Your cases" />
      ) : (
        <EmptyState title="No cases yet">
          A case pairs a borrower from <Link className="underline" href="/companies">Companies</Link> with a loan request and an as-of date.
        </EmptyState>
      )}
    </>
  );
}
