// Cost per step and per case from token usage. List prices, USD per million tokens, as OpenAI
// publishes them for the standard tier (platform.openai.com/docs/pricing, checked 2025), with the
// price of cached input: prompt tokens the provider served from its prompt cache, which it bills
// at a discount (half the input price for the gpt-4o family, a quarter for gpt-4.1, o3 and
// o4-mini). A call's cached tokens are what the provider reports (usage.prompt_tokens_details.
// cached_tokens); an endpoint that does not report them is billed at the full input price, so
// its figures are an upper bound. A model we cannot price costs 0 and says so (`known: false`),
// rather than borrowing another model's price: a self-hosted vLLM or Ollama model has no
// per-token price at all.

export type ModelPrice = { inputPerMTok: number; cachedInputPerMTok: number; outputPerMTok: number; known: boolean };

export const UNKNOWN_PRICE: ModelPrice = { inputPerMTok: 0, cachedInputPerMTok: 0, outputPerMTok: 0, known: false };

export const PRICES: Record<string, ModelPrice> = {
  'gpt-4o': { inputPerMTok: 2.5, cachedInputPerMTok: 1.25, outputPerMTok: 10, known: true },
  'gpt-4o-mini': { inputPerMTok: 0.15, cachedInputPerMTok: 0.075, outputPerMTok: 0.6, known: true },
  'gpt-4.1': { inputPerMTok: 2, cachedInputPerMTok: 0.5, outputPerMTok: 8, known: true },
  'gpt-4.1-mini': { inputPerMTok: 0.4, cachedInputPerMTok: 0.1, outputPerMTok: 1.6, known: true },
  'gpt-4.1-nano': { inputPerMTok: 0.1, cachedInputPerMTok: 0.025, outputPerMTok: 0.4, known: true },
  'o4-mini': { inputPerMTok: 1.1, cachedInputPerMTok: 0.275, outputPerMTok: 4.4, known: true },
  o3: { inputPerMTok: 2, cachedInputPerMTok: 0.5, outputPerMTok: 8, known: true },
  unknown: UNKNOWN_PRICE,
};

/**
 * The price of a model id as endpoints report it: dated snapshots (`gpt-4o-mini-2024-07-18`)
 * and router prefixes (`openai/gpt-4.1`) resolve to their family by the longest matching name,
 * so `gpt-4o-mini-…` never gets `gpt-4o`'s price.
 */
export function priceOf(model: string): ModelPrice {
  const best = familyOf(
    model,
    Object.keys(PRICES).filter((name) => name !== 'unknown'),
  );
  return best ? PRICES[best] : UNKNOWN_PRICE;
}

/** The longest of `names` that `model` is (or is a dated snapshot or routed form of), or undefined. */
export function familyOf(model: string, names: string[]): string | undefined {
  const id = model.trim().toLowerCase().split('/').pop() ?? '';
  let best: string | undefined;
  for (const name of names) {
    const fits = id === name || id.startsWith(`${name}-`);
    if (fits && (!best || name.length > best.length)) best = name;
  }
  return best;
}

/**
 * USD for one call or a sum of calls; 0 for models without a known price (see priceOf().known).
 * `cachedTokens` (of `promptTokens`, as the provider reported them) are billed at the cached-input
 * price, the rest of the prompt at the input price.
 */
export function costOf(model: string, usage: { promptTokens: number; completionTokens: number; cachedTokens?: number }): number {
  const p = priceOf(model);
  const cached = Math.min(Math.max(usage.cachedTokens ?? 0, 0), usage.promptTokens);
  const usd = ((usage.promptTokens - cached) * p.inputPerMTok + cached * p.cachedInputPerMTok + usage.completionTokens * p.outputPerMTok) / 1_000_000;
  // Micro-dollar precision: enough for per-step figures, and sums stay free of float noise.
  return Math.round(usd * 1e6) / 1e6;
}
