// One structured call to a model for an automated judge (lib/eval/judges.ts), through the provider
// seam like every other model call. A judge is not a step of any run, so the run-specific parts
// of the seam's request are empty; what a provider sends is the prompt, the JSON Schema (named
// after the verdict, never after a protocol) and the temperature. The answer is validated with
// zod; one repair attempt, then a clear failure, as the engine does for steps.
import { z, type ZodType } from 'zod';
import type { JudgeUsage } from '@/lib/domain/judgments';
import type { OutputKind } from '@/lib/domain/outputs';
import type { ProtocolDef, RunParams, StepDef } from '@/lib/domain/protocol';
import { english, say, sayText, type Said } from '@/lib/i18n';
import { judgesMessages } from '@/lib/i18n/messages/judges';
import type { GenerateRequest, ModelProvider } from '@/lib/llm/types';

/** A judge's refusal: English as its message (the command line, logs), a phrase of the judges table for the screen. */
export class JudgeError extends Error {
  constructor(readonly said: Said) {
    super(sayText(said));
  }
}

export const NEEDS_MODEL = english(judgesMessages, 'errNeedsModel');

/** Throws the refusal for the offline analyst (or any provider that is not an LLM). */
export function assertJudgeModel(provider: Pick<ModelProvider, 'isLLM'>) {
  if (!provider.isLLM) throw new JudgeError(say(judgesMessages, 'errNeedsModel'));
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
  const trimmed = raw.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
  try {
    return { ok: true, value: JSON.parse(trimmed) };
  } catch {
    return { ok: false, problem: 'The answer is not valid JSON.' };
  }
}

export async function callJudge<T>(call: JudgeCall<T>): Promise<{ value: T; usage: JudgeUsage }> {
  assertJudgeModel(call.provider);
  const step = { id: call.name, agent: 'judge', role: 'judge', team: 'neutral', act: 'judgment', context: [], webSearch: false, evidence: 'none', output: call.name as OutputKind, task: '' } satisfies StepDef;
  const params: RunParams = { language: 'en', asOf: '', recencyDays: 0, maxWebResults: 0, maxConcurrency: 1, temperature: call.temperature ?? 0 };
  const base = {
    runId: '',
    protocol: { id: 'judge', name: '', description: '', steps: [step], reportStep: step.id } as unknown as ProtocolDef,
    step,
    params,
    company: { id: '', name: '', nameEn: null, country: '', industry: null },
    evidence: [],
    passages: [],
    context: [],
    prompt: { system: call.system, user: call.user },
    schema: call.schema,
    jsonSchema: z.toJSONSchema(call.schema) as Record<string, unknown>,
    tools: {},
    signal: call.signal ?? new AbortController().signal,
    onToken: () => {},
  } satisfies Omit<GenerateRequest, 'repair'>;

  const usage = { promptTokens: 0, completionTokens: 0 };
  let repair: GenerateRequest['repair'];
  for (let attempt = 0; attempt < 2; attempt++) {
    const result = await call.provider.generate({ ...base, repair });
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
