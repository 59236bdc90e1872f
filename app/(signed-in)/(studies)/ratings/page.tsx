import type { Metadata } from 'next';
import { RatingsList } from '@/components/studies/ratings-list';
import { Card, EmptyState, PageHeader } from '@/components/ui/layout';
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
      {/* Exactly who sees what (issue 30, item 2; docs/security.md "Evaluators' ratings"). */}
      <div className="mt-6" data-testid="ratings-privacy">
        <Card title={t('privacyTitle')}>
          <ul className="list-disc space-y-1 pl-5 text-sm">
            <li>{t('privacyAdmins')}</li>
            <li>{t('privacyProgress')}</li>
            <li>{t('privacyOthers')}</li>
            <li>{t('privacyOperators')}</li>
          </ul>
        </Card>
      </div>
    </>
  );
}
