// The credit committee's review of a case: its queue, comment threads anchored to a case, a
// run's turn or one of a turn's claims, and decisions. The rules (who may start a thread or
// reply, what a decision needs) are pure functions here so tests can read them next to the
// queries that rely on them.
import 'server-only';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { cases, comments, companies, decisions, runs, runSteps, users } from '@/lib/db/schema';
import { claimsOf } from '@/lib/domain/output-parts';
import type { CaseComment, CaseDecision, CommentRight, ReviewQueueItem } from '@/lib/domain/views';
import type { CaseStatus, DecisionOutcome, Role } from '@/lib/domain/vocabulary';

/** Statuses of the committee's second list: the round is over, whatever the outcome. */
export const DECIDED_STATUSES: readonly CaseStatus[] = ['decided', 'returned'];

/** A decision's effect on the case: "return to RM" hands the case back; the rest close it. */
export function statusAfterDecision(outcome: DecisionOutcome): CaseStatus {
  return outcome === 'return' ? 'returned' : 'decided';
}

/**
 * Who may write in a case's threads, given they can already read the case: a committee member
 * starts threads and replies while the case is submitted (the round is open); the owning RM
 * answers the committee, in any status, but never opens a thread on their own case.
 */
export function commentRight(user: { id: string; role: Role }, kase: { ownerId: string; status: CaseStatus }): CommentRight {
  if (user.role === 'committee') return kase.status === 'submitted' ? 'start' : 'none';
  if (user.role === 'rm' && kase.ownerId === user.id) return 'reply';
  return 'none';
}

export type DecisionInput = { outcome: DecisionOutcome; rationale: string; conditions?: string | null };

/** Field errors (message keys of lib/i18n/messages/review.ts) for a decision, or null. */
export function decisionProblems({ outcome, rationale, conditions }: DecisionInput): Record<string, string[]> | null {
  const problems: Record<string, string[]> = {};
  if (!rationale.trim()) problems.rationale = ['errRationale'];
  if (outcome === 'approve_with_conditions' && !conditions?.trim()) problems.conditions = ['errConditions'];
  return Object.keys(problems).length ? problems : null;
}

const latestDecision = (column: 'outcome' | 'created_at') =>
  sql.raw(`(select d.${column} from decisions d where d.case_id = "cases"."id" order by d.created_at desc limit 1)`);

/** The committee's queue: submitted cases first (oldest submission first), then decided or returned ones. */
export async function listReviewQueue({ db }: { db: Executor }): Promise<{ waiting: ReviewQueueItem[]; decided: ReviewQueueItem[] }> {
  const rows = await db
    .select({
      id: cases.id,
      title: cases.title,
      status: cases.status,
      asOfDate: cases.asOfDate,
      loanAmount: cases.loanAmount,
      loanCurrency: cases.loanCurrency,
      loanTenorMonths: cases.loanTenorMonths,
      submittedAt: cases.submittedAt,
      submissionNote: cases.submissionNote,
      companyName: companies.name,
      companyNameEn: companies.nameEn,
      soleProprietor: companies.soleProprietor,
      ownerName: users.name,
      runCount: sql<number>`(select count(*)::int from ${runs} where ${runs.caseId} = ${cases.id})`,
      commentCount: sql<number>`(select count(*)::int from ${comments} where ${comments.caseId} = ${cases.id})`,
      outcome: sql<DecisionOutcome | null>`${latestDecision('outcome')}`,
      decidedAt: sql<Date | string | null>`${latestDecision('created_at')}`,
    })
    .from(cases)
    .innerJoin(companies, eq(companies.id, cases.companyId))
    .innerJoin(users, eq(users.id, cases.ownerId))
    .where(inArray(cases.status, ['submitted', ...DECIDED_STATUSES]))
    .orderBy(asc(cases.submittedAt));
  // A raw subquery's timestamp comes back as a string on some drivers: one Date for every row.
  const items = rows.map((r) => ({ ...r, decidedAt: r.decidedAt ? new Date(r.decidedAt) : null }));
  const waiting = items.filter((r) => r.status === 'submitted');
  const decided = items.filter((r) => r.status !== 'submitted').sort((a, b) => (b.decidedAt?.getTime() ?? 0) - (a.decidedAt?.getTime() ?? 0));
  return { waiting, decided };
}

