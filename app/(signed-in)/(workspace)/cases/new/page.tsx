import type { Metadata } from 'next';
import { CaseForm } from '@/components/case/case-form';
import { PageHeader } from '@/components/ui/layout';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { listCompaniesWithCounts } from '@/lib/db/queries/companies';
import { casesMessages } from '@/lib/i18n/messages/cases';
import { getT } from '@/lib/i18n/server';
import { isoToday } from '@/lib/util/dates';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(casesMessages))('newTitle') };
}

export default async function NewCasePage() {
  await requirePermission('cases:write');
  const t = await getT(casesMessages);
  const companies = await listCompaniesWithCounts({ db: await getDb() });
  const options = companies.map((c) => ({ id: c.id, label: c.nameEn && c.nameEn !== c.name ? `${c.name} (${c.nameEn})` : c.name }));
  return (
    <>
      <PageHeader title={t('newTitle')} description={t('newDescription')} />
      <CaseForm companies={options} today={isoToday()} />
    </>
  );
}
