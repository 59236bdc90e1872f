// The RM's acknowledgements of failed checks and unaddressed red flags that go with a submission
// (lib/report/acknowledgements.ts computes what needs one; docs/architecture.md, "Submitting a case").
import 'server-only';
import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { reports, runs, submissionAcknowledgements, users } from '@/lib/db/schema';
import type { AckDetail, AckKind, AcknowledgementView } from '@/lib/domain/acknowledgements';

/** A case's runs, oldest first, with their red flags and their report's output (null until there is one). */
export async function listCaseRunsWithReports({ db, caseId }: { db: Executor; caseId: string }) {
  return db
    .select({ id: runs.id, protocol: runs.protocol, status: runs.status, createdAt: runs.createdAt, redFlags: runs.redFlags, reportContent: reports.content })
    .from(runs)
    .leftJoin(reports, eq(reports.runId, runs.id))
    .where(eq(runs.caseId, caseId))
    .orderBy(asc(runs.createdAt), asc(runs.id));
}

export type NewAcknowledgement = {
  kind: AckKind;
  itemKey: string;
  runId: string | null;
  checkId: string | null;
  evidenceId: string | null;
  detail: AckDetail;
  reason: string;
};

/** The acknowledgements of one submission round (the case's `submitted_at` of that submission). */
export async function insertAcknowledgements({
  db,
  caseId,
  submittedAt,
  actorId,
  rows,
}: {
  db: Executor;
  caseId: string;
  submittedAt: Date;
  actorId: string;
  rows: NewAcknowledgement[];
}) {
  if (!rows.length) return;
  await db.insert(submissionAcknowledgements).values(rows.map((r, position) => ({ ...r, position, caseId, submittedAt, acknowledgedById: actorId })));
}

/**
 * A case's acknowledgements of the round submitted at `submittedAt` (the case's current
 * `submitted_at`), in the order they were listed; none when the case was never submitted.
 */
export async function listAcknowledgements({
  db,
  caseId,
  submittedAt,
}: {
  db: Executor;
  caseId: string;
  submittedAt: Date | null;
}): Promise<AcknowledgementView[]> {
  if (!submittedAt) return [];
  const rows = await db
    .select({
      id: submissionAcknowledgements.id,
      kind: submissionAcknowledgements.kind,
      itemKey: submissionAcknowledgements.itemKey,
      runId: submissionAcknowledgements.runId,
      checkId: submissionAcknowledgements.checkId,
      evidenceId: submissionAcknowledgements.evidenceId,
      detail: submissionAcknowledgements.detail,
      reason: submissionAcknowledgements.reason,
      submittedAt: submissionAcknowledgements.submittedAt,
      acknowledgedByName: users.name,
      createdAt: submissionAcknowledgements.createdAt,
    })
    .from(submissionAcknowledgements)
    .innerJoin(users, eq(users.id, submissionAcknowledgements.acknowledgedById))
    .where(and(eq(submissionAcknowledgements.caseId, caseId), eq(submissionAcknowledgements.submittedAt, submittedAt)))
    .orderBy(asc(submissionAcknowledgements.position));
  return rows.map((r) => ({ ...r, submittedAt: r.submittedAt.toISOString(), createdAt: r.createdAt.toISOString() }));
}
