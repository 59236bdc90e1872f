import type { Metadata } from 'next';
import Link from 'next/link';
import { formatDateTime } from '@/components/lists/format';
import { StudyStatusBadge } from '@/components/studies/study-status-badge';
import { DataTable, EmptyState, PageHeader, Td } from '@/components/ui/layout';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { listStudies } from '@/lib/db/queries/studies';
import { studiesMessages } from '@/lib/i18n/messages/studies';
import { getT } from '@/lib/i18n/server';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getT(studiesMessages);
  return { title: t('title') };
}

export default async function StudiesPage() {
  await requirePermission('studies:manage');
  const [t, studies] = await Promise.all([getT(studiesMessages), getDb().then((db) => listStudies({ db }))]);
  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <Link href="/admin/studies/new" className="rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800" data-testid="new-study">
            {t('newStudy')}
          </Link>
        }
      />
      {studies.length ? (
        <DataTable caption={t('caption')} head={[t('colStudy'), t('colStatus'), t('colSubmitted'), t('colCreatedBy'), t('colCreated')]}>
          {studies.map((s) => (
            <tr key={s.id} data-testid="study-row">
              <Td className="font-medium">
                <Link href={`/admin/studies/${s.id}`} className="text-blue-800 underline underline-offset-2 dark:text-blue-300">
                  {s.name}
                </Link>
              </Td>
              <Td>
                <StudyStatusBadge status={s.status} label={t(`status_${s.status}`)} />
              </Td>
              <Td>{t('submittedOf', { done: s.submitted, total: s.assignments })}</Td>
              <Td>{s.createdByName}</Td>
              <Td>{formatDateTime(s.createdAt)}</Td>
            </tr>
          ))}
        </DataTable>
      ) : (
        <EmptyState title={t('emptyTitle')}>{t('emptyBody')}</EmptyState>
      )}
    </>
  );
}
