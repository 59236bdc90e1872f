// An RM's decision on a candidate evidence item. Accepting goes through the import's own path —
// the row checked by the import's schema, the duplicate rule, factor tagging (with any earlier
// correction), the audit entry — in one transaction with the candidate's new status, so an item
// is in the pool exactly when its candidate says accepted. The candidate keeps the item's id, and
// with it the item keeps its document, page and offsets. Rejecting is recorded and audited too.
import type { Db } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { decideCandidate, getCandidate, lockCandidate } from '@/lib/db/queries/documents';
import type { EvidenceCategory } from '@/lib/domain/factors';
import { AppError } from '@/lib/errors';
import { say } from '@/lib/i18n';
import { documentMessages } from '@/lib/i18n/messages/documents';
import { importMessages } from '@/lib/i18n/messages/import';
import { titleOf } from '@/lib/pool/documents/candidates';
import { tagByCategory } from '@/lib/pool/factors';
import { planImport } from '@/lib/pool/import/plan';
import { storable } from '@/lib/pool/import/schemas';
import { importLimits } from '@/lib/pool/import/upload';
import { writeImport } from '@/lib/pool/import/write';
import { isoToday } from '@/lib/util/dates';

/** What an RM may change before accepting: what the item says, never where it came from. */
export type CandidateEdits = { category?: EvidenceCategory; title?: string; text?: string; event_date?: string | null };

async function proposedCandidate(db: Db, id: string) {
  const candidate = await getCandidate({ db, id });
  if (!candidate) throw new AppError('not_found', say(documentMessages, 'candidateGone'));
  if (candidate.status !== 'proposed') {
    throw new AppError('conflict', say(documentMessages, 'candidateDecided', { status: candidate.status }));
  }
  return candidate;
}

export async function acceptCandidate({
  db,
  id,
  userId,
  edits = {},
  today = isoToday(),
}: {
  db: Db;
  id: string;
  userId: string;
  edits?: CandidateEdits;
  today?: string;
}) {
  const candidate = await proposedCandidate(db, id);
  const row = {
    company_id: candidate.companyId,
    category: edits.category ?? candidate.category,
    // A model's candidate is titled by its text, the document's own sentence (model-reading.ts);
    // one an older reading proposed may carry the model's words as its title, never taken.
    title: edits.title ?? (candidate.proposedBy === 'model' ? storable(titleOf(candidate.text)) : candidate.title),
    text: edits.text ?? candidate.text,
    event_date: edits.event_date === undefined ? candidate.eventDate : edits.event_date,
    published_date: candidate.publishedDate,
  };
  return db.transaction(async (tx) => {
    const locked = await lockCandidate({ tx, id });
    if (!locked || locked.candidate.status !== 'proposed') {
      throw new AppError('conflict', say(documentMessages, 'candidateDecided', { status: locked?.candidate.status ?? 'gone' }));
    }
    const { document } = locked;
    const item = { ...row, source_name: document.sourceName, source_url: document.sourceUrl, language: document.language };
    const plan = await planImport({
      db: tx,
      sources: [{ name: 'candidate.json', bytes: new TextEncoder().encode(JSON.stringify([item])) }],
      maxFileBytes: importLimits().maxFileBytes,
      today,
    });
    if (plan.rejected.length) {
      const first = plan.rejected[0];
      const fieldErrors = Object.fromEntries(plan.rejected.map((r) => [r.field ?? 'title', [r.phrase ?? r.message]]));
      throw new AppError('bad_request', say(documentMessages, 'candidateInvalid', { detail: first.phrase ?? first.message }), fieldErrors);
    }
    if (plan.evidence.length !== 1) throw new AppError('conflict', say(documentMessages, 'candidateDuplicate'));
    const evidenceId = plan.evidence[0].id;
    await writeImport(tx, plan, { actorId: userId, origin: 'document', label: `document ${document.id}`, auditAction: 'evidence.create' });
    const changed = (['category', 'title', 'text', 'event_date'] as const).filter(
      (k) => edits[k] !== undefined && row[k] !== (k === 'event_date' ? candidate.eventDate : candidate[k]),
    );
    const factor = tagByCategory({ category: row.category, title: row.title, text: row.text }).factor;
    await decideCandidate({
      tx,
      id,
      status: 'accepted',
      userId,
      evidenceId,
      edits: { category: row.category, title: row.title, text: row.text, eventDate: row.event_date, factor },
    });
    await appendAudit({
      tx,
      actorId: userId,
      action: 'document.candidate_accept',
      entityType: 'document_candidate',
      entityId: id,
      detail: { documentId: document.id, evidenceId, page: candidate.page, charStart: candidate.charStart, charEnd: candidate.charEnd, edited: changed },
    });
    return { evidenceId, companyId: candidate.companyId, documentId: document.id };
  });
}

export async function rejectCandidate({ db, id, userId }: { db: Db; id: string; userId: string }) {
  const candidate = await proposedCandidate(db, id);
  await db.transaction(async (tx) => {
    const locked = await lockCandidate({ tx, id });
    if (!locked || locked.candidate.status !== 'proposed') {
      throw new AppError('conflict', say(documentMessages, 'candidateDecided', { status: locked?.candidate.status ?? 'gone' }));
    }
    await decideCandidate({ tx, id, status: 'rejected', userId });
    await appendAudit({
      tx,
      actorId: userId,
      action: 'document.candidate_reject',
      entityType: 'document_candidate',
      entityId: id,
      detail: {
        documentId: candidate.documentId,
        page: candidate.page,
        charStart: candidate.charStart,
        charEnd: candidate.charEnd,
        title: candidate.title.slice(0, 200),
      },
    });
  });
  return { companyId: candidate.companyId, documentId: candidate.documentId };
}

// The import's table, for field errors the action wrapper renders.
export const REVIEW_TABLES = [documentMessages, importMessages];
