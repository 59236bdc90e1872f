import { asc, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { companies, documents, evidenceItems } from '@/lib/db/schema';

export async function listCompaniesWithCounts({ db }: { db: Executor }) {
  return db
    .select({
      id: companies.id,
      name: companies.name,
      nameEn: companies.nameEn,
      country: companies.country,
      industry: companies.industry,
      evidenceCount: sql<number>`(select count(*)::int from ${evidenceItems} where ${evidenceItems.companyId} = ${companies.id})`,
      documentCount: sql<number>`(select count(*)::int from ${documents} where ${documents.companyId} = ${companies.id})`,
      latestPublished: sql<string | null>`(select max(${evidenceItems.publishedDate})::text from ${evidenceItems} where ${evidenceItems.companyId} = ${companies.id})`,
    })
    .from(companies)
    .orderBy(asc(companies.nameEn), asc(companies.name));
}

export async function getCompanyById({ db, id }: { db: Executor; id: string }) {
  const [row] = await db.select().from(companies).where(eq(companies.id, id)).limit(1);
  return row;
}

export async function listEvidenceForCompany({ db, companyId, limit = 200 }: { db: Executor; companyId: string; limit?: number }) {
  return db
    .select()
    .from(evidenceItems)
    .where(eq(evidenceItems.companyId, companyId))
    .orderBy(desc(evidenceItems.publishedDate), asc(evidenceItems.id))
    .limit(limit);
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
