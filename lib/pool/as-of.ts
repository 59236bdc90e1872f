// The one way agents read the knowledge pool. A case is analysed as of a date, and nothing
// published after that date may reach a prompt (docs/protocols.md): back-tests are only honest if
// the model cannot see the future. Every read therefore goes through these functions, which
// take the as-of date as a required argument and filter on it in SQL, and mark evidence older
// than the recency window as stale so an agent can say when it leans on old material.
import { and, asc, desc, eq, lte, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { documents, evidenceItems, evidenceTagOverrides, type Polarity } from '@/lib/db/schema';
import { yieldToEventLoop } from '@/lib/event-loop';
import type { PoolEvidence } from '@/lib/pool/types';

export class AsOfDateError extends Error {}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** UTC midnight of a YYYY-MM-DD date, or null when it is not a real calendar date. */
function parseIsoDate(value: string): Date | null {
  const m = ISO_DATE.exec(value);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1) return null;
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0–99 to 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  // 2024-02-30 rolls over to March: a round trip catches every impossible day.
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date : null;
}

function formatIsoDate(date: Date): string {
  const year = String(date.getUTCFullYear()).padStart(4, '0');
  return `${year}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${String(date.getUTCDate()).padStart(2, '0')}`;
}

/** Throws a readable error unless `value` is a real calendar date written YYYY-MM-DD. */
export function assertIsoDate(value: unknown, label = 'as-of date'): asserts value is string {
  if (typeof value !== 'string' || !parseIsoDate(value)) {
    throw new AsOfDateError(`The ${label} must be a real date written YYYY-MM-DD (got ${JSON.stringify(value)}).`);
  }
}

function assertRecencyDays(recencyDays: unknown): asserts recencyDays is number {
  if (typeof recencyDays !== 'number' || !Number.isInteger(recencyDays) || recencyDays < 0) {
    throw new AsOfDateError(`The recency window must be a whole number of days, 0 or more (got ${JSON.stringify(recencyDays)}).`);
  }
}

/**
 * as-of − R days. Evidence published on the cutoff is still fresh; anything before it is stale.
 * R = 0 makes everything published before the as-of date stale.
 */
export function recencyCutoff(asOf: string, recencyDays: number): string {
  assertIsoDate(asOf);
  assertRecencyDays(recencyDays);
  const cutoff = new Date(parseIsoDate(asOf)!.getTime() - recencyDays * DAY_MS);
  return cutoff.getUTCFullYear() < 1 ? '0001-01-01' : formatIsoDate(cutoff);
}

/** ISO dates compare correctly as strings. No cutoff (no recency window) means nothing is stale. */
export function isStale(publishedDate: string, cutoff: string | null): boolean {
  return cutoff !== null && publishedDate < cutoff;
}

function assertLimit(limit: number | undefined) {
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    throw new RangeError(`limit must be a positive whole number (got ${limit}).`);
  }
}

/** Pool evidence as an agent may read it: with the RM's tag applied and a staleness flag. */
export type EvidenceAsOf = Omit<PoolEvidence, 'upstream' | 'license' | 'retrievedAt'> & {
  /** The RM's correction when there is one, else the item's own tag. */
  factor: string | null;
  polarity: Polarity | null;
  factorSource: 'rule' | 'llm' | 'rm' | null;
  /** Published before as-of − R: an agent that cites it must say the evidence is old. */
  stale: boolean;
};

export type ReadEvidenceInput = {
  db: Executor;
  companyId: string;
  asOf: string;
  recencyDays: number;
  /** Only items tagged with this guideline factor (after RM corrections). */
  factor?: string;
  limit?: number;
};

/**
 * Rows per query of a read without a limit: a company with tens of thousands of items is read a
 * page at a time, with a turn of the event loop between pages, because on the embedded database
 * each query runs on the server's own thread and a run's read would hold up every request.
 */
const EVIDENCE_PAGE = 2_000;

/** A company's evidence published on or before `asOf`, newest first. */
export async function readEvidence({ db, companyId, asOf, recencyDays, factor, limit }: ReadEvidenceInput): Promise<EvidenceAsOf[]> {
  const cutoff = recencyCutoff(asOf, recencyDays);
  assertLimit(limit);
  const toItem = (row: Omit<EvidenceAsOf, 'stale'>): EvidenceAsOf => ({ ...row, stale: isStale(row.publishedDate, cutoff) });
  if (limit !== undefined) return (await evidencePage({ db, companyId, asOf, factor, limit })).map(toItem);
  const out: EvidenceAsOf[] = [];
  let after: { publishedDate: string; id: string } | undefined;
  for (;;) {
    const rows = await evidencePage({ db, companyId, asOf, factor, limit: EVIDENCE_PAGE, after });
    for (const row of rows) out.push(toItem(row));
    if (rows.length < EVIDENCE_PAGE) return out;
    after = rows[rows.length - 1];
    await yieldToEventLoop();
  }
}

