'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action } from '@/lib/auth/action';
import type { SessionUser } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { appendAudit, RATING_SUBMIT_ACTION } from '@/lib/db/queries/audit';
import { getAssignmentForEvaluator, nextAssignmentForEvaluator, saveAssignmentAnswers, submitAssignment } from '@/lib/db/queries/studies';
import { cleanAnswers, missingItems } from '@/lib/eval/study-design';
import { AppError } from '@/lib/errors';
import { say } from '@/lib/i18n';
import { ratingMessages } from '@/lib/i18n/messages/studies-rating';

const input = z.object({ assignmentId: z.uuid(), answers: z.record(z.string(), z.union([z.number(), z.string()])) });

/** The evaluator's own assignment in an open study, not yet submitted; anything else is refused. */
async function writableAssignment(user: SessionUser, assignmentId: string) {
  const db = await getDb();
  const assignment = await getAssignmentForEvaluator({ db, id: assignmentId, evaluatorId: user.id });
  if (!assignment) throw new AppError('not_found', say(ratingMessages, 'errNotFound'));
  if (assignment.submittedAt) throw new AppError('conflict', say(ratingMessages, 'errLocked'));
  if (assignment.studyStatus !== 'open') throw new AppError('conflict', say(ratingMessages, 'errClosed'));
  return { db, assignment };
}

/** Autosave: answers so far, possibly incomplete. Not audited: only a submission is a rating. */
export const saveRating = action({ permission: 'ratings:write', input }, async ({ assignmentId, answers }, user) => {
  const { db } = await writableAssignment(user, assignmentId);
  const clean = cleanAnswers(answers);
  if (!(await saveAssignmentAnswers({ db, id: assignmentId, answers: clean }))) throw new AppError('conflict', say(ratingMessages, 'errLocked'));
  return { savedAt: new Date().toISOString() };
});

export const submitRating = action({ permission: 'ratings:write', input }, async ({ assignmentId, answers }, user) => {
  const { db, assignment } = await writableAssignment(user, assignmentId);
  const clean = cleanAnswers(answers);
  const missing = missingItems(clean);
  if (missing.length)
    throw new AppError('bad_request', say(ratingMessages, 'errMissing', { n: missing.length }), Object.fromEntries(missing.map((m) => [m, ['errMissing']])));
  await db.transaction(async (tx) => {
    if (!(await submitAssignment({ db: tx, id: assignmentId, answers: clean }))) throw new AppError('conflict', say(ratingMessages, 'errLocked'));
    await appendAudit({
      tx,
      actorId: user.id,
      action: RATING_SUBMIT_ACTION,
      entityType: 'study_assignment',
      entityId: assignmentId,
      detail: { studyId: assignment.studyId, answers: clean },
    });
  });
  revalidatePath('/ratings');
  revalidatePath(`/ratings/${assignmentId}`);
  // "Next report": the evaluator's own next unrated assignment (an opaque id), or none left.
  const next = await nextAssignmentForEvaluator({ db, evaluatorId: user.id, studyId: assignment.studyId, excludeId: assignmentId });
  return { submitted: true, nextAssignmentId: next ?? null };
});
