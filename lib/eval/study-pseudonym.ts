// Evaluators under pseudonyms where their answers are shown to admins: the raw-ratings CSV
// (app/api/studies/[id]/ratings) and rating submissions on the audit page. One pseudonym per
// evaluator per study, the same wherever it appears, a different one in the next study, so
// answers can be analysed per rater without naming them. Keyed with the audit key (a separate
// label), so an admin who knows a user's id cannot compute it; rotating AUDIT_SECRET changes
// every pseudonym. docs/security.md ("Evaluators' ratings") says who sees what.
import 'server-only';
import { auditKey, auditMac } from '@/lib/db/audit-key';
import { RATING_SUBMIT_ACTION } from '@/lib/db/queries/audit';

const LABEL = 'crosscheck evaluator pseudonym v1';

/** `E-` and eight hex digits, e.g. `E-3F2A9C01`. */
export function evaluatorPseudonym(studyId: string, evaluatorId: string, key: Buffer = auditKey()): string {
  return `E-${auditMac([LABEL, studyId, evaluatorId], key).slice(0, 8).toUpperCase()}`;
}

type AuditRowLike = { action: string; actorId: string | null; actorName: string | null; actorEmail: string | null; detail: Record<string, unknown> };

/**
 * Audit rows as the audit page shows them: a rating's submitter becomes their pseudonym in that
 * study, with no name or email; every other row is unchanged. The stored entry is untouched
 * (its hash covers the actor), so the chain still verifies.
 */
export function pseudonymiseRatingEntries<R extends AuditRowLike>(rows: R[], key: Buffer = auditKey()): R[] {
  return rows.map((r) => {
    if (r.action !== RATING_SUBMIT_ACTION || !r.actorId) return r;
    const studyId = typeof r.detail?.studyId === 'string' ? r.detail.studyId : '';
    return { ...r, actorName: evaluatorPseudonym(studyId, r.actorId, key), actorEmail: null };
  });
}
