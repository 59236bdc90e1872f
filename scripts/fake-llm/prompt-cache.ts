// The fake server's prompt cache, kept the way vLLM's automatic prefix caching keeps it: the
// prompt is cut into blocks of a fixed number of tokens, each block is named by a hash of
// everything up to its end, and a request's cached tokens are the blocks at its start whose
// names an earlier request already registered. OpenAI does the same with 128-token increments
// and caches nothing under 1,024 tokens (`openai` below). The usage then carries
// `prompt_tokens_details.cached_tokens`, as both report it, so the provider's path from the
// endpoint's usage to a step's saved figures is tested end to end.
import { createHash } from 'node:crypto';
import { messageText, type ChatMessage } from './reply';

export type PromptCacheSettings = { blockTokens: number; minTokens: number };

export const PROMPT_CACHES = {
  vllm: { blockTokens: 16, minTokens: 0 },
  openai: { blockTokens: 128, minTokens: 1024 },
} satisfies Record<string, PromptCacheSettings>;

/** The most block names kept; the oldest go first, as an engine evicts under memory pressure. */
const MAX_BLOCKS = 200_000;

/** A message as the cache reads it: its role and its text (tool calls included), in order. */
function serialize(messages: ChatMessage[]): string {
  return messages
    .map((m) => `<|${m.role}|>\n${messageText(m)}${(m.tool_calls ?? []).map((c) => `${c.function.name}(${c.function.arguments})`).join('')}\n`)
    .join('');
}

export function createPromptCache(settings: PromptCacheSettings) {
  // Insertion-ordered: the first keys are the oldest.
  const blocks = new Set<string>();
  const blockChars = settings.blockTokens * 4;

  return {
    /**
     * The request's cached prompt tokens: its leading blocks an earlier request registered, at
     * most `promptTokens`. Registers the request's own blocks for later requests.
     */
    lookup(messages: ChatMessage[], promptTokens: number): number {
      const text = serialize(messages);
      let hash = '';
      let hits = 0;
      let missed = false;
      for (let end = blockChars; end <= text.length; end += blockChars) {
        hash = createHash('sha1')
          .update(hash)
          .update(text.slice(end - blockChars, end))
          .digest('hex');
        if (!missed && blocks.has(hash)) hits++;
        else {
          missed = true;
          blocks.add(hash);
        }
      }
      while (blocks.size > MAX_BLOCKS) blocks.delete(blocks.values().next().value!);
      if (promptTokens < settings.minTokens) return 0;
      return Math.min(hits * settings.blockTokens, promptTokens);
    },
    clear() {
      blocks.clear();
    },
  };
}
