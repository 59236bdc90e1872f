'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action } from '@/lib/auth/action';
import { assertRunAccess } from '@/lib/auth/run-access';
import { getDb } from '@/lib/db/client';
import { judgeProvider, runRubric } from '@/lib/eval/judge-actions';

const runInput = z.object({ run_id: z.string().uuid() });

/** The rubric judge (lib/eval/judges.ts) on a run of the RM's own case; the judgment is stored and audited. */
export const runRubricJudge = action({ permission: 'cases:write', input: runInput }, async ({ run_id }, user) => {
  await assertRunAccess(user, run_id, 'write');
  const provider = judgeProvider();
  const { id } = await runRubric({ db: await getDb(), provider, runId: run_id, userId: user.id });
  revalidatePath(`/runs/${run_id}/report`);
  return { id };
});
