'use client';
// The case page's discussion: threads about the case as a whole (the committee can open one),
// and every thread anchored to a turn or claim of the case's analyses, linked to its place in
// the transcript. The owning RM reads all of them and replies.
import { useT } from '@/lib/i18n/client';
import { reviewMessages } from '@/lib/i18n/messages/review';
import { CommentForm } from './comment-form';
import { CommentThread } from './comment-thread';
import type { ReviewState } from './review-context';
import { groupThreads } from './threads';

export function CaseDiscussion({ caseId, comments, right }: Omit<ReviewState, 'runId'>) {
  const t = useT(reviewMessages);
  const threads = groupThreads(comments);
  const general = threads.filter((th) => !th.root.runId);
  const anchored = threads.filter((th) => th.root.runId);
  return (
    <div className="space-y-4" data-testid="case-discussion">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('discussionHint')}</p>
      <section aria-labelledby="discussion-general" className="space-y-2">
        <h3 id="discussion-general" className="text-sm font-semibold">
          {t('generalThreads')}
        </h3>
        {general.length ? (
          <ul className="space-y-2" data-testid="general-threads">
            {general.map((thread) => (
              <CommentThread key={thread.root.id} thread={thread} right={right} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('noComments')}</p>
        )}
        {right === 'start' ? <CommentForm caseId={caseId} testId="case-comment-form" /> : null}
      </section>
      {anchored.length ? (
        <section aria-labelledby="discussion-anchored" className="space-y-2">
          <h3 id="discussion-anchored" className="text-sm font-semibold">
            {t('runThreads')}
          </h3>
          <ul className="space-y-2" data-testid="anchored-threads">
            {anchored.map((thread) => (
              <CommentThread key={thread.root.id} thread={thread} right={right} showAnchor />
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
