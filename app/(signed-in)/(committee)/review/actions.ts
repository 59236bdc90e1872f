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
import { castVote } from '@/lib/db/queries/oversight';
import { anchorProblem, commentRight, decisionProblems, getComment, insertComment } from '@/lib/db/queries/review';
import { OVERRIDE_REASON_MAX, OVERRIDES_MAX } from '@/lib/domain/oversight';
import { DECISION_OUTCOMES } from '@/lib/domain/vocabulary';
import { AppError } from '@/lib/errors';
import { say } from '@/lib/i18n';
import { errorMessages } from '@/lib/i18n/messages/errors';
import { reviewMessages } from '@/lib/i18n/messages/review';
import { oversightOptions, resolveOverrides } from '@/lib/report/oversight';

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

/** A repeated form field as a list: absent is empty, one value is a list of one. */
const listOf = <S extends z.ZodType>(item: S) => z.preprocess((v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]), z.array(item));

const decisionInput = z
  .object({
    case_id: z.string().uuid(),
    outcome: z.enum(DECISION_OUTCOMES, 'errOutcome'),
    rationale: z.string('errRationale').trim().max(8000, 'errRationale'),
    conditions: optional(z.string().trim().max(8000, 'errConditions')),
    // The oversight record (docs/oversight.md): checked in the handler, once the case is known to be open.
    confirm_report: optional(z.string()),
    confirm_checks: optional(z.string()),
    override_ref: listOf(z.string().max(200)),
    override_reason: listOf(z.string().max(OVERRIDE_REASON_MAX + 100)),
  })
  .superRefine((value, ctx) => {
    for (const [field, keys] of Object.entries(decisionProblems(value) ?? {})) {
      for (const message of keys) ctx.addIssue({ code: 'custom', path: [field], message });
    }
  });

/**
 * The member's vote on the open round, with what they confirmed and overrode (docs/oversight.md).
 * With the quorum at one (the default) the vote is the decision, as before; with more, the round
 * is final when that many members agree (lib/db/queries/oversight.ts castVote, case row locked).
 */
export const recordDecision = action({ permission: 'review:decide', input: decisionInput }, async (input, user) => {
  const kase = await assertCaseAccess(user, input.case_id, 'read');
  if (kase.status !== 'submitted') throw new AppError('conflict', say(reviewMessages, 'errNotSubmitted'));
  const db = await getDb();
  // What the form listed: the failed checks to confirm and the outputs one may override, in English as stored.
  const options = await oversightOptions({ db, caseId: kase.id, locale: 'en' });
  const failedChecks = options.flatMap((o) => o.failedChecksEn);
  const problems: Record<string, string[]> = {};
  if (input.confirm_report !== 'on') problems.confirm_report = ['errConfirmReport'];
  if (failedChecks.length && input.confirm_checks !== 'on') problems.confirm_checks = ['errConfirmChecks'];
  // Rows the member left empty (no output, no reason) are not overrides.
  const given = input.override_ref.map((ref, i) => ({ ref: ref.trim(), reason: (input.override_reason[i] ?? '').trim() })).filter((o) => o.ref || o.reason);
  if (given.length > OVERRIDES_MAX) problems.overrides = ['errOverrideTooMany'];
  else if (given.some((o) => !o.reason || o.reason.length > OVERRIDE_REASON_MAX)) problems.overrides = ['errOverrideReason'];
  const overrides = problems.overrides ? [] : resolveOverrides(options, given);
  if (!overrides) problems.overrides = ['errOverrideTarget'];
  if (Object.keys(problems).length) throw new AppError('bad_request', say(errorMessages, 'bad_request'), problems);
  const result = await db.transaction(async (tx) => {
    const vote = await castVote({
      db: tx,
      caseId: kase.id,
      voterId: user.id,
      vote: {
        outcome: input.outcome,
        rationale: input.rationale,
        conditions: input.conditions,
        confirmed: { report: true, failedChecks },
        overrides: overrides ?? [],
      },
    });
    if (vote.kind === 'closed') throw new AppError('conflict', say(reviewMessages, 'errAlreadyDecided'));
    // Every vote is audited; with a quorum of one it is also the decision.
    await appendAudit({
      tx,
      actorId: user.id,
      action: 'case.vote',
      entityType: 'case',
      entityId: kase.id,
      detail: {
        voteId: vote.voteId,
        outcome: input.outcome,
        changedVote: vote.changed,
        quorum: vote.quorum,
        agreeing: vote.agreeing,
        final: Boolean(vote.decision),
        confirmedFailedChecks: failedChecks.length,
        overrides: (overrides ?? []).map((o) => o.ref),
        submittedAt: vote.submittedAt.toISOString(),
      },
    });
    const row = vote.decision;
    if (row) {
      await appendAudit({
        tx,
        actorId: user.id,
        action: 'case.decide',
        entityType: 'case',
        entityId: kase.id,
        detail: {
          decisionId: row.id,
          outcome: row.outcome,
          withConditions: Boolean(row.conditions),
          submittedAt: kase.submittedAt?.toISOString() ?? null,
          quorum: vote.quorum,
        },
      });
      await notifyCaseDecided({ db: tx, caseId: kase.id, actorId: user.id, outcome: row.outcome });
    }
    return { vote, row };
  });
  revalidateCase(kase.id, null);
  revalidatePath('/cases');
  return { id: result.row?.id ?? result.vote.voteId, outcome: input.outcome, final: Boolean(result.row) };
});
