import { and, asc, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { companies, documents, evidenceItems, users } from '@/lib/db/schema';

export type CompanyFilters = { q?: string; country?: string; industry?: string; factor?: string };

function escapeLike(text: string) {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function listCompaniesWithCounts({ db, filters = {} }: { db: Executor; filters?: CompanyFilters }) {
  const where: SQL[] = [];
  if (filters.q?.trim()) {
    const like = `%${escapeLike(filters.q.trim())}%`;
    where.push(or(ilike(companies.name, like), ilike(companies.nameEn, like), ilike(companies.id, like), ilike(companies.ticker, like))!);
  }
  if (filters.country) where.push(eq(companies.country, filters.country));
  if (filters.industry?.trim()) where.push(ilike(companies.industry, `%${escapeLike(filters.industry.trim())}%`));
  if (filters.factor) {
    where.push(sql`exists (select 1 from ${evidenceItems} where ${evidenceItems.companyId} = ${companies.id} and ${evidenceItems.factor} = ${filters.factor})`);
  }
  return db
    .select({
      id: companies.id,
      name: companies.name,
      nameEn: companies.nameEn,
      country: companies.country,
      industry: companies.industry,
      evidenceCount: sql<number>`(select count(*)::int from ${evidenceItems} where ${evidenceItems.companyId} = ${companies.id})`,
      factorCount: sql<number>`(select count(distinct ${evidenceItems.factor})::int from ${evidenceItems} where ${evidenceItems.companyId} = ${companies.id} and ${evidenceItems.factor} <> 'other')`,
      documentCount: sql<number>`(select count(*)::int from ${documents} where ${documents.companyId} = ${companies.id})`,
      latestPublished: sql<string | null>`(select max(${evidenceItems.publishedDate})::text from ${evidenceItems} where ${evidenceItems.companyId} = ${companies.id})`,
    })
    .from(companies)
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
export async function listEvidenceTimeline({ db, companyId, perFactor, factor }: { db: Executor; companyId: string; perFactor: number; factor?: string }) {
  const ranked = db
    .select({
      id: evidenceItems.id,
      rank: sql<number>`row_number() over (partition by coalesce(${evidenceItems.factor}, '') order by ${evidenceItems.publishedDate} desc, ${evidenceItems.id})`.as('rank'),
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
      .where(factor === undefined ? sql`${ranked.rank} <= ${perFactor}` : sql`${ranked.rank} <= ${perFactor} or coalesce(${evidenceItems.factor}, '') = ${factor}`)
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

export type CompanyEvidence = Awaited<ReturnType<typeof listEvidenceTimeline>>['items'][number];
export type FactorTotals = Awaited<ReturnType<typeof listEvidenceTimeline>>['totals'];

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
