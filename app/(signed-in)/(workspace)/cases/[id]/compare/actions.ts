'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action } from '@/lib/auth/action';
import { assertCaseAccess, assertRunAccess } from '@/lib/auth/run-access';
import { getDb } from '@/lib/db/client';
import { judgeProvider, NOT_IN_CASE, runPairwise } from '@/lib/eval/judge-actions';
import { AppError } from '@/lib/errors';

const pairInput = z.object({ case_id: z.string().uuid(), a: z.string().uuid(), b: z.string().uuid() });

/** The pairwise judge on two runs of the RM's own case; the verdict is stored and audited. */
export const runPairwiseJudge = action({ permission: 'cases:write', input: pairInput }, async ({ case_id, a, b }, user) => {
  await assertCaseAccess(user, case_id, 'write');
  const [runA, runB] = await Promise.all([assertRunAccess(user, a, 'write'), assertRunAccess(user, b, 'write')]);
  if (runA.run.caseId !== case_id || runB.run.caseId !== case_id) throw new AppError('bad_request', NOT_IN_CASE);
  // Refuses before any run is loaded when no model is configured.
  const provider = judgeProvider();
  const { id } = await runPairwise({ db: await getDb(), provider, a, b, userId: user.id });
  revalidatePath(`/cases/${case_id}/compare`);
  return { id };
});
