'use server';
// The committee's review: comment threads and the decision. Who may write what is in
// lib/db/queries/review.ts (commentRight, decisionProblems); seeing the case at all is
// lib/auth/run-access.ts. Each write and its audit entry share one transaction.
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action } from '@/lib/auth/action';
import { assertCaseAccess } from '@/lib/auth/run-access';
import { getDb } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { lockCaseStatus } from '@/lib/db/queries/cases';
import { notifyCaseDecided, notifyCommentAdded } from '@/lib/db/queries/notifications';
import { anchorProblem, commentRight, decisionProblems, getComment, insertComment, recordDecision as recordCaseDecision } from '@/lib/db/queries/review';
import { DECISION_OUTCOMES } from '@/lib/domain/vocabulary';
import { AppError } from '@/lib/errors';
import { say } from '@/lib/i18n';
import { reviewMessages } from '@/lib/i18n/messages/review';

/** Empty form fields mean "not given". */
const optional = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());

// Field messages are keys of lib/i18n/messages/review.ts; the forms show them in the user's language.
const commentInput = z.object({
  case_id: z.string().uuid(),
  run_id: optional(z.string().uuid()),
  step_id: optional(z.string().regex(/^[A-Za-z0-9_-]{1,16}$/, 'errAnchor')),
  claim_id: optional(z.string().regex(/^[A-Za-z0-9_.-]{1,32}$/, 'errAnchor')),
  parent_id: optional(z.string().uuid()),
  body: z.string('errBody').trim().min(1, 'errBody').max(4000, 'errBody'),
});

function revalidateCase(caseId: string, runId: string | null) {
  revalidatePath(`/cases/${caseId}`);
  if (runId) revalidatePath(`/runs/${runId}`);
  revalidatePath('/review');
}

export const addComment = action({ permission: 'review:comment', input: commentInput }, async (input, user) => {
  const kase = await assertCaseAccess(user, input.case_id, 'read');
  const right = commentRight(user, kase);
  if (right === 'none') throw new AppError('forbidden', say(reviewMessages, 'errCommentClosed'));
  const db = await getDb();
  let anchor = { runId: input.run_id ?? null, stepId: input.step_id ?? null, claimId: input.claim_id ?? null };
  let parentId: string | null = null;
  if (input.parent_id) {
    const parent = await getComment({ db, id: input.parent_id });
    if (!parent || parent.caseId !== kase.id) throw new AppError('bad_request', say(reviewMessages, 'errParent'), { parent_id: ['errParent'] });
    // Threads are one level deep: a reply to a reply joins the thread's root, with its anchor.
    parentId = parent.parentId ?? parent.id;
    anchor = { runId: parent.runId, stepId: parent.stepId, claimId: parent.claimId };
  } else {
    if (right !== 'start') throw new AppError('forbidden', say(reviewMessages, 'errReplyOnly'));
    if (await anchorProblem({ db, caseId: kase.id, ...anchor })) throw new AppError('bad_request', say(reviewMessages, 'errAnchor'), { body: ['errAnchor'] });
  }
  const comment = await db.transaction(async (tx) => {
    // The right again, with the case locked: a decision recorded since the check above closes
    // the committee's round, and this comment must not land in a decided case.
    const status = await lockCaseStatus({ db: tx, id: kase.id });
    const now = status ? commentRight(user, { ...kase, status }) : 'none';
    if (now === 'none' || (!parentId && now !== 'start')) throw new AppError('forbidden', say(reviewMessages, 'errCommentClosed'));
    const row = await insertComment({ db: tx, values: { caseId: kase.id, ...anchor, parentId, authorId: user.id, body: input.body } });
    await appendAudit({
      tx,
      actorId: user.id,
      action: parentId ? 'comment.reply' : 'comment.create',
      entityType: 'comment',
      entityId: row.id,
      detail: { caseId: kase.id, ...anchor, parentId, length: input.body.length },
    });
    await notifyCommentAdded({ db: tx, comment: row });
    return row;
  });
  revalidateCase(kase.id, anchor.runId);
  return { id: comment.id };
});

const decisionInput = z
  .object({
    case_id: z.string().uuid(),
    outcome: z.enum(DECISION_OUTCOMES, 'errOutcome'),
    rationale: z.string('errRationale').trim().max(8000, 'errRationale'),
    conditions: optional(z.string().trim().max(8000, 'errConditions')),
  })
  .superRefine((value, ctx) => {
    for (const [field, keys] of Object.entries(decisionProblems(value) ?? {})) {
      for (const message of keys) ctx.addIssue({ code: 'custom', path: [field], message });
    }
  });

export const recordDecision = action({ permission: 'review:decide', input: decisionInput }, async (input, user) => {
  const kase = await assertCaseAccess(user, input.case_id, 'read');
  if (kase.status !== 'submitted') throw new AppError('conflict', say(reviewMessages, 'errNotSubmitted'));
  const db = await getDb();
  const decision = await db.transaction(async (tx) => {
    const row = await recordCaseDecision({ db: tx, caseId: kase.id, deciderId: user.id, ...input });
    if (!row) throw new AppError('conflict', say(reviewMessages, 'errAlreadyDecided'));
    await appendAudit({
      tx,
      actorId: user.id,
      action: 'case.decide',
      entityType: 'case',
      entityId: kase.id,
      detail: { decisionId: row.id, outcome: row.outcome, withConditions: Boolean(row.conditions), submittedAt: kase.submittedAt?.toISOString() ?? null },
    });
    await notifyCaseDecided({ db: tx, caseId: kase.id, actorId: user.id, outcome: row.outcome });
    return row;
  });
  revalidateCase(kase.id, null);
  revalidatePath('/cases');
  return { id: decision.id, outcome: decision.outcome };
});
