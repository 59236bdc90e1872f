// How much of a run's prompts a provider's prefix cache can serve. OpenAI, Azure OpenAI, vLLM
// and SGLang keep the leading tokens of recent requests and bill (or compute) them again only
// when a later request starts with exactly the same tokens; so the share of a run's prompt
// tokens that repeats the start of an earlier request of the same run is what caching can save.
// Counted on the messages as the provider sends them (lib/llm/openai.ts, buildMessages), with
// the codebase's token estimate of four characters a token.
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';

/** Tokens of `chars` characters, as lib/llm/openai.ts estimates a prompt. */
export const tokensOfChars = (chars: number) => Math.ceil(chars / 4);

/**
 * The request as a prefix cache reads it: each message's role and content, in order. A message
 * boundary is part of the bytes, so a prefix that ends mid-message still matches only as far as
 * the text is the same.
 */
export function serializeMessages(messages: readonly ChatCompletionMessageParam[]): string {
  return messages.map((m) => `<|${m.role}|>\n${typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '')}\n`).join('');
}

/** Characters `a` and `b` share from their start. */
export function commonPrefixChars(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

export type CacheableShare = {
  /** Every request's prompt, in tokens. */
  promptTokens: number;
  /** Tokens of each request's longest prefix identical to the start of an earlier request. */
  cacheableTokens: number;
  /** cacheableTokens / promptTokens, 0 for no prompts. */
  share: number;
  /** Per request, in the order sent. */
  requests: { promptTokens: number; cacheableTokens: number }[];
};

/**
 * The cacheable share of a run's requests, in the order they were sent: a request's prefix
 * counts when an earlier request of the same list starts with it (the first request caches
 * nothing). Requests sent at the same time are best given in the order they reached the
 * provider; a cache warmed by another run is not counted.
 */
export function cacheableShare(requests: readonly string[]): CacheableShare {
  const rows = requests.map((text, i) => {
    let shared = 0;
    for (let j = 0; j < i; j++) shared = Math.max(shared, commonPrefixChars(text, requests[j]));
    return { promptTokens: tokensOfChars(text.length), cacheableTokens: Math.floor(shared / 4) };
  });
  const promptTokens = rows.reduce((n, r) => n + r.promptTokens, 0);
  const cacheableTokens = rows.reduce((n, r) => n + r.cacheableTokens, 0);
  return { promptTokens, cacheableTokens, share: promptTokens ? cacheableTokens / promptTokens : 0, requests: rows };
}
