import { desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { cases, companies, runs, users, type CaseStatus } from '@/lib/db/schema';

const caseColumns = {
  id: cases.id,
  title: cases.title,
  status: cases.status,
  asOfDate: cases.asOfDate,
  loanAmount: cases.loanAmount,
  loanCurrency: cases.loanCurrency,
  loanTenorMonths: cases.loanTenorMonths,
  updatedAt: cases.updatedAt,
  submittedAt: cases.submittedAt,
  companyId: cases.companyId,
  companyName: companies.name,
  companyNameEn: companies.nameEn,
  ownerName: users.name,
  runCount: sql<number>`(select count(*)::int from ${runs} where ${runs.caseId} = ${cases.id})`,
};

export type CaseListItem = Awaited<ReturnType<typeof listCasesForOwner>>[number];

export async function listCasesForOwner({ db, ownerId }: { db: Executor; ownerId: string }) {
  return db
    .select(caseColumns)
    .from(cases)
    .innerJoin(companies, eq(companies.id, cases.companyId))
    .innerJoin(users, eq(users.id, cases.ownerId))
    .where(eq(cases.ownerId, ownerId))
    .orderBy(desc(cases.updatedAt));
}

/** The committee's queue: cases an RM has submitted, and those already decided. */
export async function listCasesByStatus({ db, statuses }: { db: Executor; statuses: CaseStatus[] }) {
  return db
    .select(caseColumns)
    .from(cases)
    .innerJoin(companies, eq(companies.id, cases.companyId))
    .innerJoin(users, eq(users.id, cases.ownerId))
    .where(inArray(cases.status, statuses))
    .orderBy(desc(cases.submittedAt), desc(cases.updatedAt));
}
