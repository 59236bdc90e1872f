// One sentence splitter for every place that cuts text into sentences or cuts a quotation short:
// red-flag rules (lib/pool/red-flags.ts), document candidates and their quotation spans
// (lib/pool/documents/candidates.ts), readability counts (lib/eval/readability.ts) and the offline
// analyst's quotations (lib/llm/offline/material.ts, text.ts). A full stop is not a sentence end
// after an abbreviation ("U.S.", "Inc.", "No.", "e.g.", "Jan."), between the parts of a number or
// a dotted date ("3.5", "2023. 12. 28."), after an initial, or anywhere inside brackets ("(Dec.
// 2023)" stays whole). Korean endings ("…했다.", "…있음.", "…함.") end a sentence even when the
// writer left no space after them. One pass over the text and bounded look-arounds: linear time,
// whatever a filing holds (lib/nested-quantifiers.test.ts).

export type SentenceSpan = { start: number; end: number };

/** Never the end of a sentence: a title, a reference or a month comes before more of it. */
const ALWAYS_CONTINUE = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'st',
  'no',
  'nos',
  'vs',
  'v',
  'e.g',
  'i.e',
  'cf',
  'approx',
  'fig',
  'sec',
  'vol',
  'pp',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
]);

/** Names that often sit mid-sentence ("Tesla, Inc. announced", "the U.S. market") but may also close one. */
const NAME_ABBREVIATIONS = new Set(['inc', 'co', 'corp', 'ltd', 'llc', 'plc', 'bros', 'jr', 'sr', 'u.s', 'u.k', 'u.s.a', 'e.u', 'n.a', 's.a', 'l.p', 'a.g']);

/** Words that open a new sentence after a name abbreviation: "…Tesla, Inc. The company…" splits there. */
const OPENERS = new Set([
  'the',
  'this',
  'that',
  'these',
  'those',
  'it',
  'its',
  'in',
  'on',
  'as',
  'we',
  'our',
  'there',
  'however',
  'he',
  'she',
  'they',
  'a',
  'an',
  'for',
  'if',
  'during',
  'after',
  'since',
]);

/** Korean sentence endings that may be followed by no space at all: 다, 음, 함, 임, 됨, 요. */
const KOREAN_ENDS = new Set(['다', '음', '함', '임', '됨', '요']);

const OPEN = '([{（［';
const CLOSE = ')]}）］';
const CLOSING_QUOTES = '"\'”’»」』';
const ALWAYS_END = '。！？';
const MAX_WORD = 16;

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || c === '\u00a0' || c === '\u3000';
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isUpper = (c: string | undefined) => c !== undefined && c.toLowerCase() !== c;
const isHangul = (c: string | undefined) => c !== undefined && c >= '\uac00' && c <= '\ud7a3';

/** Which characters sit inside a matched pair of brackets; an unmatched bracket shelters nothing. */
function bracketed(text: string): Uint8Array {
  const depth = new Int32Array(text.length + 1);
  const stack: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (OPEN.includes(text[i])) stack.push(i);
    else if (CLOSE.includes(text[i]) && stack.length) {
      // Counted, not filled: nested pairs cost nothing more than the text's length.
      depth[stack.pop()! + 1]++;
      depth[i]--;
    }
  }
  const inside = new Uint8Array(text.length);
  let level = 0;
  for (let i = 0; i < text.length; i++) {
    level += depth[i];
    if (level > 0) inside[i] = 1;
  }
  return inside;
}

/** The word just before `at` (up to MAX_WORD characters, dots kept), lower-cased. */
function wordBefore(text: string, at: number): string {
  let from = at;
  while (from > 0 && at - from < MAX_WORD && !isSpace(text[from - 1]) && !OPEN.includes(text[from - 1]) && text[from - 1] !== ',') from--;
  return text.slice(from, at).toLowerCase();
}

/** The word starting at `at`, up to MAX_WORD characters, lower-cased and without trailing punctuation. */
function wordAt(text: string, at: number): string {
  let to = at;
  while (to < text.length && to - at < MAX_WORD && /[\p{L}\p{N}]/u.test(text[to])) to++;
  return text.slice(at, to).toLowerCase();
}

/**
 * Whether the full stop at `i` ends its sentence, given the first character after the spaces that
 * follow it (`next`, at `nextAt`; undefined at the end of the text).
 */
