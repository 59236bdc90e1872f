import 'server-only';
import { and, asc, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { cases, companies, reports, runs, studies, studyAssignments, users } from '@/lib/db/schema';
import type { Answers, PlannedAssignment } from '@/lib/domain/study';
import type { EvaluatorAssignment } from '@/lib/domain/views';

export async function listStudies({ db }: { db: Executor }) {
  return db
    .select({
      id: studies.id,
      name: studies.name,
      status: studies.status,
      createdAt: studies.createdAt,
      createdByName: users.name,
      assignments: sql<number>`(select count(*)::int from ${studyAssignments} where ${studyAssignments.studyId} = ${studies.id})`,
      submitted: sql<number>`(select count(*)::int from ${studyAssignments} where ${studyAssignments.studyId} = ${studies.id} and ${studyAssignments.submittedAt} is not null)`,
    })
    .from(studies)
    .innerJoin(users, eq(users.id, studies.createdById))
    .orderBy(desc(studies.createdAt));
}

export async function getStudy({ db, id }: { db: Executor; id: string }) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const [row] = await db.select().from(studies).where(eq(studies.id, id)).limit(1);
  return row;
}

/** Finished runs with a report: what a study can show. For the admin's study set-up only. */
export async function listRatableRuns({ db }: { db: Executor }) {
  return db
    .select({
      runId: runs.id,
      reportId: reports.id,
      protocol: runs.protocol,
      provider: runs.provider,
      model: runs.model,
      params: runs.params,
      companyId: runs.companyId,
      companyName: companies.name,
      caseTitle: cases.title,
      finishedAt: runs.finishedAt,
    })
    .from(runs)
    .innerJoin(reports, eq(reports.runId, runs.id))
    .innerJoin(companies, eq(companies.id, runs.companyId))
    .leftJoin(cases, eq(cases.id, runs.caseId))
    .where(eq(runs.status, 'succeeded'))
    .orderBy(asc(companies.name), desc(runs.finishedAt));
}

export async function listActiveEvaluators({ db }: { db: Executor }) {
  return db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(and(eq(users.role, 'evaluator'), eq(users.disabled, false)))
    .orderBy(asc(users.name), asc(users.email));
}

export async function insertStudy({
  db,
  name,
  seed,
  createdById,
  assignments,
}: {
  db: Executor;
  name: string;
  seed: number;
  createdById: string;
  assignments: PlannedAssignment[];
}) {
  const [study] = await db.insert(studies).values({ name, seed, createdById }).returning();
  if (assignments.length) await db.insert(studyAssignments).values(assignments.map((a) => ({ ...a, studyId: study.id })));
  return study;
}

export async function setStudyStatus({ db, id, status }: { db: Executor; id: string; status: 'open' | 'closed' }) {
  const now = new Date();
  await db
    .update(studies)
    .set({ status, ...(status === 'open' ? { openedAt: now } : { closedAt: now }) })
    .where(eq(studies.id, id));
}

/** Every assignment of a study with what the admin needs to read it: who, which run, which system. */
export async function listStudyAssignments({ db, studyId }: { db: Executor; studyId: string }) {
  return db
    .select({
      id: studyAssignments.id,
      position: studyAssignments.position,
      answers: studyAssignments.answers,
      savedAt: studyAssignments.savedAt,
      submittedAt: studyAssignments.submittedAt,
      evaluatorId: users.id,
      evaluatorName: users.name,
      evaluatorEmail: users.email,
      reportId: reports.id,
      runId: runs.id,
      protocol: runs.protocol,
      model: runs.model,
      companyId: runs.companyId,
      companyName: companies.name,
    })
    .from(studyAssignments)
    .innerJoin(users, eq(users.id, studyAssignments.evaluatorId))
    .innerJoin(reports, eq(reports.id, studyAssignments.reportId))
    .innerJoin(runs, eq(runs.id, reports.runId))
    .innerJoin(companies, eq(companies.id, runs.companyId))
    .where(eq(studyAssignments.studyId, studyId))
    .orderBy(asc(users.name), asc(users.email), asc(studyAssignments.position));
}

