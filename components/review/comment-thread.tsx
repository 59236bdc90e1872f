'use client';
// One thread: the comment that opened it, its replies, and a folded reply form for those who may write.
import Link from 'next/link';
import { formatDateTime } from '@/components/lists/format';
import { Badge } from '@/components/ui/layout';
import type { CommentRight } from '@/lib/domain/views';
import { useT } from '@/lib/i18n/client';
import { reviewMessages } from '@/lib/i18n/messages/review';
import { CommentForm } from './comment-form';
import type { Thread, ThreadComment } from './threads';

function CommentBody({ comment }: { comment: ThreadComment }) {
  const t = useT(reviewMessages);
  return (
    <div data-testid="comment" data-comment-id={comment.id}>
      <p className="flex flex-wrap items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
        <span className="font-semibold text-zinc-900 dark:text-zinc-100">{comment.authorName}</span>
        <Badge tone={comment.authorRole === 'committee' ? 'blue' : 'neutral'}>{t(`role_${comment.authorRole}`)}</Badge>
        <time dateTime={comment.createdAt}>{formatDateTime(new Date(comment.createdAt))}</time>
      </p>
      <p className="mt-1 whitespace-pre-line text-sm" data-testid="comment-body">
        {comment.body}
      </p>
    </div>
  );
}

/** Where an anchored thread points, as a link into the run's transcript (case page only). */
export function AnchorLink({ comment }: { comment: ThreadComment }) {
  const t = useT(reviewMessages);
  if (!comment.runId || !comment.stepId) return null;
  const label = comment.claimId ? t('onClaim', { step: comment.stepId, id: comment.claimId }) : t('onTurn', { step: comment.stepId });
  const hash = comment.claimId ? `claim-${comment.claimId}` : `turn-${comment.stepId}`;
  return (
    <Link href={`/runs/${comment.runId}#${hash}`} className="text-xs font-medium text-blue-800 underline dark:text-blue-300" data-testid="comment-anchor">
      {label}
    </Link>
  );
}

export function CommentThread({ thread, right, showAnchor = false }: { thread: Thread; right: CommentRight; showAnchor?: boolean }) {
  const t = useT(reviewMessages);
  const { root, replies } = thread;
  return (
    <li className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800" data-testid="comment-thread">
      {showAnchor ? (
        <div className="mb-1">
          <AnchorLink comment={root} />
        </div>
      ) : root.claimId ? (
        <p className="mb-1 text-xs font-medium text-zinc-700 dark:text-zinc-300">{t('anchorClaim', { id: root.claimId })}</p>
      ) : null}
      <CommentBody comment={root} />
      {replies.length ? (
        <ol className="mt-2 space-y-2 border-l-2 border-zinc-200 pl-3 dark:border-zinc-700">
          {replies.map((r) => (
            <li key={r.id}>
              <CommentBody comment={r} />
            </li>
          ))}
        </ol>
      ) : null}
      {right !== 'none' ? (
        <details className="mt-2">
          <summary className="cursor-pointer text-sm font-medium text-blue-800 dark:text-blue-300" data-testid="reply-toggle">
            {t('postReply')}
          </summary>
          <div className="mt-2">
            <CommentForm caseId={root.caseId} parentId={root.id} testId="reply-form" />
          </div>
        </details>
      ) : null}
    </li>
  );
}
