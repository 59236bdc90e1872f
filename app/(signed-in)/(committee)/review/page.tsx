import type { Metadata } from 'next';
import { ReviewQueue } from '@/components/review/review-queue';
import { EmptyState, PageHeader } from '@/components/ui/layout';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { listReviewQueue } from '@/lib/db/queries/review';
import { oversightMessages } from '@/lib/i18n/messages/oversight';
import { reviewMessages } from '@/lib/i18n/messages/review';
import { getT } from '@/lib/i18n/server';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(reviewMessages))('title') };
}

export default async function ReviewPage() {
  await requirePermission('review:read');
  const [{ waiting, decided }, t, to] = await Promise.all([listReviewQueue({ db: await getDb() }), getT(reviewMessages), getT(oversightMessages)]);
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <section aria-labelledby="review-waiting">
        <h2 id="review-waiting" className="mb-3 text-lg font-semibold">
          {t('waitingHeading', { n: waiting.length })}
        </h2>
        {waiting.length ? (
          <ReviewQueue
            rows={waiting.map((r) => ({ ...r, decidedAt: null }))}
            caption={t('waitingCaption')}
            decided={false}
            t={t}
            soleProprietorLabel={to('soleProprietorBadge')}
          />
        ) : (
          <EmptyState title={t('nothingToReview')}>{t('nothingHint')}</EmptyState>
        )}
      </section>
      <section aria-labelledby="review-decided" className="mt-8">
        <h2 id="review-decided" className="mb-3 text-lg font-semibold">
          {t('decidedHeading', { n: decided.length })}
        </h2>
        {decided.length ? (
          <ReviewQueue rows={decided} caption={t('decidedCaption')} decided t={t} soleProprietorLabel={to('soleProprietorBadge')} />
        ) : (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('noDecisions')}</p>
        )}
      </section>
    </>
  );
}
