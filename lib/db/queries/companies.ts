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

/** Every item of a company, newest first, with who added it when a person did. */
export async function listEvidenceForCompany({ db, companyId }: { db: Executor; companyId: string }) {
  return db
    .select({
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
    })
    .from(evidenceItems)
    .leftJoin(users, eq(users.id, evidenceItems.createdById))
    .where(eq(evidenceItems.companyId, companyId))
    .orderBy(desc(evidenceItems.publishedDate), asc(evidenceItems.id));
}

export type CompanyEvidence = Awaited<ReturnType<typeof listEvidenceForCompany>>[number];

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
