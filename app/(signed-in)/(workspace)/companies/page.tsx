import type { Metadata } from 'next';
import { CompaniesTable } from '@/components/lists/companies-table';
import { EmptyState, PageHeader } from '@/components/ui/layout';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { listCompaniesWithCounts } from '@/lib/db/queries/companies';

export const metadata: Metadata = { title: 'Companies' };

export default async function CompaniesPage() {
  await requirePermission('companies:read');
  const companies = await listCompaniesWithCounts({ db: await getDb() });
  return (
    <>
      <PageHeader
        title="Companies"
        description="Borrowers in the knowledge pool, with their dated and sourced evidence."
      />
      {companies.length ? (
        <CompaniesTable companies={companies} />
      ) : (
        <EmptyState title="The knowledge pool is empty">
          Load companies and evidence with <code className="font-mono">npm run db:seed</code> (demo data) or an import.
        </EmptyState>
      )}
    </>
  );
}