function fullStopEnds(text: string, i: number, next: string | undefined, nextAt: number, gap: boolean): boolean {
  const before = text[i - 1];
  // "…" written as dots: a pause unless a capital opens what follows.
  if (before === '.' || text[i + 1] === '.') return text[i + 1] !== '.' && gap && (next === undefined || isUpper(next));
  if (next === undefined) return true;
  // No space after it: a decimal, a dotted date or a domain, unless a Korean ending closes a sentence.
  if (!gap) return KOREAN_ENDS.has(before) && (isHangul(next) || isUpper(next));
  const word = wordBefore(text, i);
  const wordStart = i - word.length;
  // 2023. 12. 28. — the parts of a Korean date, and "No. 5" style numbering.
  if (/^\d{1,4}$/.test(word) && isDigit(next)) return false;
  // …and the date's last part, which the sentence goes on after ("2023. 12. 28. 이사회에서").
  if (/^\d{1,2}$/.test(word) && /\d\.\s$/.test(text.slice(Math.max(0, wordStart - 3), wordStart)) && !isUpper(next)) return false;
  if (ALWAYS_CONTINUE.has(word)) return false;
  // An initial ("J. Smith") or a one-letter abbreviation.
  if (/^[a-z]$/.test(word) && isUpper(before)) return false;
  if (NAME_ABBREVIATIONS.has(word) || /^(?:[a-z]\.){1,3}[a-z]$/.test(word)) return isUpper(next) && OPENERS.has(wordAt(text, nextAt));
  // Any other word: a full stop and a space end the sentence, whatever case follows ("… bonds. x.").
  return true;
}

/**
 * The sentences of `text` as trimmed spans. Line breaks end a sentence too unless `lineBreaks` is
 * false (a paragraph re-flowed at a fixed width), and a blank line always does.
 */
export function sentenceSpans(text: string, { lineBreaks = true }: { lineBreaks?: boolean } = {}): SentenceSpan[] {
  const out: SentenceSpan[] = [];
  const inside = bracketed(text);
  let from = 0;
  const push = (end: number) => {
    let s = from;
    let e = end;
    while (s < e && isSpace(text[s])) s++;
    while (e > s && isSpace(text[e - 1])) e--;
    if (e > s) out.push({ start: s, end: e });
    from = end;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      if (lineBreaks || text[i + 1] === '\n' || (text[i + 1] === '\r' && text[i + 2] === '\n')) push(i);
      continue;
    }
    if (inside[i]) continue;
    const stop = c === '.' || c === '!' || c === '?' || c === '…' || ALWAYS_END.includes(c);
    if (!stop) continue;
    // What closes with the stop: quotes and brackets right after it belong to this sentence.
    let end = i + 1;
    while (end < text.length && (CLOSING_QUOTES.includes(text[end]) || CLOSE.includes(text[end]))) end++;
    let nextAt = end;
    while (nextAt < text.length && isSpace(text[nextAt]) && text[nextAt] !== '\n') nextAt++;
    const gap = nextAt > end || nextAt >= text.length || text[nextAt] === '\n';
    const next = nextAt < text.length && text[nextAt] !== '\n' ? text[nextAt] : undefined;
    let ends: boolean;
    if (ALWAYS_END.includes(c)) ends = true;
    else if (c === '.') ends = fullStopEnds(text, i, next, nextAt, gap);
    else if (c === '…') ends = gap && (next === undefined || isUpper(next));
    else ends = gap && !(next !== undefined && next >= 'a' && next <= 'z');
    if (!ends) continue;
    push(end);
    i = end - 1;
  }
  push(text.length);
  return out;
}

/** The sentences of `text`, trimmed. */
export function sentences(text: string, options?: { lineBreaks?: boolean }): string[] {
  return sentenceSpans(text, options).map((s) => text.slice(s.start, s.end));
}

/** Where a sentence of `text` ends (just past its stop and closing quotes): places a quotation may stop. */
export function sentenceEnds(text: string, options?: { lineBreaks?: boolean }): number[] {
  return sentenceSpans(text, options)
    .map((s) => s.end)
    .filter((end) => /[.!?…。！？"'”’»」』)\]）］]/.test(text[end - 1]));
}

/** Whether position `at` of `text` lies inside a matched pair of brackets: no cut belongs there. */
export function insideBrackets(text: string): (at: number) => boolean {
  const inside = bracketed(text);
  return (at) => inside[at] === 1;
}
