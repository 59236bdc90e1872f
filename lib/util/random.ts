// Seeded randomness: the same seed gives the same sequence on every machine and in every
// release, so a study's report orders can be reproduced from the recorded seed and fake or
// benchmark data is the same from run to run. Never for anything secret (use node:crypto).

/** mulberry32: a small, well-mixed generator of numbers in [0, 1). Changing it would reorder every recorded study. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Random = ReturnType<typeof seededRandom>;

/** FNV-1a (32 bits) of a string's UTF-16 code units: turns a text into a seed. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A copy of `items` in a Fisher–Yates order drawn from `seed`; the input is left as it was. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  const next = seededRandom(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
