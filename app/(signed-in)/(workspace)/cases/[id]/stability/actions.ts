'use server';

import { redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action } from '@/lib/auth/action';
import { assertCaseAccess } from '@/lib/auth/run-access';
import { getDb } from '@/lib/db/client';
import { isCaseClosed } from '@/lib/db/queries/cases';
import { DEFAULT_RUN_PARAMS } from '@/lib/debate/engine';
import { LANGUAGES } from '@/lib/domain/protocol';
import { PROTOCOLS } from '@/lib/domain/vocabulary';
import { AppError } from '@/lib/errors';
import { say } from '@/lib/i18n';
import { runMessages } from '@/lib/i18n/messages/run';
import { stabilityMessages } from '@/lib/i18n/messages/stability';
import { startCaseRuns } from '@/lib/jobs/case-runs';
import { getProvider, ProviderConfigError } from '@/lib/llm';
import { MAX_STABILITY_RUNS, MIN_STABILITY_RUNS } from '@/lib/report/stability';

// Field messages are keys of lib/i18n/messages/stability.ts (or run.ts for the system).
const input = z.object({
  case_id: z.string().uuid(),
  protocol: z.enum(PROTOCOLS, 'errProtocol'),
  language: z.enum(LANGUAGES),
  runs: z.coerce.number('errRuns').int('errRuns').min(MIN_STABILITY_RUNS, 'errRuns').max(MAX_STABILITY_RUNS, 'errRuns'),
});

/**
 * "Run N times" (docs/stability.md): N runs of one system on the configured model, started in one
 * transaction as one stability set, each taking one of the RM's run slots; then the set's view.
 * The offline analyst is refused: its runs are identical by design.
 */
export const startStabilitySet = action({ permission: 'cases:write', input }, async (form, user) => {
  const kase = await assertCaseAccess(user, form.case_id, 'write');
  if (isCaseClosed(kase.status)) throw new AppError('conflict', say(runMessages, 'errCaseClosed'));
  let provider;
  try {
    provider = getProvider({ provider: 'openai' });
  } catch (err) {
    if (err instanceof ProviderConfigError) throw new AppError('bad_request', say(stabilityMessages, 'errOffline'));
    throw err;
  }
  const { stabilitySetId } = await startCaseRuns({
    db: await getDb(),
    kase,
    actorId: user.id,
    protocolId: form.protocol,
    provider,
    mode: 'dag',
    params: { language: form.language, recencyDays: DEFAULT_RUN_PARAMS.recencyDays, maxWebResults: DEFAULT_RUN_PARAMS.maxWebResults },
    count: form.runs,
  });
  revalidatePath(`/cases/${kase.id}`);
  redirect(`/cases/${kase.id}/stability/${stabilitySetId}`);
});
