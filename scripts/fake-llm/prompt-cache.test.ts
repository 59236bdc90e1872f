import { describe, expect, it } from 'vitest';
import { createPromptCache, PROMPT_CACHES } from './prompt-cache';

const header = 'H'.repeat(64 * 10 - '<|system|>\n'.length); // the role marker and the text fill ten 64-character blocks
const request = (user: string) => [
  { role: 'system', content: header },
  { role: 'user', content: user },
];

describe("the fake server's prompt cache", () => {
  it('serves the whole blocks a request shares with an earlier one from its start, and nothing the first time', () => {
    const cache = createPromptCache(PROMPT_CACHES.vllm);
    expect(cache.lookup(request('first step'), 1_000)).toBe(0);
    // The same ten blocks of system message; the user message differs from its first letter.
    expect(cache.lookup(request('second step'), 1_000)).toBe(10 * 16);
    // A request asked again in whole (a retry) is served as far as its whole blocks go.
    const long = `third step ${'x'.repeat(300)}`;
    cache.lookup(request(long), 1_000);
    expect(cache.lookup(request(long), 1_000)).toBe(Math.floor((640 + '\n<|user|>\n'.length + long.length + 1) / 64) * 16);
  });

  it('never serves more than the prompt, and a block only after the same start (a chain, not a bag)', () => {
    const cache = createPromptCache(PROMPT_CACHES.vllm);
    cache.lookup(request('a'), 1_000);
    expect(cache.lookup(request('b'), 100)).toBe(100);
    // The same text after a different first block shares nothing.
    const other = [
      { role: 'system', content: `X${header.slice(1)}` },
      { role: 'user', content: 'a' },
    ];
    expect(cache.lookup(other, 1_000)).toBe(0);
  });

  it('caches like OpenAI: 128-token steps, nothing under 1,024 tokens', () => {
    const cache = createPromptCache(PROMPT_CACHES.openai);
    cache.lookup(request('a'), 1_000);
    expect(cache.lookup(request('b'), 1_000)).toBe(0);
    // Ten 64-character blocks are 160 tokens: one whole 128-token step (512 characters).
    expect(cache.lookup(request('c'), 1_100)).toBe(128);
  });

  it('starts cold after clear()', () => {
    const cache = createPromptCache(PROMPT_CACHES.vllm);
    cache.lookup(request('a'), 1_000);
    cache.clear();
    expect(cache.lookup(request('b'), 1_000)).toBe(0);
  });
});
