'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action } from '@/lib/auth/action';
import { assertRunAccess } from '@/lib/auth/run-access';
import { getDb } from '@/lib/db/client';
import { cancelCaseRun, retryCaseRun } from '@/lib/jobs/case-runs';

const runInput = z.object({ run_id: z.string().uuid() });

// Who asks is checked here (the owning RM); what the case's state allows, in lib/jobs/case-runs.ts,
// whose refusals the action wrapper shows in the reader's language.
export const cancelRun = action({ permission: 'cases:write', input: runInput }, async ({ run_id }, user) => {
  const { run } = await assertRunAccess(user, run_id, 'write');
  await cancelCaseRun({ db: await getDb(), run, actorId: user.id });
  if (run.caseId) revalidatePath(`/cases/${run.caseId}`);
  return { cancelled: true };
});

export const retryRun = action({ permission: 'cases:write', input: runInput }, async ({ run_id }, user) => {
  const { run } = await assertRunAccess(user, run_id, 'write');
  await retryCaseRun({ db: await getDb(), run, actorId: user.id });
  if (run.caseId) revalidatePath(`/cases/${run.caseId}`);
  return { retried: true };
});
