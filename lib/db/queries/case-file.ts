// What the case file reads that no other query gives (docs/case-file.md): every round's
// acknowledgements, the audit entries that concern a case and its runs with their checkpoints,
// the chain head, and the cited-evidence snapshots with each item's whole text.
import 'server-only';
import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { readCitedPoolItems } from '@/lib/db/queries/cited-evidence';
import { auditCheckpoints, auditLog, cases, runs, submissionAcknowledgements, users } from '@/lib/db/schema';
import type { CitedEvidenceSnapshot } from '@/lib/domain/stored';

/** Every acknowledgement of every submission round of a case, oldest round first. */
export async function listAllAcknowledgements({ db, caseId }: { db: Executor; caseId: string }) {
  const rows = await db
    .select({
      id: submissionAcknowledgements.id,
      submittedAt: submissionAcknowledgements.submittedAt,
      kind: submissionAcknowledgements.kind,
      itemKey: submissionAcknowledgements.itemKey,
      runId: submissionAcknowledgements.runId,
      checkId: submissionAcknowledgements.checkId,
      evidenceId: submissionAcknowledgements.evidenceId,
      detail: submissionAcknowledgements.detail,
      reason: submissionAcknowledgements.reason,
      acknowledgedById: submissionAcknowledgements.acknowledgedById,
      acknowledgedByName: users.name,
      createdAt: submissionAcknowledgements.createdAt,
    })
    .from(submissionAcknowledgements)
    .innerJoin(users, eq(users.id, submissionAcknowledgements.acknowledgedById))
    .where(eq(submissionAcknowledgements.caseId, caseId))
    .orderBy(asc(submissionAcknowledgements.submittedAt), asc(submissionAcknowledgements.position));
  return rows.map((r) => ({ ...r, submittedAt: r.submittedAt.toISOString(), createdAt: r.createdAt.toISOString() }));
}

/** A case's runs, oldest first, with their cited-evidence snapshot. */
export async function listCaseRunsForFile({ db, caseId }: { db: Executor; caseId: string }) {
  return db
    .select({
      id: runs.id,
      protocol: runs.protocol,
      provider: runs.provider,
      model: runs.model,
      status: runs.status,
      companyId: runs.companyId,
      citedEvidence: runs.citedEvidence,
    })
    .from(runs)
    .where(eq(runs.caseId, caseId))
    .orderBy(asc(runs.createdAt), asc(runs.id));
}

/**
 * The audit entries that concern a case: those about the case itself, about one of its runs, or
 * whose detail names it (a comment's), oldest first, each with its checkpoint and actor's name.
 */
export async function listCaseAuditEntries({ db, caseId, runIds }: { db: Executor; caseId: string; runIds: string[] }) {
  const rows = await db
    .select({
      seq: auditLog.seq,
      at: auditLog.at,
      actorId: auditLog.actorId,
      actorName: users.name,
      action: auditLog.action,
      entityType: auditLog.entityType,
      entityId: auditLog.entityId,
      detail: auditLog.detail,
      prevHash: auditLog.prevHash,
      hash: auditLog.hash,
      keyed: auditLog.keyed,
      checkpointHash: auditCheckpoints.hash,
      checkpointMac: auditCheckpoints.mac,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .leftJoin(auditCheckpoints, eq(auditCheckpoints.seq, auditLog.seq))
    .where(
      or(
        and(eq(auditLog.entityType, 'case'), eq(auditLog.entityId, caseId)),
        runIds.length ? and(eq(auditLog.entityType, 'run'), inArray(auditLog.entityId, runIds)) : sql`false`,
        sql`${auditLog.detail}->>'caseId' = ${caseId}`,
      ),
    )
    .orderBy(asc(auditLog.seq));
  return rows.map((r) => ({
    ...r,
    at: r.at.toISOString(),
    detail: (r.detail ?? {}) as Record<string, unknown>,
    checkpoint: r.checkpointMac ? { hash: r.checkpointHash, mac: r.checkpointMac } : null,
  }));
}

/** The newest checkpoint: the head of the chain when the file was written. */
export async function readChainHead({ db }: { db: Executor }) {
  const [row] = await db.select().from(auditCheckpoints).orderBy(desc(auditCheckpoints.seq)).limit(1);
  return row ? { seq: row.seq, hash: row.hash, mac: row.mac, at: row.at.toISOString() } : null;
}

/**
 * A run's snapshot with each item's whole text, where the pool still holds the item as it was
 * (same fingerprint); otherwise only the snapshot's excerpt exists, and `text` is absent.
 */
export async function citedEvidenceWithText({ db, snapshot }: { db: Executor; snapshot: CitedEvidenceSnapshot[] }) {
  const now = new Map((await readCitedPoolItems({ db, ids: snapshot.map((s) => s.id), withText: true })).map((s) => [s.id, s]));
  return snapshot.map((item) => {
    const current = now.get(item.id);
    if (!current) return { ...item, textState: 'removed-from-pool' as const };
    if (current.fingerprint !== item.fingerprint) return { ...item, textState: 'changed-in-pool' as const };
    return { ...item, text: current.text!, textState: 'whole' as const };
  });
}

export async function caseExists({ db, id }: { db: Executor; id: string }) {
  const [row] = await db.select({ id: cases.id }).from(cases).where(eq(cases.id, id));
  return Boolean(row);
}
