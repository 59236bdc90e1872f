// Full-text retrieval over a company's evidence and document chunks, as of a date. One ranked
// list comes back, evidence and passages merged by score, so an agent (or an RM in the search
// box) sees the best material first whatever shape it was stored in.
//
// How a query is read (and why):
// - English (and any non-Hangul) text goes through websearch_to_tsquery('english', …), which
//   stems (lawsuits → lawsuit), drops stop words, keeps "quoted phrases" as phrases and never
//   raises a syntax error on user input. Each word or phrase is one *term*.
// - Each Korean word is one term, matched as the phrase of its Hangul bigrams in the `simple`
//   part of the vector (반도체 → '반도' <-> '도체'): adjacency makes it an exact substring match,
//   so 반도체 is found inside 반도체사업부, while a bare AND of the bigrams would also match a row
//   with 반도 in one word and 도체 in another. A trailing particle is dropped when at least two
//   syllables remain (소송이 → 소송): the query only becomes a substring of what was typed, so
//   this can only widen recall. The whole word is OR'ed in as well, because the `english` part of
//   the vector holds Korean words whole, with title weight: an exact title hit ranks higher.
// - Terms are OR'ed for matching (recall: a question in natural language rarely has all its
//   words in one item). The score is the share of terms a row contains plus its cover density
//   mapped into [0, 1) (precision: rows with every term come first, densest first). The two
//   statements that do it are in lib/db/queries/retrieval.ts.
import type { Executor } from '@/lib/db/client';
import { searchDocumentChunks, searchEvidence, type SearchTerms } from '@/lib/db/queries/retrieval';
import { assertIsoDate, isStale, recencyCutoff } from '@/lib/pool/as-of';
import { hangulBigrams } from '@/lib/pool/search-text';

export type RetrievedItem = {
  kind: 'evidence' | 'chunk';
  /** Evidence id, or the chunk's id. */
  id: string;
  /** Chunks: the document, the heading above the passage and its offsets into the body. */
  documentId?: string;
  heading?: string | null;
  charStart?: number;
  charEnd?: number;
  /** Evidence title, or the document's title for a chunk. */
  title: string;
  snippet: string;
  publishedDate: string;
  sourceName: string;
  sourceUrl: string;
  /** Relative relevance within one result list; not comparable across queries. */
  score: number;
  stale: boolean;
  /** Evidence items: their category and stored tag, so the passage is read as the pool reads it. */
  category?: string;
  factor?: string | null;
  polarity?: string | null;
  factorSource?: string | null;
};

export type RetrieveInput = {
  db: Executor;
  companyId: string;
  query: string;
  asOf: string;
  k?: number;
  /** Marks results published before as-of − R as stale; without it nothing is stale. */
  recencyDays?: number;
};

export const MAX_K = 100;
/** Enough for any real question; bounds the work a pasted paragraph can cause. */
export const MAX_TERMS = 32;
/**
 * Rows scored per statement, shared among the terms: each term brings its newest matches
 * before the as-of date. A query whose words are in most of a company's pool ("company", 영향)
 * would otherwise score every row, which is where the time goes; for a word that common,
 * recency is the better tiebreaker anyway, and agents prefer evidence inside the recency
 * window. Sharing per term keeps a rare word's matches in even when a common word has hundreds.
 * A query with fewer matches is ranked in full.
 */
export const MAX_CANDIDATES = 200;
const MIN_CANDIDATES_PER_TERM = 20;

// Same ranges as lib/pool/search-text.ts, so query and index cut Korean the same way.
const HANGUL_RUN = /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]+/g;
// Longest first, so 에서 is tried before 에 would leave 서 behind.
const PARTICLES = ['에서', '으로', '에게', '까지', '부터', '의', '을', '를', '은', '는', '이', '가', '에', '와', '과', '도', '로'];

export type SearchQuery = SearchTerms & {
  /** Strings to centre a snippet on. */
  needles: string[];
};

function stripParticle(word: string): string {
  for (const p of PARTICLES) if (word.endsWith(p) && word.length - p.length >= 2) return word.slice(0, -p.length);
  return word;
}

function hangulTerm(word: string): string {
  const stem = stripParticle(word);
  // A single syllable has no bigram: match it as a prefix of a bigram or of a whole word.
  if (stem.length === 1) return `'${stem}':*`;
  const alternatives = new Set([
    `'${word}'`,
    `'${stem}'`,
    hangulBigrams(stem)
      .map((g) => `'${g}'`)
      .join(' <-> '),
  ]);
  return `(${[...alternatives].join(' | ')})`;
}

/** English needles: a stem-like prefix, so `lawsuits` still finds `lawsuit` in the text. */
function englishNeedle(word: string): string | null {
  const w = word.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  if (w.length < 3) return null;
  return w.length <= 4 ? w : w.slice(0, Math.max(4, w.length - 3));
}