/** Up to `limit` items in readEvidence's order (newest first, then by id), after the `after` item. */
async function evidencePage({
  db,
  companyId,
  asOf,
  factor,
  limit,
  after,
}: Pick<ReadEvidenceInput, 'db' | 'companyId' | 'asOf' | 'factor'> & { limit: number; after?: { publishedDate: string; id: string } }) {
  // An RM's correction lives apart from the item (it survives re-imports), so it is applied here,
  // where agents read, rather than trusting that every writer copied it onto the item.
  const effectiveFactor = sql<string | null>`coalesce(${evidenceTagOverrides.factor}, ${evidenceItems.factor})`;
  const conditions: SQL[] = [eq(evidenceItems.companyId, companyId), lte(evidenceItems.publishedDate, asOf)];
  if (factor !== undefined) conditions.push(sql`${effectiveFactor} = ${factor}`);
  // Keyset paging: an item imported meanwhile is neither read twice nor makes another skipped.
  if (after) {
    conditions.push(sql`(${evidenceItems.publishedDate} < ${after.publishedDate} or (${evidenceItems.publishedDate} = ${after.publishedDate} and ${evidenceItems.id} > ${after.id}))`);
  }

  return db
    .select({
      id: evidenceItems.id,
      companyId: evidenceItems.companyId,
      category: evidenceItems.category,
      factor: effectiveFactor,
      polarity: sql<Polarity | null>`coalesce(${evidenceTagOverrides.polarity}, ${evidenceItems.polarity})`,
      factorSource: sql<EvidenceAsOf['factorSource']>`case when ${evidenceTagOverrides.evidenceId} is null then ${evidenceItems.factorSource} else 'rm' end`,
      title: evidenceItems.title,
      text: evidenceItems.text,
      value: evidenceItems.value,
      eventDate: evidenceItems.eventDate,
      publishedDate: evidenceItems.publishedDate,
      sourceName: evidenceItems.sourceName,
      sourceUrl: evidenceItems.sourceUrl,
      language: evidenceItems.language,
    })
    .from(evidenceItems)
    .leftJoin(evidenceTagOverrides, eq(evidenceTagOverrides.evidenceId, evidenceItems.id))
    .where(and(...conditions))
    .orderBy(desc(evidenceItems.publishedDate), asc(evidenceItems.id))
    .limit(limit);
}

export type DocumentAsOf = {
  id: string;
  companyId: string;
  title: string;
  kind: string;
  publishedDate: string;
  sourceName: string;
  sourceUrl: string;
  language: string;
  stale: boolean;
  /** Only with `includeBody`: bodies run to tens of kilobytes. */
  body?: string;
};

export type ReadDocumentsInput = {
  db: Executor;
  companyId: string;
  asOf: string;
  recencyDays: number;
  limit?: number;
  includeBody?: boolean;
};

/** A company's documents published on or before `asOf`, newest first. */
export async function readDocumentsAsOf({ db, companyId, asOf, recencyDays, limit, includeBody = false }: ReadDocumentsInput): Promise<DocumentAsOf[]> {
  const cutoff = recencyCutoff(asOf, recencyDays);
  assertLimit(limit);
  const columns = {
    id: documents.id,
    companyId: documents.companyId,
    title: documents.title,
    kind: documents.kind,
    publishedDate: documents.publishedDate,
    sourceName: documents.sourceName,
    sourceUrl: documents.sourceUrl,
    language: documents.language,
  };
  const query = db
    .select(includeBody ? { ...columns, body: documents.body } : columns)
    .from(documents)
    .where(and(eq(documents.companyId, companyId), lte(documents.publishedDate, asOf)))
    .orderBy(desc(documents.publishedDate), asc(documents.id));
  const rows: Omit<DocumentAsOf, 'stale'>[] = limit === undefined ? await query : await query.limit(limit);
  return rows.map((row) => ({ ...row, stale: isStale(row.publishedDate, cutoff) }));
}
