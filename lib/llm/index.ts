// The provider factory: the one place that decides which model answers a step.
// Without a configured endpoint the built-in offline analyst answers, so a bank that may not
// send borrower data out still gets a working app; asking for `openai` without one is an error
// that says what to set, never a silent fallback to something else.
import { getDb } from '@/lib/db/client';
import type { ProviderName } from '@/lib/domain/vocabulary';
import { env as readEnv, modelLimitEnv, roleModelEnv, roleModelVar, type Env } from '@/lib/env';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { createOpenAiModel } from './openai';
import { createSharedRateLimiter, withSharedRateLimit, type RateLimits, type SharedRateLimiter } from './rate-limit';
import { stepWriter, type ModelProvider } from './types';

export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';

type LlmEnv = Pick<Env, 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'OPENAI_MODEL'> &
  Partial<Pick<Env, 'OPENAI_TIMEOUT_MS' | 'OPENAI_MAX_RETRIES' | 'OPENAI_STRUCTURED_OUTPUT' | 'OPENAI_RPM' | 'OPENAI_TPM'>>;

export class ProviderConfigError extends Error {}

/** A key alone means api.openai.com; a base URL alone is a local server that needs no key. */
export function openAiConfigured(e: LlmEnv = readEnv()) {
  return Boolean(e.OPENAI_API_KEY || e.OPENAI_BASE_URL);
}

export { roleModelVar };

// One instance per configuration: the json_schema fallback is remembered per instance, and the
// SDK client keeps its connections alive across steps.
const instances = new Map<string, ModelProvider>();

/** Requests and tokens per minute for one model: OPENAI_RPM_<MODEL> over OPENAI_RPM, likewise TPM. */
export function rateLimitsOf(model: string, e: LlmEnv = readEnv()): RateLimits {
  return { rpm: modelLimitEnv('RPM', model) ?? e.OPENAI_RPM, tpm: modelLimitEnv('TPM', model) ?? e.OPENAI_TPM };
}

// One limiter per process over the app's database; the quota itself lives in the database.
const globalForLimits = globalThis as typeof globalThis & { __crosscheckRateLimiter?: SharedRateLimiter };
const sharedLimiter = () => (globalForLimits.__crosscheckRateLimiter ??= createSharedRateLimiter({ db: getDb }));

/** The provider a run gets when none is chosen: the OpenAI-compatible one when configured. */
export function defaultProviderName(e: LlmEnv = readEnv()): ProviderName {
  return openAiConfigured(e) ? 'openai' : 'offline';
}

export function getProvider({ provider, role }: { provider?: ProviderName; role?: string } = {}, e: LlmEnv = readEnv()): ModelProvider {
  const choice = provider ?? defaultProviderName(e);
  if (choice === 'offline') return createOfflineAnalyst();
  if (!openAiConfigured(e)) {
    throw new ProviderConfigError(
      'The OpenAI-compatible provider is not configured: set OPENAI_API_KEY (for api.openai.com) or OPENAI_BASE_URL (for Azure OpenAI, vLLM, Ollama, LM Studio or llama.cpp), and OPENAI_MODEL.',
    );
  }
  const config = {
    baseURL: e.OPENAI_BASE_URL,
    model: (role ? roleModelEnv(role) : undefined) ?? e.OPENAI_MODEL ?? DEFAULT_OPENAI_MODEL,
    timeoutMs: e.OPENAI_TIMEOUT_MS,
    maxRetries: e.OPENAI_MAX_RETRIES,
    structuredOutput: e.OPENAI_STRUCTURED_OUTPUT ?? 'auto',
  };
  const limits = rateLimitsOf(config.model, e);
  const key = JSON.stringify({ ...config, limits });
  let instance = instances.get(key);
  if (!instance) {
    // The limits wrap the language model, so the judges and document reading are limited like steps.
    instance = stepWriter(withSharedRateLimit(createOpenAiModel({ ...config, apiKey: e.OPENAI_API_KEY }), { limiter: sharedLimiter(), limits }));
    instances.set(key, instance);
  }
  return instance;
}

/**
 * The providers of a run: the run's own, and one per step for its agent role, so
 * OPENAI_MODEL_<ROLE> (e.g. OPENAI_MODEL_AGGREGATOR) takes effect. The offline analyst has no roles.
 */
export function runProviders(name: ProviderName, e: LlmEnv = readEnv()): { provider: ModelProvider; providerFor: (step: { agent: string }) => ModelProvider } {
  const provider = getProvider({ provider: name }, e);
  if (name === 'offline') return { provider, providerFor: () => provider };
  return { provider, providerFor: (step) => getProvider({ provider: name, role: step.agent }, e) };
}

/**
 * The sampling a run on a case gets (docs/stability.md): temperature 0 and the configured seed, so
 * the committee's runs say as nearly the same thing again as the endpoint allows. Nothing for the
 * offline analyst (it is deterministic) or when OPENAI_DECISION_GRADE is off.
 */
export function decisionGradeParams(
  provider: Pick<ModelProvider, 'isLLM'>,
  e: Partial<Pick<Env, 'OPENAI_DECISION_GRADE' | 'OPENAI_SEED'>> = readEnv(),
): { temperature?: number; seed?: number } {
  if (!provider.isLLM || e.OPENAI_DECISION_GRADE === false) return {};
  const seed = e.OPENAI_SEED === undefined ? 1 : e.OPENAI_SEED;
  return { temperature: 0, ...(seed === null ? {} : { seed }) };
}

/** What the UI shows next to a run: the offline analyst must never pass for a model. */
export function providerLabel(provider: Pick<ModelProvider, 'isLLM' | 'model'>): string {
  return provider.isLLM ? `OpenAI-compatible: ${provider.model}` : 'Built-in offline analyst — not an LLM';
}

/** For tests that change the environment between cases. */
export function resetProvidersForTests() {
  instances.clear();
}