/** An evaluator's blinded work list of open and closed studies: opaque ids and positions, nothing about the run. */
export async function listAssignmentsForEvaluator({ db, evaluatorId }: { db: Executor; evaluatorId: string }): Promise<EvaluatorAssignment[]> {
  return db
    .select({
      id: studyAssignments.id,
      position: studyAssignments.position,
      submittedAt: studyAssignments.submittedAt,
      studyId: studies.id,
      studyName: studies.name,
      studyStatus: studies.status,
    })
    .from(studyAssignments)
    .innerJoin(studies, eq(studies.id, studyAssignments.studyId))
    .where(and(eq(studyAssignments.evaluatorId, evaluatorId), ne(studies.status, 'draft')))
    .orderBy(desc(studies.createdAt), asc(studyAssignments.position));
}

/**
 * One assignment, only if it is this evaluator's and its study is not a draft; undefined
 * otherwise, so another evaluator's id reads as "not found". Server-side only: it carries the
 * run id, which must never reach the evaluator's browser.
 */
export async function getAssignmentForEvaluator({ db, id, evaluatorId }: { db: Executor; id: string; evaluatorId: string }) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const [row] = await db
    .select({
      id: studyAssignments.id,
      position: studyAssignments.position,
      answers: studyAssignments.answers,
      submittedAt: studyAssignments.submittedAt,
      studyId: studies.id,
      studyName: studies.name,
      studyStatus: studies.status,
      runId: reports.runId,
      total: sql<number>`(select count(*)::int from ${studyAssignments} sa where sa.study_id = ${studies.id} and sa.evaluator_id = ${evaluatorId})`,
    })
    .from(studyAssignments)
    .innerJoin(studies, eq(studies.id, studyAssignments.studyId))
    .innerJoin(reports, eq(reports.id, studyAssignments.reportId))
    .where(and(eq(studyAssignments.id, id), eq(studyAssignments.evaluatorId, evaluatorId), ne(studies.status, 'draft')))
    .limit(1);
  return row;
}

/**
 * The evaluator's next report to rate: an unsubmitted assignment of an open study, other than
 * `excludeId`; in `studyId` first (by position), then in the newest other open study. Undefined
 * when every one is submitted. Only the opaque assignment id leaves.
 */
export async function nextAssignmentForEvaluator({
  db,
  evaluatorId,
  studyId,
  excludeId,
}: {
  db: Executor;
  evaluatorId: string;
  studyId: string;
  excludeId: string;
}) {
  const [row] = await db
    .select({ id: studyAssignments.id })
    .from(studyAssignments)
    .innerJoin(studies, eq(studies.id, studyAssignments.studyId))
    .where(
      and(eq(studyAssignments.evaluatorId, evaluatorId), isNull(studyAssignments.submittedAt), eq(studies.status, 'open'), ne(studyAssignments.id, excludeId)),
    )
    .orderBy(sql`case when ${studies.id} = ${studyId} then 0 else 1 end`, desc(studies.createdAt), asc(studyAssignments.position))
    .limit(1);
  return row?.id;
}

/** Saves answers of an unsubmitted assignment; false when it was submitted meanwhile. */
export async function saveAssignmentAnswers({ db, id, answers }: { db: Executor; id: string; answers: Answers }) {
  const rows = await db
    .update(studyAssignments)
    .set({ answers, savedAt: new Date() })
    .where(and(eq(studyAssignments.id, id), isNull(studyAssignments.submittedAt)))
    .returning({ id: studyAssignments.id });
  return rows.length > 0;
}

/** Locks an assignment with its final answers; false when it was already submitted. */
export async function submitAssignment({ db, id, answers }: { db: Executor; id: string; answers: Answers }) {
  const now = new Date();
  const rows = await db
    .update(studyAssignments)
    .set({ answers, savedAt: now, submittedAt: now })
    .where(and(eq(studyAssignments.id, id), isNull(studyAssignments.submittedAt)))
    .returning({ id: studyAssignments.id });
  return rows.length > 0;
}

/** Runs behind the given reports, for checking a study's picks: status, and what pairs them (company, system, output language). */
export async function listRunsOfReports({ db, reportIds }: { db: Executor; reportIds: string[] }) {
  if (reportIds.length === 0) return [];
  return db
    .select({
      reportId: reports.id,
      runId: runs.id,
      status: runs.status,
      companyId: runs.companyId,
      protocol: runs.protocol,
      language: sql<string | null>`${runs.params}->>'language'`,
    })
    .from(reports)
    .innerJoin(runs, eq(runs.id, reports.runId))
    .where(inArray(reports.id, reportIds));
}
