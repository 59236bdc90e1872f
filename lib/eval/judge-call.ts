// One structured call to a language model for an automated judge (lib/eval/judges.ts): the
// prompt, the verdict's JSON Schema (named after the verdict) and the temperature, nothing of a
// step or a run. The answer is validated with zod; one repair attempt, then a clear failure, as
// the engine does for steps.
import { z, type ZodType } from 'zod';
import type { JudgeUsage } from '@/lib/domain/judgments';
import { english, say, sayText, type Said } from '@/lib/i18n';
import { judgesMessages } from '@/lib/i18n/messages/judges';
import type { LanguageModel, ModelCall, ModelProvider } from '@/lib/llm/types';

/** A judge's refusal: English as its message (the command line, logs), a phrase of the judges table for the screen. */
export class JudgeError extends Error {
  constructor(readonly said: Said) {
    super(sayText(said));
  }
}

export const NEEDS_MODEL = english(judgesMessages, 'errNeedsModel');

/** The provider's language model; the refusal for the offline analyst (or any provider without one). */
export function assertJudgeModel(provider: Pick<ModelProvider, 'languageModel'>): LanguageModel {
  if (!provider.languageModel) throw new JudgeError(say(judgesMessages, 'errNeedsModel'));
  return provider.languageModel;
}

export type JudgeCall<T> = {
  provider: ModelProvider;
  system: string;
  user: string;
  schema: ZodType<T>;
  /** Schema name the endpoint sees (structured output), e.g. `pairwise_verdict`. */
  name: string;
  /** Extra checks after the schema passed; each returned string is a problem to repair. */
  check?: (value: T) => string[];
  /** Judges run cold (temperature 0) by default: the same transcript should get the same verdict. */
  temperature?: number;
  signal?: AbortSignal;
};

function parseJson(raw: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  const trimmed = raw
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  try {
    return { ok: true, value: JSON.parse(trimmed) };
  } catch {
    return { ok: false, problem: 'The answer is not valid JSON.' };
  }
}

export async function callJudge<T>(call: JudgeCall<T>): Promise<{ value: T; usage: JudgeUsage }> {
  const model = assertJudgeModel(call.provider);
  const base = {
    system: call.system,
    user: call.user,
    output: { name: call.name, jsonSchema: z.toJSONSchema(call.schema) as Record<string, unknown> },
    temperature: call.temperature ?? 0,
    signal: call.signal ?? new AbortController().signal,
    tag: { stepId: call.name },
  } satisfies ModelCall;

  const usage = { promptTokens: 0, completionTokens: 0 };
  let repair: ModelCall['repair'];
  for (let attempt = 0; attempt < 2; attempt++) {
    const result = await model.complete({ ...base, repair });
    usage.promptTokens += result.usage.promptTokens;
    usage.completionTokens += result.usage.completionTokens;
    const json = parseJson(result.raw);
    const parsed = json.ok ? call.schema.safeParse(json.value) : null;
    const problems = !json.ok
      ? [json.problem]
      : !parsed!.success
        ? parsed!.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        : (call.check?.(parsed!.data) ?? []);
    if (problems.length === 0) return { value: parsed!.data as T, usage };
    repair = { previous: result.raw, problems };
  }
  throw new JudgeError(say(judgesMessages, 'errInvalid', { problems: repair!.problems.slice(0, 5).join(' ') }));
}
