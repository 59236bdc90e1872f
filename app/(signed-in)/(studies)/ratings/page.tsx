import type { Metadata } from 'next';
import { RatingsList } from '@/components/studies/ratings-list';
import { EmptyState, PageHeader } from '@/components/ui/layout';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { listAssignmentsForEvaluator } from '@/lib/db/queries/studies';
import { ratingMessages } from '@/lib/i18n/messages/studies-rating';
import { getT } from '@/lib/i18n/server';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getT(ratingMessages);
  return { title: t('listTitle') };
}

export default async function RatingsPage() {
  const user = await requirePermission('ratings:read-own');
  const [t, assignments] = await Promise.all([getT(ratingMessages), getDb().then((db) => listAssignmentsForEvaluator({ db, evaluatorId: user.id }))]);
  return (
    <>
      <PageHeader title={t('listTitle')} description={t('listDescription')} />
      {assignments.length ? <RatingsList assignments={assignments} t={t} /> : <EmptyState title={t('listEmptyTitle')}>{t('listEmptyBody')}</EmptyState>}
    </>
  );
}
