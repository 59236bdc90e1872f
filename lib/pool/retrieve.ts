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
//   mapped into [0, 1) (precision: rows with every term come first, densest first).
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { documentChunks, documents, evidenceItems } from '@/lib/db/schema';
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

export type SearchQuery = {
  /** websearch_to_tsquery input, one per English word or "quoted phrase". */
  english: string[];
  /** tsquery text, one per Korean word (Hangul only, so nothing in it needs escaping). */
  hangul: string[];
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
  const alternatives = new Set([`'${word}'`, `'${stem}'`, hangulBigrams(stem).map((g) => `'${g}'`).join(' <-> ')]);
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
    ...english.flatMap((t) => t.replace(/"/g, '').split(' ')).map(englishNeedle).filter((n): n is string => n !== null),
  ];
  return { english, hangul, needles: [...new Set(needles)] };
}

/** Each term as a tsquery expression. Everything from the user travels as a bound parameter. */
function termQueries(q: SearchQuery): SQL[] {
  return [...q.english.map((t) => sql`websearch_to_tsquery('english', ${t})`), ...q.hangul.map((t) => sql`${t}::tsquery`)];
}

/** Any term: what a row must match to be a candidate at all. */
function anyTermQuery(q: SearchQuery): SQL {
  const parts: SQL[] = [];
  // One websearch_to_tsquery for all English terms; `or` is its OR operator.
  if (q.english.length) parts.push(sql`websearch_to_tsquery('english', ${q.english.join(' or ')})`);
  if (q.hangul.length) parts.push(sql`${q.hangul.join(' | ')}::tsquery`);
  return sql`(${sql.join(parts, sql` || `)})`;
}

// ts_rank_cd weights in {D, C, B, A} order. A = titles and headings, B = body text, D = the
// Hangul bigrams: raised from the default 0.1 so a Korean match in the body counts about as much
// as an English one (the bigrams carry no title/body distinction; whole Korean words in the
// English part still do).
const RANK_WEIGHTS = sql.raw(`'{0.3, 0.2, 0.4, 1.0}'::float4[]`);
// 1 = divide by 1 + log(length): a 1,200-character passage is not buried by a 300-character
// item, and Korean rows, whose vectors are longer because of the bigrams, lose little.
// 32 = rank / (rank + 1), so density adds less than one to a score whose whole part is coverage.
const RANK_NORMALIZATION = sql.raw('1 | 32');

/**
 * The share of the query's terms that a row contains (stop-word terms do not count). Ranking
 * by cover density alone would let a row that repeats one term beat a row with every term;
 * proximity (an AND query's cover density) cannot fix that here, because Korean bigrams sit
 * after all English words in the vector, so an English and a Korean term are never "close".
 */
function coverage(vector: SQL, terms: SQL[]): SQL {
  const matched = sql.join(terms.map((t) => sql`(${vector} @@ ${t})::int`), sql` + `);
  const counted = sql.join(terms.map((t) => sql`(numnode(${t}) > 0)::int`), sql` + `);
  return sql`((${matched})::float4 / greatest(${counted}, 1))`;
}

/**
 * A lateral subquery that yields the row's vector as `x.v`, decompressed once. Korean rows'
 * vectors (bigrams) pass the 2 kB TOAST threshold and are stored compressed, and every function
 * given the column decompresses it again: scoring one row with n terms would do it n + 1 times,
 * which dominated the time of broad queries. `|| ''` builds a plain in-memory copy, and
 * `offset 0` keeps the planner from folding the subquery back into each use.
 */
function detoasted(vector: SQL): SQL {
  return sql`(select ${vector} || ''::tsvector as v offset 0) as x`;
}

type EvidenceRow = { id: string; title: string; text: string; publishedDate: string; sourceName: string; sourceUrl: string; score: number };
type ChunkRow = Omit<EvidenceRow, 'id'> & { id: string; documentId: string; heading: string | null; charStart: number; charEnd: number };

/** Raw statements return `{ rows }` on both drivers. */
async function rows<T>(db: Executor, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
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
  const terms = termQueries(q);
  if (terms.length === 0) return [];
  const anyQuery = anyTermQuery(q);

  // Scored from the copy that `detoasted` makes: one decompression per candidate.
  const score = sql`(${coverage(sql`x.v`, terms)} + ts_rank_cd(${RANK_WEIGHTS}, x.v, ${anyQuery}, ${RANK_NORMALIZATION}))::float8`;

  // Candidates first: for each term, its newest matches (a walk back from the as-of date, or
  // the GIN index when the term is rare). Only these rows are scored.
  const perTerm = Math.max(MIN_CANDIDATES_PER_TERM, Math.ceil(MAX_CANDIDATES / terms.length));
  const evidenceCandidates = sql.join(
    terms.map(
      (term) => sql`(select ${evidenceItems.id} as id from ${evidenceItems}
        where ${evidenceItems.companyId} = ${companyId} and ${evidenceItems.publishedDate} <= ${asOf}::date
          and numnode(${term}) > 0 and ${evidenceItems.search} @@ ${term}
        order by ${evidenceItems.publishedDate} desc, ${evidenceItems.id} desc
        limit ${perTerm})`,
    ),
    sql` union `,
  );
  const evidenceRows = await rows<EvidenceRow>(
    db,
    sql`select ${evidenceItems.id} as "id", ${evidenceItems.title} as "title", ${evidenceItems.text} as "text",
          ${evidenceItems.publishedDate}::text as "publishedDate", ${evidenceItems.sourceName} as "sourceName",
          ${evidenceItems.sourceUrl} as "sourceUrl", ${score} as "score"
        from (${evidenceCandidates}) as c
        join ${evidenceItems} on ${evidenceItems.id} = c.id
        cross join lateral ${detoasted(sql`${evidenceItems.search}`)}
        order by "score" desc, ${evidenceItems.publishedDate} desc, ${evidenceItems.id}
        limit ${k}`,
  );

  const chunkCandidates = sql.join(
    terms.map(
      (term) => sql`(select ${documentChunks.id} as id from ${documentChunks}
        join ${documents} on ${documents.id} = ${documentChunks.documentId}
        -- A passage is as old as its document: the document's date decides what as-of may see.
        where ${documents.companyId} = ${companyId} and ${documents.publishedDate} <= ${asOf}::date
          and numnode(${term}) > 0 and ${documentChunks.search} @@ ${term}
        order by ${documents.publishedDate} desc, ${documentChunks.id} desc
        limit ${perTerm})`,
    ),
    sql` union `,
  );
  const chunkRows = await rows<ChunkRow>(
    db,
    sql`select ${documentChunks.id}::text as "id", ${documentChunks.documentId} as "documentId", ${documentChunks.heading} as "heading",
          ${documentChunks.text} as "text", ${documentChunks.charStart} as "charStart", ${documentChunks.charEnd} as "charEnd",
          ${documents.title} as "title", ${documents.publishedDate}::text as "publishedDate", ${documents.sourceName} as "sourceName",
          ${documents.sourceUrl} as "sourceUrl", ${score} as "score"
        from (${chunkCandidates}) as c
        join ${documentChunks} on ${documentChunks.id} = c.id
        join ${documents} on ${documents.id} = ${documentChunks.documentId}
        cross join lateral ${detoasted(sql`${documentChunks.search}`)}
        order by "score" desc, ${documents.publishedDate} desc, ${documentChunks.documentId}, ${documentChunks.ordinal}
        limit ${k}`,
  );

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
  return results
    .sort((a, b) => b.score - a.score || b.publishedDate.localeCompare(a.publishedDate) || a.id.localeCompare(b.id))
    .slice(0, k);
}
