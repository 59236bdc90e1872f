// Cost per step and per case from token usage. List prices, USD per million
// tokens, as OpenAI publishes them for the standard tier (checked 2025); cached-input discounts
// are ignored, so figures are an upper bound. A model we cannot price costs 0 and says so
// (`known: false`), rather than borrowing another model's price: a self-hosted vLLM or Ollama
// model has no per-token price at all.

export type ModelPrice = { inputPerMTok: number; outputPerMTok: number; known: boolean };

export const UNKNOWN_PRICE: ModelPrice = { inputPerMTok: 0, outputPerMTok: 0, known: false };

export const PRICES: Record<string, ModelPrice> = {
  'gpt-4o': { inputPerMTok: 2.5, outputPerMTok: 10, known: true },
  'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6, known: true },
  'gpt-4.1': { inputPerMTok: 2, outputPerMTok: 8, known: true },
  'gpt-4.1-mini': { inputPerMTok: 0.4, outputPerMTok: 1.6, known: true },
  'gpt-4.1-nano': { inputPerMTok: 0.1, outputPerMTok: 0.4, known: true },
  'o4-mini': { inputPerMTok: 1.1, outputPerMTok: 4.4, known: true },
  o3: { inputPerMTok: 2, outputPerMTok: 8, known: true },
  unknown: UNKNOWN_PRICE,
};

/**
 * The price of a model id as endpoints report it: dated snapshots (`gpt-4o-mini-2024-07-18`)
 * and router prefixes (`openai/gpt-4.1`) resolve to their family by the longest matching name,
 * so `gpt-4o-mini-…` never gets `gpt-4o`'s price.
 */
export function priceOf(model: string): ModelPrice {
  const best = familyOf(model, Object.keys(PRICES).filter((name) => name !== 'unknown'));
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

/** USD for one call or a sum of calls; 0 for models without a known price (see priceOf().known). */
export function costOf(model: string, usage: { promptTokens: number; completionTokens: number }): number {
  const p = priceOf(model);
  const usd = (usage.promptTokens * p.inputPerMTok + usage.completionTokens * p.outputPerMTok) / 1_000_000;
  // Micro-dollar precision: enough for per-step figures, and sums stay free of float noise.
  return Math.round(usd * 1e6) / 1e6;
}
