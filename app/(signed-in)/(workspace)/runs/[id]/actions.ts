'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action } from '@/lib/auth/action';
import { assertRunAccess } from '@/lib/auth/run-access';
import { getDb } from '@/lib/db/client';
import { cancelCaseRun, retryCaseRun } from '@/lib/jobs/case-runs';
import { AppError } from '@/lib/errors';
import { localizer } from '@/lib/i18n/localize';
import { runMessages } from '@/lib/i18n/messages/run';
import { getLocale } from '@/lib/i18n/server';

const runInput = z.object({ run_id: z.string().uuid() });

/** The run page shows an action's message as it comes: put lib/jobs/case-runs.ts's English in the reader's language. */
async function inReadersLanguage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AppError) throw new AppError(err.code, localizer([runMessages], await getLocale())(err.message), err.fieldErrors);
    throw err;
  }
}

// Who asks is checked here (the owning RM); what the case's state allows, in lib/jobs/case-runs.ts.
export const cancelRun = action({ permission: 'cases:write', input: runInput }, async ({ run_id }, user) => {
  const { run } = await assertRunAccess(user, run_id, 'write');
  await inReadersLanguage(async () => cancelCaseRun({ db: await getDb(), run, actorId: user.id }));
  if (run.caseId) revalidatePath(`/cases/${run.caseId}`);
  return { cancelled: true };
});

export const retryRun = action({ permission: 'cases:write', input: runInput }, async ({ run_id }, user) => {
  const { run } = await assertRunAccess(user, run_id, 'write');
  await inReadersLanguage(async () => retryCaseRun({ db: await getDb(), run, actorId: user.id }));
  if (run.caseId) revalidatePath(`/cases/${run.caseId}`);
  return { retried: true };
});
