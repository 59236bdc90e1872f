// The automated judges as the workspace runs them: pick the judge's model, check the runs can
// be judged, call the judge, store the result with its audit entry. Access (session, role,
// case ownership) is checked by the server actions before they call in here; this module is
// the part a test can drive against a fake model server without a Next.js request.
import type { Db } from '@/lib/db/client';
import { recordPairwiseJudgment, recordRubricJudgment } from '@/lib/db/queries/judgments';
import { loadRunView, type RunView } from '@/lib/report/run-view';
import type { PairwiseResult, RubricResult } from '@/lib/domain/judgments';
import { judgePairwise, judgeRubric, JudgeError, NEEDS_MODEL } from '@/lib/eval/judges';
import { AppError } from '@/lib/errors';
import { say } from '@/lib/i18n';
import { judgesMessages } from '@/lib/i18n/messages/judges';
import { getProvider, openAiConfigured, ProviderConfigError } from '@/lib/llm';
import { LlmError } from '@/lib/llm/openai';
import type { ModelProvider } from '@/lib/llm/types';

// Refusals as phrases of lib/i18n/messages/judges.ts: the screen shows them in the reader's language.
export const RUN_ACTIVE = say(judgesMessages, 'errRunActive');
export const NOT_IN_CASE = say(judgesMessages, 'errNotInCase');

/** Whether the judges can run here, and with which model; pages disable the buttons otherwise. */
export function judgeAvailability(): { available: true; model: string } | { available: false; reason: string } {
  if (!openAiConfigured()) return { available: false, reason: NEEDS_MODEL };
  const provider = judgeProvider();
  return { available: true, model: provider.model };
}

/** The OpenAI-compatible provider for role `judge` (OPENAI_MODEL_JUDGE, else OPENAI_MODEL). */
export function judgeProvider(): ModelProvider {
  try {
    return getProvider({ provider: 'openai', role: 'judge' });
  } catch (err) {
    if (err instanceof ProviderConfigError) throw new AppError('unavailable', say(judgesMessages, 'errNeedsModel'));
    throw err;
  }
}

/** A judge's refusal or a model failure as an error the user can read; anything else is rethrown. */
export function asAppError(err: unknown): never {
  if (err instanceof AppError) throw err;
  if (err instanceof JudgeError)
    throw new AppError(err.said.key === 'errNeedsModel' || err.said.key === 'errInvalid' ? 'unavailable' : 'bad_request', err.said);
  if (err instanceof LlmError) throw new AppError('unavailable', say(judgesMessages, 'errModelFailed', { detail: err.message }));
  throw err;
}

function assertFinished(view: Pick<RunView, 'status'>) {
  if (view.status === 'queued' || view.status === 'running') throw new AppError('conflict', RUN_ACTIVE);
}

const stored = (provider: ModelProvider) => ({ provider: provider.isLLM ? 'openai' : 'offline', model: provider.model });

/** Judges run `a` against run `b` (both already checked to be in the user's case) and stores the verdict. */
export async function runPairwise({ db, provider, a, b, userId }: { db: Db; provider: ModelProvider; a: string; b: string; userId: string }) {
  const [viewA, viewB] = await Promise.all([loadRunView({ db, runId: a }), loadRunView({ db, runId: b })]);
  assertFinished(viewA);
  assertFinished(viewB);
  let result: PairwiseResult;
  try {
    result = await judgePairwise({ provider, a: viewA, b: viewB });
  } catch (err) {
    asAppError(err);
  }
  const saved = await recordPairwiseJudgment({ db, a, b, result, createdById: userId, ...stored(provider) });
  return { id: saved.id, result };
}

/** Judges one run with the rubric (judgeRubric in lib/eval/judges.ts) and stores the judgment. */
export async function runRubric({ db, provider, runId, userId }: { db: Db; provider: ModelProvider; runId: string; userId: string }) {
  const view = await loadRunView({ db, runId });
  assertFinished(view);
  let result: RubricResult;
  try {
    result = await judgeRubric({ provider, run: view });
  } catch (err) {
    asAppError(err);
  }
  const saved = await recordRubricJudgment({ db, runId, result, createdById: userId, ...stored(provider) });
  return { id: saved.id, result };
}
