// The provider factory: the one place that decides which model answers a step (DESIGN §5).
// Without a configured endpoint the built-in offline analyst answers, so a bank that may not
// send borrower data out still gets a working app; asking for `openai` without one is an error
// that says what to set, never a silent fallback to something else.
import { env as readEnv, type Env } from '@/lib/env';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { createOpenAiProvider, type StructuredOutput } from './openai';
import type { ModelProvider } from './types';

export type ProviderName = 'offline' | 'openai';

export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';

type LlmEnv = Pick<Env, 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'OPENAI_MODEL'>;

export class ProviderConfigError extends Error {}

/** A key alone means api.openai.com; a base URL alone is a local server that needs no key. */
export function openAiConfigured(e: LlmEnv = readEnv()) {
  return Boolean(e.OPENAI_API_KEY || e.OPENAI_BASE_URL);
}

/** `devils-advocate` → `OPENAI_MODEL_DEVILS_ADVOCATE`. */
export function roleModelVar(role: string) {
  return `OPENAI_MODEL_${role.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_|_$/g, '')}`;
}

// TODO-env: move these into lib/env.ts's schema (OPENAI_TIMEOUT_MS, OPENAI_MAX_RETRIES,
// OPENAI_STRUCTURED_OUTPUT, OPENAI_MODEL_<ROLE>) and read them through env(). Until then this
// is the one place in lib/llm that reads process.env.
function openAiTuning(role: string | undefined) {
  const source = process.env;
  const int = (name: string, min: number, max: number) => {
    const raw = source[name]?.trim();
    if (!raw) return undefined;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) throw new ProviderConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}".`);
    return n;
  };
  const mode = source.OPENAI_STRUCTURED_OUTPUT?.trim() || undefined;
  if (mode && !['json_schema', 'json_object', 'auto'].includes(mode)) {
    throw new ProviderConfigError(`OPENAI_STRUCTURED_OUTPUT must be json_schema, json_object or auto, got "${mode}".`);
  }
  return {
    timeoutMs: int('OPENAI_TIMEOUT_MS', 1_000, 3_600_000),
    maxRetries: int('OPENAI_MAX_RETRIES', 0, 10),
    structuredOutput: mode as StructuredOutput | undefined,
    roleModel: role ? source[roleModelVar(role)]?.trim() || undefined : undefined,
  };
}

// One instance per configuration: the json_schema fallback is remembered per instance, and the
// SDK client keeps its connections alive across steps.
const instances = new Map<string, ModelProvider>();

export function getProvider(
  { provider, role }: { provider?: ProviderName; role?: string } = {},
  e: LlmEnv = readEnv(),
): ModelProvider {
  const choice = provider ?? (openAiConfigured(e) ? 'openai' : 'offline');
  if (choice === 'offline') return createOfflineAnalyst();
  if (!openAiConfigured(e)) {
    throw new ProviderConfigError(
      'The OpenAI-compatible provider is not configured: set OPENAI_API_KEY (for api.openai.com) or OPENAI_BASE_URL (for Azure OpenAI, vLLM, Ollama, LM Studio or llama.cpp), and OPENAI_MODEL.',
    );
  }
  const tuning = openAiTuning(role);
  const config = {
    baseURL: e.OPENAI_BASE_URL,
    model: tuning.roleModel ?? e.OPENAI_MODEL ?? DEFAULT_OPENAI_MODEL,
    timeoutMs: tuning.timeoutMs,
    maxRetries: tuning.maxRetries,
    structuredOutput: tuning.structuredOutput ?? 'auto',
  };
  const key = JSON.stringify(config);
  let instance = instances.get(key);
  if (!instance) {
    instance = createOpenAiProvider({ ...config, apiKey: e.OPENAI_API_KEY });
    instances.set(key, instance);
  }
  return instance;
}

/** What the UI shows next to a run: the offline analyst must never pass for a model. */
export function providerLabel(provider: Pick<ModelProvider, 'isLLM' | 'model'>): string {
  return provider.isLLM ? `OpenAI-compatible: ${provider.model}` : 'Built-in offline analyst — not an LLM';
}

/** For tests that change the environment between cases. */
export function resetProvidersForTests() {
  instances.clear();
}
