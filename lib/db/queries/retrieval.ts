// Full-text search over a company's evidence and document chunks as of a date: the two ranked
// statements behind lib/pool/retrieve.ts, which reads the query into terms (and explains how)
// and merges the two lists. Everything from the user travels as a bound parameter.
import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { executeRows } from '@/lib/db/rows';
import { documentChunks, documents, evidenceItems } from '@/lib/db/schema';

/** A query read into terms (lib/pool/retrieve.ts): each is one term, OR'ed for matching. */
export type SearchTerms = {
  /** websearch_to_tsquery input, one per English word or "quoted phrase". */
  english: string[];
  /** tsquery text, one per Korean word (Hangul only, so nothing in it needs escaping). */
  hangul: string[];
};

export type SearchInput = SearchTerms & {
  db: Executor;
  companyId: string;
  /** Nothing published after this date (YYYY-MM-DD) is a candidate. */
  asOf: string;
  /** Rows returned, best first. */
  k: number;
  /** Each term brings at most this many of its newest matches as candidates; only those are scored. */
  perTerm: number;
};

type Hit = { id: string; title: string; text: string; publishedDate: string; sourceName: string; sourceUrl: string; score: number };
/** An evidence item carries its category and tag, so a reader of the passage reads it as the pool does. */
export type EvidenceHit = Hit & { category: string; factor: string | null; polarity: string | null; factorSource: string | null };
export type ChunkHit = Hit & { documentId: string; heading: string | null; charStart: number; charEnd: number };

/** Each term as a tsquery expression. */
function termQueries(q: SearchTerms): SQL[] {
  return [...q.english.map((t) => sql`websearch_to_tsquery('english', ${t})`), ...q.hangul.map((t) => sql`${t}::tsquery`)];
}

/** Any term: what a row must match to be a candidate at all. */
function anyTermQuery(q: SearchTerms): SQL {
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
  const matched = sql.join(
    terms.map((t) => sql`(${vector} @@ ${t})::int`),
    sql` + `,
  );
  const counted = sql.join(
    terms.map((t) => sql`(numnode(${t}) > 0)::int`),
    sql` + `,
  );
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

/**
 * The score of a candidate: the share of terms it contains plus its cover density mapped into
 * [0, 1), computed from the copy that `detoasted` makes (one decompression per candidate).
 */
function score(q: SearchTerms, terms: SQL[]): SQL {
  return sql`(${coverage(sql`x.v`, terms)} + ts_rank_cd(${RANK_WEIGHTS}, x.v, ${anyTermQuery(q)}, ${RANK_NORMALIZATION}))::float8`;
}

/** The k best evidence items for the terms, never one published after `asOf`. No terms, no rows. */
export async function searchEvidence({ db, companyId, asOf, k, perTerm, ...q }: SearchInput): Promise<EvidenceHit[]> {
  const terms = termQueries(q);
  if (terms.length === 0) return [];
  // Candidates first: for each term, its newest matches (a walk back from the as-of date, or
  // the GIN index when the term is rare). Only these rows are scored.
  const candidates = sql.join(
    terms.map(
      (term) => sql`(select ${evidenceItems.id} as id from ${evidenceItems}
        where ${evidenceItems.companyId} = ${companyId} and ${evidenceItems.publishedDate} <= ${asOf}::date
          and numnode(${term}) > 0 and ${evidenceItems.search} @@ ${term}
        order by ${evidenceItems.publishedDate} desc, ${evidenceItems.id} desc
        limit ${perTerm})`,
    ),
    sql` union `,
  );
  return executeRows<EvidenceHit>(
    db,
    sql`select ${evidenceItems.id} as "id", ${evidenceItems.title} as "title", ${evidenceItems.text} as "text",
          ${evidenceItems.publishedDate}::text as "publishedDate", ${evidenceItems.sourceName} as "sourceName",
          ${evidenceItems.sourceUrl} as "sourceUrl", ${evidenceItems.category} as "category", ${evidenceItems.factor} as "factor",
          ${evidenceItems.polarity} as "polarity", ${evidenceItems.factorSource} as "factorSource", ${score(q, terms)} as "score"
        from (${candidates}) as c
        join ${evidenceItems} on ${evidenceItems.id} = c.id
        cross join lateral ${detoasted(sql`${evidenceItems.search}`)}
        order by "score" desc, ${evidenceItems.publishedDate} desc, ${evidenceItems.id}
        limit ${k}`,
  );
}

/** The k best document passages for the terms, never one of a document published after `asOf`. No terms, no rows. */
export async function searchDocumentChunks({ db, companyId, asOf, k, perTerm, ...q }: SearchInput): Promise<ChunkHit[]> {
  const terms = termQueries(q);
  if (terms.length === 0) return [];
  const candidates = sql.join(
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
  return executeRows<ChunkHit>(
    db,
    sql`select ${documentChunks.id}::text as "id", ${documentChunks.documentId} as "documentId", ${documentChunks.heading} as "heading",
          ${documentChunks.text} as "text", ${documentChunks.charStart} as "charStart", ${documentChunks.charEnd} as "charEnd",
          ${documents.title} as "title", ${documents.publishedDate}::text as "publishedDate", ${documents.sourceName} as "sourceName",
          ${documents.sourceUrl} as "sourceUrl", ${score(q, terms)} as "score"
        from (${candidates}) as c
        join ${documentChunks} on ${documentChunks.id} = c.id
        join ${documents} on ${documents.id} = ${documentChunks.documentId}
        cross join lateral ${detoasted(sql`${documentChunks.search}`)}
        order by "score" desc, ${documents.publishedDate} desc, ${documentChunks.documentId}, ${documentChunks.ordinal}
        limit ${k}`,
  );
}
