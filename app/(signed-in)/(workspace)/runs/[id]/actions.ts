'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action } from '@/lib/auth/action';
import { assertRunAccess } from '@/lib/auth/run-access';
import { getDb } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { claimRunSlot, RunLimitReached } from '@/lib/debate/limits';
import { runner, RunStateError } from '@/lib/debate/runner';
import { AppError } from '@/lib/errors';
import { runMessages } from '@/lib/i18n/messages/run';
import { getT } from '@/lib/i18n/server';

const runInput = z.object({ run_id: z.string().uuid() });

async function audit(userId: string, runId: string, what: 'run.cancel') {
  const db = await getDb();
  await db.transaction((tx) => appendAudit({ tx, actorId: userId, action: what, entityType: 'run', entityId: runId }));
}

export const cancelRun = action({ permission: 'cases:write', input: runInput }, async ({ run_id }, user) => {
  const { run } = await assertRunAccess(user, run_id, 'write');
  if (!(await runner().cancel({ db: await getDb(), runId: run_id }))) throw new AppError('conflict', (await getT(runMessages))('errNotRunning'));
  await audit(user.id, run_id, 'run.cancel');
  if (run.caseId) revalidatePath(`/cases/${run.caseId}`);
  return { cancelled: true };
});

export const retryRun = action({ permission: 'cases:write', input: runInput }, async ({ run_id }, user) => {
  const { run } = await assertRunAccess(user, run_id, 'write');
  try {
    await runner().retry({
      db: await getDb(),
      runId: run_id,
      // A retried run is active again, so it counts against its owner's limit like a new start;
      // the check, the requeue and the audit entry are one transaction.
      alsoInTransaction: async (tx) => {
        if (run.createdById) await claimRunSlot({ db: tx, userId: run.createdById });
        await appendAudit({ tx, actorId: user.id, action: 'run.retry', entityType: 'run', entityId: run_id });
      },
    });
  } catch (err) {
    if (err instanceof RunStateError) throw new AppError('conflict', err.message);
    if (err instanceof RunLimitReached) throw new AppError('rate_limited', (await getT(runMessages))('errRunLimit', { n: err.limit }));
    throw err;
  }
  if (run.caseId) revalidatePath(`/cases/${run.caseId}`);
  return { retried: true };
});
