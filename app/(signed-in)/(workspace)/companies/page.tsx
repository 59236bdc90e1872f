import type { Metadata } from 'next';
import Link from 'next/link';
import { CompaniesTable } from '@/components/lists/companies-table';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { EmptyState, PageHeader } from '@/components/ui/layout';
import { can } from '@/lib/auth/permissions';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { listCompaniesWithCounts, listCountries, type CompanyFilters } from '@/lib/db/queries/companies';
import { FACTORS } from '@/lib/pool/factors';

export const metadata: Metadata = { title: 'Companies' };

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function CompaniesPage({ searchParams }: { searchParams: Search }) {
  const user = await requirePermission('companies:read');
  const params = await searchParams;
  const one = (k: string) => (typeof params[k] === 'string' ? (params[k] as string) : undefined);
  const filters: CompanyFilters = { q: one('q'), country: one('country') || undefined, industry: one('industry'), factor: one('factor') || undefined };
  const db = await getDb();
  const [companies, countries] = await Promise.all([listCompaniesWithCounts({ db, filters }), listCountries({ db })]);
  const filtered = Boolean(filters.q || filters.country || filters.industry || filters.factor);

  return (
    <>
      <PageHeader
        title="Companies"
        description="Borrowers in the knowledge pool, with their dated and sourced evidence."
        actions={
          can(user.role, 'pool:write') ? (
            <Link className="rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800" href="/import">
              Import evidence
            </Link>
          ) : undefined
        }
      />
      <form method="get" className="mb-6 grid gap-3 md:grid-cols-5" role="search" aria-label="Filter companies">
        <TextField id="q" label="Search" defaultValue={filters.q} placeholder="Name, id or ticker" />
        <SelectField id="country" label="Country" defaultValue={filters.country ?? ''} options={[{ value: '', label: 'All' }, ...countries.map((c) => ({ value: c, label: c }))]} />
        <TextField id="industry" label="Industry" defaultValue={filters.industry} placeholder="e.g. 건설 or vehicles" />
        <SelectField
          id="factor"
          label="Has evidence on"
          defaultValue={filters.factor ?? ''}
          options={[{ value: '', label: 'Any factor' }, ...FACTORS.map((f) => ({ value: f.id, label: f.label }))]}
        />
        <div className="flex items-end gap-2">
          <Button type="submit">Filter</Button>
          {filtered ? (
            <Link className="px-2 py-2 text-sm text-blue-800 underline dark:text-blue-300" href="/companies">
              Clear
            </Link>
          ) : null}
        </div>
      </form>
      {companies.length ? (
        <CompaniesTable companies={companies} />
      ) : filtered ? (
        <EmptyState title="No company matches these filters" />
      ) : (
        <EmptyState title="The knowledge pool is empty">Import companies and evidence to start.</EmptyState>
      )}
    </>
  );
}
