// Readability of English reports: Flesch–Kincaid grade level, Coleman–Liau
// index and Automated Readability Index, with their standard coefficients. Each is a US school
// grade. The formulas are only meaningful for English; a Korean report is refused, not scored.
import type { RunParams } from '@/lib/domain/protocol';
import { reportText } from '@/lib/eval/report-text';
//
// How the text is counted (documented because every readability tool counts a little differently):
// - words: whitespace-separated tokens with at least one Latin letter or digit, outer punctuation
//   stripped; a hyphenated compound ("long-term") is one word;
// - sentences: text up to `.`, `!` or `?` followed by a space or the end, and every line break
//   (headings and list items of a rendered report are units of their own); at least one. An
//   abbreviation with a period ("e.g. the") ends a sentence too;
// - letters: A–Z; characters (ARI): letters and digits;
// - syllables: the heuristic in `countSyllables`.

export type ReadabilityCounts = { words: number; sentences: number; syllables: number; letters: number; characters: number };

export type Readability = ReadabilityCounts & {
  /** Flesch–Kincaid grade level: 0.39 (words/sentences) + 11.8 (syllables/words) − 15.59. */
  fkgl: number;
  /** Coleman–Liau index: 0.0588 L − 0.296 S − 15.8; L letters and S sentences per 100 words. */
  colemanLiau: number;
  /** Automated Readability Index: 4.71 (characters/words) + 0.5 (words/sentences) − 21.43. */
  ari: number;
};

/**
 * Syllables of an English word, by rule of thumb (no dictionary): count groups of vowels
 * (a e i o u y) after dropping what is usually silent — a final `e` (but not `-le` after a
 * consonant, as in "table", nor `-ee`), `-es` except after s, x, z, c, g, h ("makes" 1, "boxes"
 * 2), `-ed` except after t or d ("jumped" 1, "wanted" 2) — and a leading `y` before a vowel
 * ("year"). Words of up to three letters count 1; every word counts at least 1. Hyphenated parts
 * are counted separately. It misses some ("create" counts 1), as all such heuristics do.
 */
export function countSyllables(word: string): number {
  const parts = word
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
  if (parts.length === 0) return /\d/.test(word) ? 1 : 0; // a number reads as (at least) one syllable
  return parts.reduce((sum, part) => sum + partSyllables(part), 0);
}

function partSyllables(w: string): number {
  if (w.length <= 3) return 1;
  let core = w;
  if (/[^aeiouy]le$/.test(core) || /ee$/.test(core)) {
    // "table", "free": the final e is voiced (or part of a vowel pair); keep it.
  } else if (/[^aeiouysxzcgh]es$/.test(core)) core = core.slice(0, -2);
  else if (/[^aeiouytd]ed$/.test(core)) core = core.slice(0, -2);
  else if (/[^aeiouy]e$/.test(core)) core = core.slice(0, -1);
  core = core.replace(/^y(?=[aeiou])/, '');
  return Math.max(1, (core.match(/[aeiouy]+/g) ?? []).length);
}

function tokens(text: string): string[] {
  return text
    .split(/\s+/)
    .map((t) => t.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, ''))
    .filter((t) => /[A-Za-z0-9]/.test(t));
}

export function countText(text: string): ReadabilityCounts {
  const words = tokens(text);
  const sentences = text.split(/\n+|(?<=[.!?])["')\]]*\s+/).filter((s) => tokens(s).length > 0).length;
  const letters = words.reduce((n, w) => n + (w.match(/[A-Za-z]/g)?.length ?? 0), 0);
  const digits = words.reduce((n, w) => n + (w.match(/[0-9]/g)?.length ?? 0), 0);
  return {
    words: words.length,
    sentences: Math.max(1, sentences),
    syllables: words.reduce((n, w) => n + countSyllables(w), 0),
    letters,
    characters: letters + digits,
  };
}

/** The three indices from counts (exported so a study can score its own counts). */
export function readabilityFromCounts(c: ReadabilityCounts): Readability {
  if (c.words === 0) throw new RangeError('The text has no English words to score.');
  const wordsPerSentence = c.words / c.sentences;
  return {
    ...c,
    fkgl: 0.39 * wordsPerSentence + 11.8 * (c.syllables / c.words) - 15.59,
    colemanLiau: 0.0588 * ((c.letters / c.words) * 100) - 0.296 * ((c.sentences / c.words) * 100) - 15.8,
    ari: 4.71 * (c.characters / c.words) + 0.5 * wordsPerSentence - 21.43,
  };
}

const HANGUL = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/g;

/**
 * FKGL, Coleman–Liau and ARI of an English text. Throws for text without English words, and for
 * text that is mostly Hangul (a Korean report with a few English names is not an English text).
 */
export function readability(text: string): Readability {
  const hangul = text.match(HANGUL)?.length ?? 0;
  const latin = text.match(/[A-Za-z]/g)?.length ?? 0;
  if (hangul > latin) throw new RangeError('The readability formulas are for English text; this text is mostly Korean.');
  return readabilityFromCounts(countText(text));
}

/** What readability reads of a run (a RunView is one): its output language and its report. */
export type ReadableRun = { params: Pick<RunParams, 'language'> | null; report: { content: unknown; checks: unknown } | null };

/**
 * Readability of a run's report, measured on its prose only (no field labels, factor ids or
 * citations). Refuses runs without a report and runs whose output language is not English.
 */
export function readabilityOfRun(view: ReadableRun): Readability {
  const language = view.params?.language;
  if (language !== 'en') throw new RangeError(`Readability is measured on English reports; this run's output language is ${language ?? 'unknown'}.`);
  if (!view.report) throw new RangeError('This run has no report yet (it has not finished, or its report step failed).');
  return readability(reportText(view.report.content, 'prose'));
}
