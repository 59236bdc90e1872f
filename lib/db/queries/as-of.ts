// A company's pool as of a date: the reads behind lib/pool/as-of.ts, the one way agents read the
// pool. The as-of date is a required argument and filters in SQL, so nothing published after it
// can come back (docs/protocols.md); the staleness rules stay in lib/pool/as-of.ts.
import 'server-only';
import { and, asc, desc, eq, lte, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { documents, evidenceItems, evidenceTagOverrides } from '@/lib/db/schema';
import type { FactorSource, Polarity } from '@/lib/domain/vocabulary';

export type EvidencePageInput = {
  db: Executor;
  companyId: string;
  asOf: string;
  /** Only items tagged with this guideline factor (after RM corrections). */
  factor?: string;
  limit: number;
  /** Keyset paging: the last item of the previous page. */
  after?: { publishedDate: string; id: string };
};

/**
 * Up to `limit` of a company's items published on or before `asOf`, newest first, then by id,
 * after the `after` item, with the RM's tag applied.
 */
export async function selectEvidencePageAsOf({ db, companyId, asOf, factor, limit, after }: EvidencePageInput) {
  // An RM's correction lives apart from the item (it survives re-imports), so it is applied here,
  // where agents read, rather than trusting that every writer copied it onto the item.
  const effectiveFactor = sql<string | null>`coalesce(${evidenceTagOverrides.factor}, ${evidenceItems.factor})`;
  const conditions: SQL[] = [eq(evidenceItems.companyId, companyId), lte(evidenceItems.publishedDate, asOf)];
  if (factor !== undefined) conditions.push(sql`${effectiveFactor} = ${factor}`);
  // Keyset paging: an item imported meanwhile is neither read twice nor makes another skipped.
  if (after) {
    conditions.push(
      sql`(${evidenceItems.publishedDate} < ${after.publishedDate} or (${evidenceItems.publishedDate} = ${after.publishedDate} and ${evidenceItems.id} > ${after.id}))`,
    );
  }

  return db
    .select({
      id: evidenceItems.id,
      companyId: evidenceItems.companyId,
      category: evidenceItems.category,
      factor: effectiveFactor,
      polarity: sql<Polarity | null>`coalesce(${evidenceTagOverrides.polarity}, ${evidenceItems.polarity})`,
      factorSource: sql<FactorSource | null>`case when ${evidenceTagOverrides.evidenceId} is null then ${evidenceItems.factorSource} else 'rm' end`,
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

export type DocumentRowAsOf = {
  id: string;
  companyId: string;
  title: string;
  kind: string;
  publishedDate: string;
  sourceName: string;
  sourceUrl: string;
  language: string;
  /** Only with `includeBody`: bodies run to tens of kilobytes. */
  body?: string;
};

/** A company's documents published on or before `asOf`, newest first, then by id. */
export async function selectDocumentsAsOf({
  db,
  companyId,
  asOf,
  limit,
  includeBody = false,
}: {
  db: Executor;
  companyId: string;
  asOf: string;
  limit?: number;
  includeBody?: boolean;
}): Promise<DocumentRowAsOf[]> {
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
  return limit === undefined ? await query : await query.limit(limit);
}
