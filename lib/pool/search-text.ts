// Korean has no spaces inside compounds and PostgreSQL ships no Korean parser, so besides the
// words themselves we index every Hangul character bigram: 반도체 → 반도 도체. A query is cut
// the same way, and a Korean word inside a longer word then still matches.
const HANGUL_RUN = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]+/g;

export function hangulBigrams(text: string): string[] {
  const grams: string[] = [];
  for (const run of text.match(HANGUL_RUN) ?? []) {
    if (run.length === 1) grams.push(run);
    for (let i = 0; i + 1 < run.length; i++) grams.push(run.slice(i, i + 2));
  }
  return grams;
}

/** The extra tokens stored beside a row's text for the `simple` full-text configuration. */
export function searchTokens(...parts: (string | null | undefined)[]): string {
  return hangulBigrams(parts.filter(Boolean).join(' ')).join(' ');
}
