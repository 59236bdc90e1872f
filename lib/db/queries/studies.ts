import { asc, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { studies, studyAssignments, users } from '@/lib/db/schema';

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

/** An evaluator's blinded work list: opaque assignment ids and positions, nothing about the run. */
export async function listAssignmentsForEvaluator({ db, evaluatorId }: { db: Executor; evaluatorId: string }) {
  return db
    .select({
      id: studyAssignments.id,
      position: studyAssignments.position,
      submittedAt: studyAssignments.submittedAt,
      studyName: studies.name,
      studyStatus: studies.status,
    })
    .from(studyAssignments)
    .innerJoin(studies, eq(studies.id, studyAssignments.studyId))
    .where(eq(studyAssignments.evaluatorId, evaluatorId))
    .orderBy(asc(studies.name), asc(studyAssignments.position));
}