export function parseSearchQuery(text: string): SearchQuery {
  const normalized = text.normalize('NFC');
  const hangulWords = [...new Set(normalized.match(HANGUL_RUN) ?? [])];
  const rest = normalized.replace(HANGUL_RUN, ' ');

  const phrases: string[] = [];
  const withoutPhrases = rest.replace(/"([^"]*)"/g, (_, phrase: string) => {
    const clean = phrase.replace(/\s+/g, ' ').trim();
    if (clean) phrases.push(clean);
    return ' ';
  });
  const words = withoutPhrases
    .split(/\s+/)
    // A leading - would mean NOT and a bare `or` an operator to websearch_to_tsquery; a stray
    // quote would open a phrase. Here they are only characters: every term is positive.
    .map((w) => w.replace(/"/g, '').replace(/^-+/, ''))
    .filter((w) => w && w.toLowerCase() !== 'or');

  const seen = new Set<string>();
  const englishTerms = [...phrases.map((p) => `"${p}"`), ...words].filter((t) => !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()));
  const budget = Math.max(0, MAX_TERMS - hangulWords.length);
  const english = englishTerms.slice(0, budget);
  const hangul = hangulWords.slice(0, MAX_TERMS).map(hangulTerm);

  const needles = [
    ...hangulWords.slice(0, MAX_TERMS).map(stripParticle),
    ...english
      .flatMap((t) => t.replace(/"/g, '').split(' '))
      .map(englishNeedle)
      .filter((n): n is string => n !== null),
  ];
  return { english, hangul, needles: [...new Set(needles)] };
}

export function makeSnippet(text: string, needles: string[], maxChars = 240): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= maxChars) return flat;
  const lower = flat.toLowerCase();
  const hits: { at: number; needle: string }[] = [];
  for (const needle of needles) {
    const hangul = /^[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]+$/.test(needle);
    for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + 1)) {
      // English needles only at the start of a word; Korean ones anywhere (compounds).
      if (hangul || at === 0 || !/[\p{L}\p{N}]/u.test(lower[at - 1])) hits.push({ at, needle });
    }
  }
  // The window that shows the most different needles, earliest on a tie.
  let start = 0;
  let best = 0;
  for (const { at } of hits) {
    const from = Math.max(0, at - 40);
    const seen = new Set(hits.filter((h) => h.at >= from && h.at + h.needle.length <= from + maxChars).map((h) => h.needle)).size;
    if (seen > best) [best, start] = [seen, from];
  }
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    if (space !== -1 && space - start < 20) start = space + 1;
  }
  let end = Math.min(flat.length, start + maxChars);
  if (end < flat.length) {
    const space = flat.lastIndexOf(' ', end);
    if (space > start + maxChars / 2) end = space;
  }
  return `${start > 0 ? '…' : ''}${flat.slice(start, end).trim()}${end < flat.length ? '…' : ''}`;
}

/** Ranked evidence and document passages for `query`, never anything published after `asOf`. */
export async function retrieve({ db, companyId, query, asOf, k = 10, recencyDays }: RetrieveInput): Promise<RetrievedItem[]> {
  assertIsoDate(asOf);
  if (!Number.isInteger(k) || k < 1 || k > MAX_K) throw new RangeError(`k must be a whole number from 1 to ${MAX_K} (got ${k}).`);
  const cutoff = recencyDays === undefined ? null : recencyCutoff(asOf, recencyDays);

  const q = parseSearchQuery(query);
  const termCount = q.english.length + q.hangul.length;
  if (termCount === 0) return [];
  // Candidates are shared among the terms (MAX_CANDIDATES), each term bringing its newest matches.
  const search = {
    db,
    companyId,
    asOf,
    k,
    english: q.english,
    hangul: q.hangul,
    perTerm: Math.max(MIN_CANDIDATES_PER_TERM, Math.ceil(MAX_CANDIDATES / termCount)),
  };
  const evidenceRows = await searchEvidence(search);
  const chunkRows = await searchDocumentChunks(search);

  const results: RetrievedItem[] = [
    ...evidenceRows.map(({ text, ...row }) => ({
      kind: 'evidence' as const,
      ...row,
      snippet: makeSnippet(text, q.needles),
      stale: isStale(row.publishedDate, cutoff),
    })),
    ...chunkRows.map(({ text, ...row }) => ({
      kind: 'chunk' as const,
      ...row,
      snippet: makeSnippet(text, q.needles),
      stale: isStale(row.publishedDate, cutoff),
    })),
  ];
  return results.sort((a, b) => b.score - a.score || b.publishedDate.localeCompare(a.publishedDate) || a.id.localeCompare(b.id)).slice(0, k);
}
