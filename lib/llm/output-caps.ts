// The most completion tokens one call may ask a model for. A run's budget hands a call what is
// left of it (lib/debate/budget.ts), which can be far more than a model writes in one answer;
// an endpoint answers such a max_tokens with HTTP 400, so every request is clamped here.
// Published caps of the models lib/llm/prices.ts knows; a model we do not know (self-hosted,
// behind vLLM or Ollama) gets a conservative default. docs/operations.md lists the settings.
import { env as readEnv, modelLimitEnv, type Env } from '@/lib/env';
import { familyOf } from '@/lib/llm/prices';

/** Output tokens per call, by model family as lib/llm/prices.ts resolves it (the longest name wins). */
export const MAX_OUTPUT_TOKENS: Record<string, number> = {
  'gpt-4o': 16_384,
  // The first gpt-4o snapshot writes at most 4,096.
  'gpt-4o-2024-05-13': 4_096,
  'gpt-4o-mini': 16_384,
  'gpt-4.1': 32_768,
  'gpt-4.1-mini': 32_768,
  'gpt-4.1-nano': 32_768,
  'o4-mini': 100_000,
  o3: 100_000,
};

/** For a model not in the table, unless OPENAI_MAX_OUTPUT_TOKENS says otherwise. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 4_096;

/**
 * The cap of one model: OPENAI_MAX_OUTPUT_TOKENS_<MODEL>, else its published cap, else
 * OPENAI_MAX_OUTPUT_TOKENS, else the default.
 */
export function outputCapOf(model: string, e: Pick<Env, 'OPENAI_MAX_OUTPUT_TOKENS'> = readEnv()): number {
  const own = modelLimitEnv('MAX_OUTPUT_TOKENS', model);
  if (own !== undefined) return own;
  const family = familyOf(model, Object.keys(MAX_OUTPUT_TOKENS));
  if (family) return MAX_OUTPUT_TOKENS[family];
  return e.OPENAI_MAX_OUTPUT_TOKENS ?? DEFAULT_MAX_OUTPUT_TOKENS;
}

/**
 * The completion tokens a call on `model` may ask for: what the run's budget allows
 * (`allowance`, from CallBudget.allow; undefined without a budget), never more than the model's
 * cap. Also the room to ask for when an answer was cut off at its limit and is tried again.
 */
export function roomFor(model: string, allowance?: number, e?: Pick<Env, 'OPENAI_MAX_OUTPUT_TOKENS'>): number {
  const cap = outputCapOf(model, e);
  return allowance === undefined ? cap : Math.max(0, Math.min(allowance, cap));
}
