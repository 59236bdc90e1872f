import { describe, expect, it } from 'vitest';
import { cacheableShare, commonPrefixChars, serializeMessages } from '@/lib/llm/prompt-cache';

describe('the cacheable share of a run', () => {
  it('counts, per request, the longest start it shares with any earlier request', () => {
    const header = 'H'.repeat(400); // 100 tokens
    const a = `${header}${'a'.repeat(400)}`; // 200 tokens, nothing before it
    const b = `${header}${'b'.repeat(200)}`; // 150 tokens, shares the header with a
    const c = `${header}${'a'.repeat(200)}${'c'.repeat(200)}`; // 200 tokens, shares 150 with a
    const share = cacheableShare([a, b, c]);
    expect(share.requests).toEqual([
      { promptTokens: 200, cacheableTokens: 0 },
      { promptTokens: 150, cacheableTokens: 100 },
      { promptTokens: 200, cacheableTokens: 150 },
    ]);
    expect(share.promptTokens).toBe(550);
    expect(share.cacheableTokens).toBe(250);
    expect(share.share).toBeCloseTo(250 / 550, 10);
  });

  it('caches nothing for a single request, or for requests that differ from the first byte', () => {
    expect(cacheableShare(['x'.repeat(40)]).cacheableTokens).toBe(0);
    expect(cacheableShare(['x'.repeat(40), 'y'.repeat(40)]).share).toBe(0);
    expect(cacheableShare([]).share).toBe(0);
  });

  it('counts a repeated request in whole (a repair or a retry sends the same start again)', () => {
    const text = 'z'.repeat(4000);
    expect(cacheableShare([text, `${text} and the repair turn`]).requests[1].cacheableTokens).toBe(1000);
  });

  it('reads a role change as a difference: the same text as system and as user is not one prefix', () => {
    const asSystem = serializeMessages([{ role: 'system', content: 'Same words.' }]);
    const asUser = serializeMessages([{ role: 'user', content: 'Same words.' }]);
    expect(commonPrefixChars(asSystem, asUser)).toBe(2);
    const one = serializeMessages([
      { role: 'system', content: 'Header.' },
      { role: 'user', content: 'Step one.' },
    ]);
    const two = serializeMessages([
      { role: 'system', content: 'Header.' },
      { role: 'user', content: 'Step two.' },
    ]);
    expect(one.slice(0, commonPrefixChars(one, two))).toBe('<|system|>\nHeader.\n<|user|>\nStep ');
  });
});
