import type { Metadata } from 'next';
import Link from 'next/link';
import { CasesTable } from '@/components/lists/cases-table';
import { SelectField } from '@/components/ui/field';
import { EmptyState, PageHeader } from '@/components/ui/layout';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { listCaseCompaniesForOwner, listCasesForOwner } from '@/lib/db/queries/cases';
import { CASE_STATUSES, type CaseStatus } from '@/lib/domain/vocabulary';
import { casesMessages } from '@/lib/i18n/messages/cases';
import { getT } from '@/lib/i18n/server';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(casesMessages))('title') };
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';

export default async function CasesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePermission('cases:read-own');
  const t = await getT(casesMessages);
  const params = await searchParams;
  const status = (CASE_STATUSES as readonly string[]).includes(first(params.status)) ? (first(params.status) as CaseStatus) : undefined;
  const companyId = first(params.company) || undefined;
  const db = await getDb();
  const [cases, companies] = await Promise.all([
    listCasesForOwner({ db, ownerId: user.id, filters: { status, companyId } }),
    listCaseCompaniesForOwner({ db, ownerId: user.id }),
  ]);
  const filtered = Boolean(status || companyId);
  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <Link href="/cases/new" className="rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800" data-testid="new-case">
            {t('newCase')}
          </Link>
        }
      />
      {/* A plain GET form: the filters live in the URL, so a filtered list can be bookmarked and shared. */}
      <form method="get" className="mb-4 flex flex-wrap items-end gap-3" aria-label={t('applyFilters')}>
        <div className="w-48">
          <SelectField
            id="status"
            label={t('filterStatus')}
            defaultValue={status ?? ''}
            options={[{ value: '', label: t('allStatuses') }, ...CASE_STATUSES.map((s) => ({ value: s, label: t(`status_${s}`) }))]}
          />
        </div>
        <div className="w-64">
          <SelectField
            id="company"
            label={t('filterCompany')}
            defaultValue={companyId ?? ''}
            options={[{ value: '', label: t('allCompanies') }, ...companies.map((c) => ({ value: c.id, label: c.nameEn ?? c.name }))]}
          />
        </div>
        <button
          type="submit"
          className="rounded-md border border-zinc-300 bg-white px-4 py-2 text-sm font-medium hover:bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-900 dark:hover:bg-zinc-800"
        >
          {t('applyFilters')}
        </button>
        {filtered ? (
          <Link href="/cases" className="px-2 py-2 text-sm text-blue-800 underline dark:text-blue-300">
            {t('clearFilters')}
          </Link>
        ) : null}
      </form>
      {cases.length ? (
        <CasesTable cases={cases} caption={t('yourCases')} />
      ) : (
        <EmptyState title={filtered ? t('noMatches') : t('noCases')}>{filtered ? null : t('noCasesHint')}</EmptyState>
      )}
    </>
  );
}
