import 'server-only';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { cases, companies, runs, users } from '@/lib/db/schema';
import type { CaseDetail, CaseListItem } from '@/lib/domain/views';
import { COMPLETED_RUN_STATUSES, type CaseStatus, type Protocol } from '@/lib/domain/vocabulary';

/**
 * Statuses in which a case's record is the committee's: submitted (under review) or decided.
 * Nothing an RM does may change its runs then — no start, retry or cancel (docs/security.md).
 * The pool stays editable: a finished run keeps a copy of what it cited (runs.cited_evidence).
 * A returned case is the RM's again.
 */
export const CLOSED_CASE_STATUSES: readonly CaseStatus[] = ['submitted', 'decided'];

export function isCaseClosed(status: CaseStatus) {
  return CLOSED_CASE_STATUSES.includes(status);
}

/**
 * The case's status, with its row locked until the transaction ends (call inside one): a
 * submission or a decision waits for the caller's write, and the caller's check cannot be
 * overtaken by them. Undefined when the case does not exist.
 */
export async function lockCaseStatus({ db, id }: { db: Executor; id: string }) {
  const [row] = await db.select({ status: cases.status }).from(cases).where(eq(cases.id, id)).for('update');
  return row?.status;
}

/** Runs of the case that are queued or running. */
export async function countActiveRunsOfCase({ db, caseId }: { db: Executor; caseId: string }) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(runs)
    .where(and(eq(runs.caseId, caseId), inArray(runs.status, ['queued', 'running'])));
  return row?.n ?? 0;
}

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
  activeRunCount: sql<number>`(select count(*)::int from ${runs} where ${runs.caseId} = ${cases.id} and ${runs.status} in ('queued', 'running'))`,
};

export type CaseFilters = { status?: CaseStatus; companyId?: string };

/** An RM's cases, optionally narrowed by the list page's filters (URL search params). */
export async function listCasesForOwner({ db, ownerId, filters = {} }: { db: Executor; ownerId: string; filters?: CaseFilters }): Promise<CaseListItem[]> {
  const where = [eq(cases.ownerId, ownerId)];
  if (filters.status) where.push(eq(cases.status, filters.status));
  if (filters.companyId) where.push(eq(cases.companyId, filters.companyId));
  return db
    .select(caseColumns)
    .from(cases)
    .innerJoin(companies, eq(companies.id, cases.companyId))
    .innerJoin(users, eq(users.id, cases.ownerId))
    .where(and(...where))
    .orderBy(desc(cases.updatedAt));
}

/** The committee's queue: cases an RM has submitted, and those already decided. */
export async function listCasesByStatus({ db, statuses }: { db: Executor; statuses: CaseStatus[] }): Promise<CaseListItem[]> {
  return db
    .select(caseColumns)
    .from(cases)
    .innerJoin(companies, eq(companies.id, cases.companyId))
    .innerJoin(users, eq(users.id, cases.ownerId))
    .where(inArray(cases.status, statuses))
    .orderBy(desc(cases.submittedAt), desc(cases.updatedAt));
}

/** Companies an RM has cases for, for the list's company filter. */
export async function listCaseCompaniesForOwner({ db, ownerId }: { db: Executor; ownerId: string }) {
  return db
    .selectDistinct({ id: companies.id, name: companies.name, nameEn: companies.nameEn })
    .from(cases)
    .innerJoin(companies, eq(companies.id, cases.companyId))
    .where(eq(cases.ownerId, ownerId))
    .orderBy(asc(companies.name));
}

export type NewCase = {
  companyId: string;
  ownerId: string;
  title: string;
  loanAmount: string;
  loanCurrency: string;
  loanPurpose: string;
  loanTenorMonths: number;
  asOfDate: string;
  notes: string | null;
};

export async function insertCase({ db, values }: { db: Executor; values: NewCase }) {
  const [row] = await db
    .insert(cases)
    .values({ ...values, status: 'draft' })
    .returning({ id: cases.id });
  return row;
}

/** The case page's facts: the case with its borrower and owner names. */
export async function getCaseDetail({ db, id }: { db: Executor; id: string }): Promise<CaseDetail | undefined> {
  const [row] = await db
    .select({
      ...caseColumns,
      loanPurpose: cases.loanPurpose,
      notes: cases.notes,
      submissionNote: cases.submissionNote,
      ownerId: cases.ownerId,
      createdAt: cases.createdAt,
    })
    .from(cases)
    .innerJoin(companies, eq(companies.id, cases.companyId))
    .innerJoin(users, eq(users.id, cases.ownerId))
    .where(eq(cases.id, id));
  return row;
}

