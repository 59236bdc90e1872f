// What the system card (/about, docs/system-card.md) reads from the database: the pool's size
// and the evaluation results so far, from the studies and the automated judges. Counts and
// dates only: nothing here names an evaluator, a borrower or a run.
import 'server-only';
import { asc, count, countDistinct, eq, max, min, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { companies, documents, evidenceItems, judgments, studies, studyAssignments } from '@/lib/db/schema';
import type { StudyStatus } from '@/lib/domain/vocabulary';

export type PoolSize = { companies: number; evidence: number; documents: number };

export async function poolSize({ db }: { db: Executor }): Promise<PoolSize> {
  const [[c], [e], [d]] = await Promise.all([
    db.select({ n: count() }).from(companies),
    db.select({ n: count() }).from(evidenceItems),
    db.select({ n: count() }).from(documents),
  ]);
  return { companies: c.n, evidence: e.n, documents: d.n };
}

export type StudyRow = {
  id: string;
  name: string;
  status: StudyStatus;
  createdAt: Date;
  openedAt: Date | null;
  closedAt: Date | null;
  assignments: number;
  submitted: number;
  evaluators: number;
};

/** Every study that is not a draft, oldest first, with how much of it has been rated. */
export async function listStudiesForCard({ db }: { db: Executor }): Promise<StudyRow[]> {
  return db
    .select({
      id: studies.id,
      name: studies.name,
      status: studies.status,
      createdAt: studies.createdAt,
      openedAt: studies.openedAt,
      closedAt: studies.closedAt,
      assignments: count(studyAssignments.id),
      submitted: sql<number>`count(${studyAssignments.submittedAt})::int`,
      evaluators: countDistinct(studyAssignments.evaluatorId),
    })
    .from(studies)
    .leftJoin(studyAssignments, eq(studyAssignments.studyId, studies.id))
    .where(sql`${studies.status} <> 'draft'`)
    .groupBy(studies.id)
    .orderBy(asc(studies.createdAt));
}

export type JudgeSummary = {
  kind: 'pairwise' | 'rubric';
  provider: string;
  model: string;
  judgments: number;
  /** Pairwise only: verdicts that named the same run in both presentation orders. */
  consistent: number;
  first: Date;
  last: Date;
};

/** The automated judges' judgments by kind and judge model, with their first and last dates. */
export async function summarizeJudgments({ db }: { db: Executor }): Promise<JudgeSummary[]> {
  const rows = await db
    .select({
      kind: judgments.kind,
      provider: judgments.provider,
      model: judgments.model,
      judgments: count(),
      consistent: sql<number>`count(*) filter (where ${judgments.kind} = 'pairwise' and ${judgments.result}->>'consistent' = 'true')::int`,
      first: min(judgments.createdAt),
      last: max(judgments.createdAt),
    })
    .from(judgments)
    .groupBy(judgments.kind, judgments.provider, judgments.model)
    .orderBy(asc(judgments.kind), asc(judgments.provider), asc(judgments.model));
  return rows.map((r) => ({ ...r, first: new Date(r.first!), last: new Date(r.last!) }));
}
