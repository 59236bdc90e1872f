'use client';
// A turn card's comment threads (mounted in components/run/transcript.tsx): folded by default,
// showing how many comments the turn has; the committee opens threads on the turn or one of
// its claims, the owning RM replies.
import { useT } from '@/lib/i18n/client';
import { reviewMessages } from '@/lib/i18n/messages/review';
import { CommentForm } from './comment-form';
import { CommentThread } from './comment-thread';
import { useReview } from './review-context';
import { groupThreads } from './threads';

export function TurnComments({ step, claimIds }: { step: string; claimIds: string[] }) {
  const review = useReview();
  const t = useT(reviewMessages);
  if (!review?.runId) return null;
  const mine = review.comments.filter((c) => c.runId === review.runId && c.stepId === step);
  if (!mine.length && review.right !== 'start') return null;
  const threads = groupThreads(mine);
  return (
    <details className="mt-3 border-t border-zinc-200 pt-2 dark:border-zinc-800" data-testid="turn-comments">
      <summary className="cursor-pointer text-sm font-medium text-blue-800 dark:text-blue-300" data-testid="turn-comments-toggle">
        {mine.length ? t('threadToggle', { n: mine.length }) : t('threadToggleEmpty')}
      </summary>
      <section className="mt-2 space-y-3" aria-label={t('turnThreads', { step })}>
        {threads.length ? (
          <ul className="space-y-2">
            {threads.map((thread) => (
              <CommentThread key={thread.root.id} thread={thread} right={review.right} />
            ))}
          </ul>
        ) : null}
        {review.right === 'start' ? (
          <CommentForm caseId={review.caseId} runId={review.runId} stepId={step} claimIds={claimIds} testId="turn-comment-form" />
        ) : null}
      </section>
    </details>
  );
}