/** A case's runs, newest first, with what the runs table shows. */
export async function listRunsForCase({ db, caseId }: { db: Executor; caseId: string }) {
  return db
    .select({
      id: runs.id,
      protocol: runs.protocol,
      provider: runs.provider,
      model: runs.model,
      mode: runs.mode,
      /** The output language the run wrote in (its parameters'). */
      language: sql<string | null>`${runs.params}->>'language'`,
      status: runs.status,
      createdAt: runs.createdAt,
      startedAt: runs.startedAt,
      finishedAt: runs.finishedAt,
      priorElapsedMs: runs.priorElapsedMs,
      promptTokens: runs.promptTokens,
      completionTokens: runs.completionTokens,
      costUsd: runs.costUsd,
      shortfall: runs.shortfall,
    })
    .from(runs)
    .where(eq(runs.caseId, caseId))
    .orderBy(desc(runs.createdAt));
}

export type CaseRun = Awaited<ReturnType<typeof listRunsForCase>>[number];

/** Draft → analyzing when the first run starts; later states are left alone. */
export async function markCaseAnalyzing({ db, id }: { db: Executor; id: string }) {
  await db
    .update(cases)
    .set({ status: 'analyzing', updatedAt: new Date() })
    .where(and(eq(cases.id, id), eq(cases.status, 'draft')));
}

/** Runs of the case that finished an analysis: a debate run to its end, or a red-flag screening. */
export async function countCompletedRuns({ db, caseId }: { db: Executor; caseId: string }) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(runs)
    .where(and(eq(runs.caseId, caseId), inArray(runs.status, [...COMPLETED_RUN_STATUSES])));
  return row?.n ?? 0;
}

/**
 * Draft, analyzing or returned (the committee handed it back) → submitted, only from those
 * states (a second click, or a case already with the committee, changes nothing). Returns
 * whether this call submitted it.
 */
/**
 * The case goes to the committee, with the RM's cover note for this round (null: none; a
 * resubmission replaces the previous round's note). False when it is not the RM's to submit.
 */
export async function markCaseSubmitted({ db, id, note = null }: { db: Executor; id: string; note?: string | null }) {
  const now = new Date();
  const rows = await db
    .update(cases)
    .set({ status: 'submitted', submittedAt: now, updatedAt: now, submissionNote: note })
    .where(and(eq(cases.id, id), inArray(cases.status, ['draft', 'analyzing', 'returned'])))
    .returning({ id: cases.id });
  return rows.length > 0;
}

/**
 * Wall times and costs of recent succeeded runs of one protocol on one provider and model, for
 * the launcher's estimate (any case: the protocol and model decide the length, not the borrower).
 */
export async function listRecentRunStats({
  db,
  protocol,
  provider,
  model,
  limit = 20,
}: {
  db: Executor;
  protocol: string;
  provider: string;
  model: string;
  limit?: number;
}) {
  return db
    .select({
      // The attempts' own lengths (runs.prior_elapsed_ms): a run retried the next morning took seconds, not a night.
      ms: sql<number>`(${runs.priorElapsedMs} + extract(epoch from (${runs.finishedAt} - ${runs.startedAt})) * 1000)::float8`,
      promptTokens: runs.promptTokens,
      completionTokens: runs.completionTokens,
      costUsd: runs.costUsd,
    })
    .from(runs)
    .where(and(eq(runs.protocol, protocol as Protocol), eq(runs.provider, provider), eq(runs.model, model), eq(runs.status, 'succeeded')))
    .orderBy(desc(runs.finishedAt))
    .limit(limit);
}

/** The case's row, or undefined when there is none. */
export async function getCaseById({ db, id }: { db: Executor; id: string }) {
  const [row] = await db.select().from(cases).where(eq(cases.id, id));
  return row;
}

/** The distinct statuses of the cases whose borrower is the company (who may read it: lib/auth/company-access.ts). */
export async function listCaseStatusesOfCompany({ db, companyId }: { db: Executor; companyId: string }): Promise<CaseStatus[]> {
  const rows = await db.selectDistinct({ status: cases.status }).from(cases).where(eq(cases.companyId, companyId));
  return rows.map((r) => r.status);
}
