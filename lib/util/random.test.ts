import { describe, expect, it } from 'vitest';
import { hashString, seededRandom, shuffled } from '@/lib/util/random';

// The values are pinned: recorded studies reproduce their report orders from a seed, so the
// generator, the hash and the shuffle must never change what they return.
describe('seededRandom', () => {
  it('returns the same mulberry32 sequence for a seed, in [0, 1)', () => {
    const next = seededRandom(42);
    expect([next(), next(), next()]).toEqual([0.6011037519201636, 0.44829055899754167, 0.8524657934904099]);
    const zero = seededRandom(0);
    expect([zero(), zero()]).toEqual([0.26642920868471265, 0.0003297457005828619]);
  });

  it('reads the seed as an unsigned 32-bit number', () => {
    expect(seededRandom(-1)()).toBe(0.8964226141106337);
    expect(seededRandom(2 ** 32 - 1)()).toBe(0.8964226141106337);
  });
});

describe('hashString', () => {
  it('is FNV-1a over UTF-16 code units', () => {
    expect(hashString('')).toBe(2166136261);
    expect(hashString('a')).toBe(3826002220);
    expect(hashString('42:evaluator-1')).toBe(1290280490);
    expect(hashString('가')).toBe(73554207);
  });
});

describe('shuffled', () => {
  it('draws a fixed order from the seed and leaves the input alone', () => {
    const items = ['a', 'b', 'c', 'd', 'e', 'f'];
    expect(shuffled(items, 7).join('')).toBe('ebcdfa');
    expect(items.join('')).toBe('abcdef');
    expect(shuffled([], 7)).toEqual([]);
  });
});
