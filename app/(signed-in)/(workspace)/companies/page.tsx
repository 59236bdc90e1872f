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
import { poolMessages } from '@/lib/i18n/messages/pool';
import { getLocale, getT } from '@/lib/i18n/server';
import { FACTORS } from '@/lib/domain/factors';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(poolMessages))('companiesTitle') };
}

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function CompaniesPage({ searchParams }: { searchParams: Search }) {
  const user = await requirePermission('companies:read');
  const [t, locale] = await Promise.all([getT(poolMessages), getLocale()]);
  const params = await searchParams;
  const one = (k: string) => (typeof params[k] === 'string' ? (params[k] as string) : undefined);
  const filters: CompanyFilters = { q: one('q'), country: one('country') || undefined, industry: one('industry'), factor: one('factor') || undefined };
  const db = await getDb();
  const [companies, countries] = await Promise.all([listCompaniesWithCounts({ db, filters }), listCountries({ db })]);
  const filtered = Boolean(filters.q || filters.country || filters.industry || filters.factor);

  return (
    <>
      <PageHeader
        title={t('companiesTitle')}
        description={t('companiesDescription')}
        actions={
          can(user.role, 'pool:write') ? (
            <Link className="rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800" href="/import">
              {t('importEvidence')}
            </Link>
          ) : undefined
        }
      />
      <form method="get" className="mb-6 grid grid-cols-1 gap-3 md:grid-cols-5" role="search" aria-label={t('filterCompanies')}>
        <TextField id="q" label={t('search')} defaultValue={filters.q} placeholder={t('searchPlaceholder')} />
        <SelectField
          id="country"
          label={t('country')}
          defaultValue={filters.country ?? ''}
          options={[{ value: '', label: t('all') }, ...countries.map((c) => ({ value: c, label: c }))]}
        />
        <TextField id="industry" label={t('industry')} defaultValue={filters.industry} placeholder={t('industryPlaceholder')} />
        <SelectField
          id="factor"
          label={t('hasEvidenceOn')}
          defaultValue={filters.factor ?? ''}
          options={[{ value: '', label: t('anyFactor') }, ...FACTORS.map((f) => ({ value: f.id, label: locale === 'ko' ? f.labelKo : f.label }))]}
        />
        <div className="flex items-end gap-2">
          <Button type="submit">{t('filter')}</Button>
          {filtered ? (
            <Link className="px-2 py-2 text-sm text-blue-800 underline dark:text-blue-300" href="/companies">
              {t('clear')}
            </Link>
          ) : null}
        </div>
      </form>
      {companies.length ? (
        <CompaniesTable companies={companies} />
      ) : filtered ? (
        <EmptyState title={t('noMatch')} />
      ) : (
        <EmptyState title={t('poolEmpty')}>{t('poolEmptyHint')}</EmptyState>
      )}
    </>
  );
}
