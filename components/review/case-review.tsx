// The review parts of the case page and the run page, loading their own data so the pages
// only mount them: the decision card, the discussion card, and the run page's provider that
// gives each turn card its threads.
import type { ReactNode } from 'react';
import { Card } from '@/components/ui/layout';
import type { SessionUser } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { commentRight, listCommentsForCase, listDecisionsForCase } from '@/lib/db/queries/review';
import type { cases } from '@/lib/db/schema';
import { reviewMessages } from '@/lib/i18n/messages/review';
import { getT } from '@/lib/i18n/server';
import { CaseDiscussion } from './case-discussion';
import { DecisionPanel } from './decision-panel';
import { ReviewProvider } from './review-context';
import { toThreadComments } from './threads';

type CaseRow = Pick<typeof cases.$inferSelect, 'id' | 'ownerId' | 'status'>;

/** Nothing to show before the case first reaches the committee. */
function beforeCommittee(kase: CaseRow, count: number) {
  return (kase.status === 'draft' || kase.status === 'analyzing') && count === 0;
}

/** `form: false` (the run page) shows recorded decisions only, and nothing while there are none. */
export async function CaseDecisionCard({ user, kase, form = true }: { user: SessionUser; kase: CaseRow; form?: boolean }) {
  const db = await getDb();
  const [decisions, t] = await Promise.all([listDecisionsForCase({ db, caseId: kase.id }), getT(reviewMessages)]);
  if (beforeCommittee(kase, decisions.length) || (!form && !decisions.length)) return null;
  const canDecide = form && user.role === 'committee' && kase.status === 'submitted';
  return (
    <Card title={t('decisionTitle')}>
      <DecisionPanel caseId={kase.id} status={kase.status} decisions={decisions} canDecide={canDecide} />
    </Card>
  );
}

export async function CaseDiscussionCard({ user, kase }: { user: SessionUser; kase: CaseRow }) {
  const db = await getDb();
  const [comments, t] = await Promise.all([listCommentsForCase({ db, caseId: kase.id }), getT(reviewMessages)]);
  if (beforeCommittee(kase, comments.length)) return null;
  return (
    <Card title={t('discussionTitle')}>
      <CaseDiscussion caseId={kase.id} comments={toThreadComments(comments)} right={commentRight(user, kase)} />
    </Card>
  );
}

/** Wraps the live run so its turn cards can show and add comment threads; a run without a case gets none. */
export async function RunReview({ user, kase, runId, children }: { user: SessionUser; kase: CaseRow | null; runId: string; children: ReactNode }) {
  if (!kase) return children;
  const comments = await listCommentsForCase({ db: await getDb(), caseId: kase.id });
  return <ReviewProvider value={{ caseId: kase.id, runId, comments: toThreadComments(comments), right: commentRight(user, kase) }}>{children}</ReviewProvider>;
}
