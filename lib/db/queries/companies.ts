import 'server-only';
import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { companies, documents, evidenceItems, users } from '@/lib/db/schema';
import type { CompanyEvidence, CompanyListItem, FactorTotals } from '@/lib/domain/views';

export type CompanyFilters = { q?: string; country?: string; industry?: string; factor?: string };

function escapeLike(text: string) {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Every company with its evidence, factor and document counts, narrowed by the list's filters.
 * The counts come from per-company aggregates joined on the company id, not correlated
 * subqueries: on a one-table select Drizzle writes columns inside `sql` fields without their
 * table name, so `companies.id` in a subquery over evidence_items meant evidence_items.id and
 * every company showed 0.
 */
export async function listCompaniesWithCounts({ db, filters = {} }: { db: Executor; filters?: CompanyFilters }): Promise<CompanyListItem[]> {
  const where: SQL[] = [];
  if (filters.q?.trim()) {
    const like = `%${escapeLike(filters.q.trim())}%`;
    where.push(or(ilike(companies.name, like), ilike(companies.nameEn, like), ilike(companies.id, like), ilike(companies.ticker, like))!);
  }
  if (filters.country) where.push(eq(companies.country, filters.country));
  if (filters.industry?.trim()) where.push(ilike(companies.industry, `%${escapeLike(filters.industry.trim())}%`));
  if (filters.factor) {
    where.push(inArray(companies.id, db.select({ id: evidenceItems.companyId }).from(evidenceItems).where(eq(evidenceItems.factor, filters.factor))));
  }
  const evidenceTotals = db
    .select({
      companyId: evidenceItems.companyId,
      count: sql<number>`count(*)::int`.as('evidence_count'),
      factors: sql<number>`(count(distinct ${evidenceItems.factor}) filter (where ${evidenceItems.factor} <> 'other'))::int`.as('factor_count'),
      latestPublished: sql<string | null>`max(${evidenceItems.publishedDate})::text`.as('latest_published'),
    })
    .from(evidenceItems)
    .groupBy(evidenceItems.companyId)
    .as('evidence_totals');
  const documentTotals = db
    .select({ companyId: documents.companyId, count: sql<number>`count(*)::int`.as('document_count') })
    .from(documents)
    .groupBy(documents.companyId)
    .as('document_totals');
  return db
    .select({
      id: companies.id,
      name: companies.name,
      nameEn: companies.nameEn,
      country: companies.country,
      industry: companies.industry,
      evidenceCount: sql<number>`coalesce(${evidenceTotals.count}, 0)`,
      factorCount: sql<number>`coalesce(${evidenceTotals.factors}, 0)`,
      documentCount: sql<number>`coalesce(${documentTotals.count}, 0)`,
      latestPublished: evidenceTotals.latestPublished,
    })
    .from(companies)
    .leftJoin(evidenceTotals, eq(evidenceTotals.companyId, companies.id))
    .leftJoin(documentTotals, eq(documentTotals.companyId, companies.id))
    .where(where.length ? and(...where) : undefined)
    .orderBy(asc(companies.nameEn), asc(companies.name));
}

export async function listCountries({ db }: { db: Executor }) {
  const rows = await db.selectDistinct({ country: companies.country }).from(companies).orderBy(asc(companies.country));
  return rows.map((r) => r.country);
}

export async function getCompanyById({ db, id }: { db: Executor; id: string }) {
  const [row] = await db.select().from(companies).where(eq(companies.id, id)).limit(1);
  return row;
}

const evidenceColumns = {
  id: evidenceItems.id,
  category: evidenceItems.category,
  factor: evidenceItems.factor,
  polarity: evidenceItems.polarity,
  factorSource: evidenceItems.factorSource,
  title: evidenceItems.title,
  text: evidenceItems.text,
  value: evidenceItems.value,
  eventDate: evidenceItems.eventDate,
  publishedDate: evidenceItems.publishedDate,
  sourceName: evidenceItems.sourceName,
  sourceUrl: evidenceItems.sourceUrl,
  language: evidenceItems.language,
  origin: evidenceItems.origin,
  addedBy: users.name,
};

/**
 * A company's evidence for its timeline: the newest `perFactor` items of each factor (all of
 * them for `factor` when given), with who added them, and per-factor totals. A borrower with
 * thousands of items still gets a page that loads at once.
 */
export async function listEvidenceTimeline({
  db,
  companyId,
  perFactor,
  factor,
}: {
  db: Executor;
  companyId: string;
  perFactor: number;
  factor?: string;
}): Promise<{ items: CompanyEvidence[]; totals: FactorTotals }> {
  const ranked = db
    .select({
      id: evidenceItems.id,
      rank: sql<number>`row_number() over (partition by coalesce(${evidenceItems.factor}, '') order by ${evidenceItems.publishedDate} desc, ${evidenceItems.id})`.as(
        'rank',
      ),
    })
    .from(evidenceItems)
    .where(eq(evidenceItems.companyId, companyId))
    .as('ranked');
  const [items, totals] = await Promise.all([
    db
      .select(evidenceColumns)
      .from(evidenceItems)
      .innerJoin(ranked, eq(ranked.id, evidenceItems.id))
      .leftJoin(users, eq(users.id, evidenceItems.createdById))
      .where(
        factor === undefined ? sql`${ranked.rank} <= ${perFactor}` : sql`${ranked.rank} <= ${perFactor} or coalesce(${evidenceItems.factor}, '') = ${factor}`,
      )
      .orderBy(desc(evidenceItems.publishedDate), asc(evidenceItems.id)),
    db
      .select({
        factor: sql<string>`coalesce(${evidenceItems.factor}, '')`,
        total: sql<number>`count(*)::int`,
        favorable: sql<number>`(count(*) filter (where ${evidenceItems.polarity} = 'favorable'))::int`,
        adverse: sql<number>`(count(*) filter (where ${evidenceItems.polarity} = 'adverse'))::int`,
      })
      .from(evidenceItems)
      .where(eq(evidenceItems.companyId, companyId))
      .groupBy(sql`coalesce(${evidenceItems.factor}, '')`),
  ]);
  return { items, totals };
}

export async function listDocumentsForCompany({ db, companyId }: { db: Executor; companyId: string }) {
  return db
    .select({
      id: documents.id,
      title: documents.title,
      kind: documents.kind,
      publishedDate: documents.publishedDate,
      sourceName: documents.sourceName,
      sourceUrl: documents.sourceUrl,
      length: sql<number>`length(${documents.body})`,
    })
    .from(documents)
    .where(eq(documents.companyId, companyId))
    .orderBy(desc(documents.publishedDate));
}

export async function getDocument({ db, companyId, id }: { db: Executor; companyId: string; id: string }) {
  const [row] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.id, id), eq(documents.companyId, companyId)))
    .limit(1);
  return row;
}

/**
 * The companies a person at the terminal may mean by `key`: the one with that id, and any whose
 * Korean or English name is `key` regardless of case (ILIKE without wildcards of our own).
 */
export async function findCompaniesByIdOrName({ db, key }: { db: Executor; key: string }) {
  return db
    .select({ id: companies.id, name: companies.name, nameEn: companies.nameEn })
    .from(companies)
    .where(or(eq(companies.id, key), ilike(companies.name, key), ilike(companies.nameEn, key)));
}

/** The ids of every company, or of those of `ids` that exist. */
export async function listCompanyIds({ db, ids }: { db: Executor; ids?: string[] }) {
  return db
    .select({ id: companies.id })
    .from(companies)
    .where(ids ? inArray(companies.id, ids) : undefined);
}
