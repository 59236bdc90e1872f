// Writes a validated import plan inside the caller's transaction: companies, tagged evidence,
// documents and their chunks, and one audit entry. Rows that appeared since planning (another
// import in between) are skipped by the same conflict rules, never overwritten. Existing
// companies change only as the plan says (companyProfiles in plan.ts), and the audit entry
// names them.
import type { Tx } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import {
  EVIDENCE_INSERT_BATCH,
  insertDocument,
  insertDocumentChunks,
  insertEvidenceBatch,
  insertNewCompanies,
  selectTagOverrides,
  updateCompanyProfile,
} from '@/lib/db/queries/pool-import';
import type { EvidenceOrigin } from '@/lib/domain/vocabulary';
import { env } from '@/lib/env';
import { chunkDocument } from '@/lib/pool/chunk';
import { tagByCategory } from '@/lib/pool/factors';
import type { ImportPlan } from '@/lib/pool/import/plan';
import { storable } from '@/lib/pool/import/schemas';
import { searchTokens } from '@/lib/pool/search-text';

export type ImportCounts = { companies: number; evidence: number; documents: number; chunks: number };
export type Progress = (p: { phase: 'evidence' | 'documents'; done: number; total: number }) => void;

/** The most companies one audit entry lists by name (the counts are always whole). */
const MAX_AUDITED = 100;

export type WriteOptions = {
  actorId: string | null;
  origin?: EvidenceOrigin;
  /** What the audit entry names as the import's source (file names, connector). */
  label: string;
  /** The audit action; an RM adding one item by hand is recorded as such, not as an import. */
  auditAction?: string;
  onProgress?: Progress;
};

export async function writeImport(
  tx: Tx,
  plan: ImportPlan,
  { actorId, origin = 'import', label, auditAction = 'pool.import', onProgress }: WriteOptions,
): Promise<ImportCounts & { updatedCompanies: { id: string; fields: string[] }[] }> {
  const counts: ImportCounts = { companies: 0, evidence: 0, documents: 0, chunks: 0 };

  // New companies only; one created since planning (another import in between) is left as it is.
  counts.companies = await insertNewCompanies({ db: tx, rows: plan.companies });
  const updatedCompanies: { id: string; fields: string[] }[] = [];
  for (const update of plan.companyUpdates) {
    // Under 'fill', a value that appeared since planning wins over the import's; an empty one
    // counts as missing, as it does in the plan (profileChanges in plan.ts).
    if (await updateCompanyProfile({ db: tx, id: update.id, change: update.set, mode: plan.companyProfiles })) {
      updatedCompanies.push({ id: update.id, fields: update.fields });
    }
  }

  const chunking = { size: env().CHUNK_SIZE, overlap: env().CHUNK_OVERLAP };
  // The RM's corrections win over the rules, for items they corrected before (even if deleted since).
  const overrides = await selectTagOverrides({ db: tx, ids: plan.evidence.map((e) => e.id) });
  for (let i = 0; i < plan.evidence.length; i += EVIDENCE_INSERT_BATCH) {
    const batch = plan.evidence.slice(i, i + EVIDENCE_INSERT_BATCH).map((e) => {
      const override = overrides.get(e.id);
      return {
        ...e,
        ...(override ? { ...override, factorSource: 'rm' as const } : { ...tagByCategory(e), factorSource: 'rule' as const }),
        origin,
        createdById: actorId,
        searchTokens: searchTokens(e.title, e.text),
      };
    });
    counts.evidence += await insertEvidenceBatch({ db: tx, rows: batch });
    onProgress?.({ phase: 'evidence', done: Math.min(i + EVIDENCE_INSERT_BATCH, plan.evidence.length), total: plan.evidence.length });
  }

  for (const [n, doc] of plan.documents.entries()) {
    if (!(await insertDocument({ db: tx, document: doc }))) continue;
    counts.documents++;
    const chunks = chunkDocument(doc.body, chunking).map((c) => ({ ...c, documentId: doc.id, searchTokens: searchTokens(c.heading, c.text) }));
    await insertDocumentChunks({ db: tx, chunks });
    counts.chunks += chunks.length;
    onProgress?.({ phase: 'documents', done: n + 1, total: plan.documents.length });
  }

  await appendAudit({
    tx,
    actorId,
    action: auditAction,
    entityType: plan.evidence.length === 1 && plan.documents.length === 0 ? 'evidence' : 'import',
    entityId: plan.evidence.length === 1 && plan.documents.length === 0 ? plan.evidence[0].id : null,
    detail: {
      // File names are the uploader's: one the import refused may still be in the label.
      source: storable(label),
      origin,
      ...counts,
      skippedDuplicates: plan.skippedDuplicates,
      rejected: plan.rejected.length,
      // Profile edits are pool edits: which companies changed and how, and which changes were refused.
      ...(updatedCompanies.length ? { updatedCompanies: updatedCompanies.slice(0, MAX_AUDITED), companyProfiles: plan.companyProfiles } : {}),
      ...(plan.skippedProfileChanges.length
        ? { skippedProfileChanges: plan.skippedProfileChanges.slice(0, MAX_AUDITED).map((s) => ({ id: s.companyId, fields: s.fields })) }
        : {}),
    },
  });
  return { ...counts, updatedCompanies };
}