/** Every comment on a case (general and anchored), oldest first, with its author. */
export async function listCommentsForCase({ db, caseId }: { db: Executor; caseId: string }): Promise<CaseComment[]> {
  return db
    .select({
      id: comments.id,
      caseId: comments.caseId,
      runId: comments.runId,
      stepId: comments.stepId,
      claimId: comments.claimId,
      parentId: comments.parentId,
      body: comments.body,
      createdAt: comments.createdAt,
      authorId: comments.authorId,
      authorName: users.name,
      authorRole: users.role,
    })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.authorId))
    .where(eq(comments.caseId, caseId))
    .orderBy(asc(comments.createdAt), asc(comments.id));
}

export async function getComment({ db, id }: { db: Executor; id: string }) {
  const [row] = await db.select().from(comments).where(eq(comments.id, id));
  return row;
}

export type NewComment = {
  caseId: string;
  runId: string | null;
  stepId: string | null;
  claimId: string | null;
  parentId: string | null;
  authorId: string;
  body: string;
};

export async function insertComment({ db, values }: { db: Executor; values: NewComment }) {
  const [row] = await db.insert(comments).values(values).returning();
  return row;
}

export type AnchorProblem = 'run' | 'step' | 'claim';

/**
 * Checks that an anchor names something real in this case: the run belongs to the case, the
 * turn is one of the run's steps, the claim one of that turn's claims. Null when it holds.
 */
export async function anchorProblem({
  db,
  caseId,
  runId,
  stepId,
  claimId,
}: {
  db: Executor;
  caseId: string;
  runId: string | null;
  stepId: string | null;
  claimId: string | null;
}): Promise<AnchorProblem | null> {
  if (!runId) return stepId || claimId ? 'run' : null;
  const [run] = await db.select({ caseId: runs.caseId }).from(runs).where(eq(runs.id, runId));
  if (!run || run.caseId !== caseId) return 'run';
  if (!stepId) return claimId ? 'step' : null;
  const [step] = await db
    .select({ output: runSteps.output })
    .from(runSteps)
    .where(and(eq(runSteps.runId, runId), eq(runSteps.stepId, stepId)));
  if (!step) return 'step';
  if (claimId && !claimsOf(step.output).some((c) => c.id === claimId)) return 'claim';
  return null;
}

/** A case's decisions, newest first: one per submission round. */
export async function listDecisionsForCase({ db, caseId }: { db: Executor; caseId: string }): Promise<CaseDecision[]> {
  return db
    .select({
      id: decisions.id,
      outcome: decisions.outcome,
      rationale: decisions.rationale,
      conditions: decisions.conditions,
      createdAt: decisions.createdAt,
      deciderName: users.name,
    })
    .from(decisions)
    .innerJoin(users, eq(users.id, decisions.decidedById))
    .where(eq(decisions.caseId, caseId))
    .orderBy(desc(decisions.createdAt));
}

/**
 * Records the round's decision and moves the case on, in the caller's transaction. The status
 * update only matches a submitted case, so of two members deciding at once exactly one wins
 * (PostgreSQL re-checks the condition after the row lock); returns null for the loser.
 */
export async function recordDecision({
  db,
  caseId,
  deciderId,
  outcome,
  rationale,
  conditions,
}: DecisionInput & { db: Executor; caseId: string; deciderId: string }) {
  const moved = await db
    .update(cases)
    .set({ status: statusAfterDecision(outcome), updatedAt: new Date() })
    .where(and(eq(cases.id, caseId), eq(cases.status, 'submitted')))
    .returning({ id: cases.id });
  if (!moved.length) return null;
  const [row] = await db
    .insert(decisions)
    .values({
      caseId,
      decidedById: deciderId,
      outcome,
      rationale: rationale.trim(),
      conditions: conditions?.trim() || null,
    })
    .returning();
  return row;
}
