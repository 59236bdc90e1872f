// The review parts of the case page and the run page: the decision card, the discussion card,
// and the run page's provider that gives each turn card its threads. The pages load the
// decisions and comments (lib/db/queries/review.ts) and pass them in: components never read the
// database.
import type { ReactNode } from 'react';
import { Card } from '@/components/ui/layout';
import type { SessionUser } from '@/lib/auth/session';
import type { CaseStatus } from '@/lib/domain/vocabulary';
import { reviewMessages } from '@/lib/i18n/messages/review';
import { getT } from '@/lib/i18n/server';
import { CaseDiscussion } from './case-discussion';
import { DecisionPanel } from './decision-panel';
import { ReviewProvider } from './review-context';
import { toThreadComments } from './threads';

type CaseRow = { id: string; status: CaseStatus };
type Panel = Parameters<typeof DecisionPanel>[0];
type Decisions = Panel['decisions'];
type Comments = Parameters<typeof toThreadComments>[0];
type Right = Parameters<typeof CaseDiscussion>[0]['right'];

/** Nothing to show before the case first reaches the committee. */
function beforeCommittee(kase: CaseRow, count: number) {
  return (kase.status === 'draft' || kase.status === 'analyzing') && count === 0;
}

/** `form: false` (the run page) shows recorded decisions only, and nothing while there are none. */
export async function CaseDecisionCard({
  user,
  kase,
  decisions,
  form = true,
  round = null,
  decisionVotes,
}: {
  user: SessionUser;
  kase: CaseRow;
  decisions: Decisions;
  form?: boolean;
  /** The open round's votes and the form's options (lib/db/queries/oversight.ts, lib/report/oversight.ts). */
  round?: Panel['round'];
  decisionVotes?: Panel['decisionVotes'];
}) {
  if (beforeCommittee(kase, decisions.length) || (!form && !decisions.length)) return null;
  const t = await getT(reviewMessages);
  const canDecide = form && user.role === 'committee' && kase.status === 'submitted';
  return (
    <Card title={t('decisionTitle')}>
      <DecisionPanel caseId={kase.id} status={kase.status} decisions={decisions} canDecide={canDecide} round={round} decisionVotes={decisionVotes} />
    </Card>
  );
}

/** `right`: what the reader may write in the case's threads (commentRight in lib/db/queries/review.ts). */
export async function CaseDiscussionCard({ kase, comments, right }: { kase: CaseRow; comments: Comments; right: Right }) {
  if (beforeCommittee(kase, comments.length)) return null;
  const t = await getT(reviewMessages);
  return (
    <Card title={t('discussionTitle')}>
      <CaseDiscussion caseId={kase.id} comments={toThreadComments(comments)} right={right} />
    </Card>
  );
}

/** Wraps the live run so its turn cards can show and add comment threads; a run without a case gets none. */
export function RunReview({
  review,
  runId,
  children,
}: {
  review: { caseId: string; comments: Comments; right: Right } | null;
  runId: string;
  children: ReactNode;
}) {
  if (!review) return children;
  return <ReviewProvider value={{ caseId: review.caseId, runId, comments: toThreadComments(review.comments), right: review.right }}>{children}</ReviewProvider>;
}
