'use server';

import { redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action } from '@/lib/auth/action';
import { assertCaseAccess } from '@/lib/auth/run-access';
import { getDb } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { countActiveRunsOfCase, countSucceededRuns, isCaseClosed, lockCaseStatus, markCaseAnalyzing, markCaseSubmitted } from '@/lib/db/queries/cases';
import { PROTOCOLS } from '@/lib/db/schema';
import { createRun } from '@/lib/debate/engine';
import { claimRunSlot, RunLimitReached } from '@/lib/debate/limits';
import { startRunInBackground } from '@/lib/debate/runner';
import { AppError } from '@/lib/errors';
import { casesMessages } from '@/lib/i18n/messages/cases';
import { runMessages } from '@/lib/i18n/messages/run';
import { getT } from '@/lib/i18n/server';
import { getProvider, ProviderConfigError } from '@/lib/llm';

const caseId = z.string().uuid();
/** An optional number field: empty means the server's default. */
const blankAsUnset = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

// Field messages are keys of lib/i18n/messages/run.ts; the launcher shows them in the user's language.
const startInput = z.object({
  case_id: caseId,
  protocol: z.enum(PROTOCOLS, 'errProtocol'),
  provider: z.enum(['offline', 'openai'], 'errProvider'),
  language: z.enum(['ko', 'en']),
  mode: z.enum(['dag', 'sequential']),
  recency_days: z.coerce.number('errRecency').int('errRecency').min(1, 'errRecency').max(3650, 'errRecency'),
  max_web_results: z.coerce.number('errWebResults').int('errWebResults').min(0, 'errWebResults').max(20, 'errWebResults'),
  max_tokens: z.preprocess(blankAsUnset, z.coerce.number('errMaxTokens').int('errMaxTokens').min(1_000, 'errMaxTokens').max(100_000_000, 'errMaxTokens').optional()),
  max_cost_usd: z.preprocess(blankAsUnset, z.coerce.number('errMaxCost').min(0.01, 'errMaxCost').max(10_000, 'errMaxCost').optional()),
});

export const startRun = action({ permission: 'cases:write', input: startInput }, async (input, user) => {
  const kase = await assertCaseAccess(user, input.case_id, 'write');
  if (isCaseClosed(kase.status)) throw new AppError('conflict', (await getT(runMessages))('errCaseClosed'));
  let provider;
  try {
    provider = getProvider({ provider: input.provider });
  } catch (err) {
    if (err instanceof ProviderConfigError) throw new AppError('bad_request', (await getT(runMessages))('providerOpenaiMissing'), { provider: ['providerOpenaiMissing'] });
    throw err;
  }
  const budget = { ...(input.max_tokens !== undefined ? { maxTokens: input.max_tokens } : {}), ...(input.max_cost_usd !== undefined ? { maxCostUsd: input.max_cost_usd } : {}) };
  const db = await getDb();
  // One transaction from the per-user check to the audit entry: a refused start writes nothing,
  // and two quick clicks cannot both pass the check.
  const run = await db.transaction(async (tx) => {
    // Checked again with the case locked: a submission between the check above and this
    // insert would otherwise leave a new run on a case the committee already has.
    const status = await lockCaseStatus({ db: tx, id: kase.id });
    if (!status || isCaseClosed(status)) throw new AppError('conflict', (await getT(runMessages))('errCaseClosed'));
    try {
      await claimRunSlot({ db: tx, userId: user.id });
    } catch (err) {
      if (err instanceof RunLimitReached) throw new AppError('rate_limited', (await getT(runMessages))('errRunLimit', { n: err.limit }));
      throw err;
    }
    const run = await createRun({
      db: tx,
      protocolId: input.protocol,
      companyId: kase.companyId,
      provider,
      mode: input.mode,
      params: { language: input.language, asOf: kase.asOfDate, recencyDays: input.recency_days, maxWebResults: input.max_web_results, ...budget },
      caseId: kase.id,
      createdById: user.id,
    });
    await markCaseAnalyzing({ db: tx, id: kase.id });
    await appendAudit({
      tx,
      actorId: user.id,
      action: 'run.start',
      entityType: 'run',
      entityId: run.id,
      detail: { caseId: kase.id, protocol: input.protocol, provider: provider.name, model: provider.model, mode: input.mode, language: input.language, ...budget },
    });
    return run;
  });
  await startRunInBackground({ db, runId: run.id });
  revalidatePath(`/cases/${kase.id}`);
  redirect(`/runs/${run.id}`);
});

export const submitCase = action({ permission: 'cases:write', input: z.object({ case_id: caseId }) }, async (input, user) => {
  const kase = await assertCaseAccess(user, input.case_id, 'write');
  const t = await getT(casesMessages);
  const db = await getDb();
  await db.transaction(async (tx) => {
    // The case row is locked first, so no run can be started or retried on it while it is checked.
    await lockCaseStatus({ db: tx, id: kase.id });
    if ((await countSucceededRuns({ db: tx, caseId: kase.id })) === 0) throw new AppError('conflict', t('errNoSucceededRun'));
    // A run still going would change the record after the committee received it.
    if ((await countActiveRunsOfCase({ db: tx, caseId: kase.id })) > 0) throw new AppError('conflict', t('errRunsActive'));
    if (!(await markCaseSubmitted({ db: tx, id: kase.id }))) throw new AppError('conflict', t('errAlreadySubmitted'));
    await appendAudit({ tx, actorId: user.id, action: 'case.submit', entityType: 'case', entityId: kase.id, detail: { fromStatus: kase.status } });
  });
  revalidatePath(`/cases/${kase.id}`);
  revalidatePath('/cases');
  return { submitted: true };
});
