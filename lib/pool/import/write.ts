// Writes a validated import plan inside the caller's transaction: companies, tagged evidence,
// documents and their chunks, and one audit entry. Rows that appeared since planning (another
// import in between) are skipped by the same conflict rules, never overwritten. Existing
// companies change only as the plan says (companyProfiles in plan.ts), and the audit entry
// names them.
import { eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { env } from '@/lib/env';
import { companies, documentChunks, documents, evidenceItems, evidenceTagOverrides } from '@/lib/db/schema';
import { chunkDocument } from '@/lib/pool/chunk';
import { tagByCategory } from '@/lib/pool/factors';
import type { ImportPlan } from '@/lib/pool/import/plan';
import { storable } from '@/lib/pool/import/schemas';
import { searchTokens } from '@/lib/pool/search-text';

export type ImportCounts = { companies: number; evidence: number; documents: number; chunks: number };
export type Progress = (p: { phase: 'evidence' | 'documents'; done: number; total: number }) => void;

// PostgreSQL allows 65,535 bind parameters per statement; evidence rows take about 20.
const EVIDENCE_BATCH = 1000;
const CHUNK_BATCH = 1000;
/** The most companies one audit entry lists by name (the counts are always whole). */
const MAX_AUDITED = 100;

export type WriteOptions = {
  actorId: string | null;
  origin?: 'import' | 'dart' | 'edgar' | 'web' | 'manual';
  /** What the audit entry names as the import's source (file names, connector). */
  label: string;
  /** The audit action; an RM adding one item by hand is recorded as such, not as an import. */
  auditAction?: string;
  onProgress?: Progress;
};

/** The RM's corrections win over the rules, for items they corrected before (even if deleted since). */
async function overridesFor(tx: Tx, ids: string[]) {
  const found = new Map<string, { factor: string; polarity: 'favorable' | 'adverse' | 'context' }>();
  for (let i = 0; i < ids.length; i += EVIDENCE_BATCH) {
    const rows = await tx.select().from(evidenceTagOverrides).where(inArray(evidenceTagOverrides.evidenceId, ids.slice(i, i + EVIDENCE_BATCH)));
    for (const r of rows) found.set(r.evidenceId, { factor: r.factor, polarity: r.polarity });
  }
  return found;
}

export async function writeImport(
  tx: Tx,
  plan: ImportPlan,
  { actorId, origin = 'import', label, auditAction = 'pool.import', onProgress }: WriteOptions,
): Promise<ImportCounts & { updatedCompanies: { id: string; fields: string[] }[] }> {
  const counts: ImportCounts = { companies: 0, evidence: 0, documents: 0, chunks: 0 };

  const identifierColumns = (ids: Record<string, string>) => ({
    corpCode: ids.corp_code ?? null,
    stockCode: ids.stock_code ?? null,
    cik: ids.cik ?? null,
    ticker: ids.ticker ?? null,
  });
  if (plan.companies.length) {
    // New companies only; one created since planning (another import in between) is left as it is.
    const inserted = await tx
      .insert(companies)
      .values(plan.companies.map((c) => ({ ...c, ...identifierColumns(c.identifiers) })))
      .onConflictDoNothing()
      .returning({ id: companies.id });
    counts.companies = inserted.length;
  }
  const updatedCompanies: { id: string; fields: string[] }[] = [];
  for (const update of plan.companyUpdates) {
    const { identifiers, ...fields } = update.set;
    const set: Record<string, unknown> =
      plan.companyProfiles === 'replace'
        ? { ...fields, ...(identifiers ? { identifiers, ...identifierColumns(identifiers) } : {}) }
        : {
            // Filling only: a value that appeared since planning wins over the import's; an empty
            // one counts as missing, as it does in the plan (profileChanges in plan.ts).
            ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, sql`coalesce(nullif(${companies[k as keyof typeof fields]}, ''), ${v})`])),
            ...(identifiers
              ? {
                  identifiers: sql`${JSON.stringify(identifiers)}::jsonb || ${companies.identifiers}`,
                  ...Object.fromEntries(
                    Object.entries(identifierColumns(identifiers))
                      .filter(([, v]) => v != null)
                      .map(([k, v]) => [k, sql`coalesce(${companies[k as keyof ReturnType<typeof identifierColumns>]}, ${v})`]),
                  ),
                }
              : {}),
          };
    const [row] = await tx
      .update(companies)
      .set({ ...set, updatedAt: sql`now()` })
      .where(eq(companies.id, update.id))
      .returning({ id: companies.id });
    if (row) updatedCompanies.push({ id: update.id, fields: update.fields });
  }

  const chunking = { size: env().CHUNK_SIZE, overlap: env().CHUNK_OVERLAP };
  const overrides = await overridesFor(tx, plan.evidence.map((e) => e.id));
  for (let i = 0; i < plan.evidence.length; i += EVIDENCE_BATCH) {
    const batch = plan.evidence.slice(i, i + EVIDENCE_BATCH).map((e) => {
      const override = overrides.get(e.id);
      return {
        ...e,
        ...(override ? { ...override, factorSource: 'rm' as const } : { ...tagByCategory(e), factorSource: 'rule' as const }),
        origin,
        createdById: actorId,
        searchTokens: searchTokens(e.title, e.text),
      };
    });
    // No conflict target: skips a known id and a known (company, source, date, title) alike.
    const inserted = await tx.insert(evidenceItems).values(batch).onConflictDoNothing().returning({ id: evidenceItems.id });
    counts.evidence += inserted.length;
    onProgress?.({ phase: 'evidence', done: Math.min(i + EVIDENCE_BATCH, plan.evidence.length), total: plan.evidence.length });
  }

  for (const [n, doc] of plan.documents.entries()) {
    const [inserted] = await tx.insert(documents).values(doc).onConflictDoNothing().returning({ id: documents.id });
    if (!inserted) continue;
    counts.documents++;
    const chunks = chunkDocument(doc.body, chunking).map((c) => ({ ...c, documentId: doc.id, searchTokens: searchTokens(c.heading, c.text) }));
    for (let i = 0; i < chunks.length; i += CHUNK_BATCH) {
      await tx.insert(documentChunks).values(chunks.slice(i, i + CHUNK_BATCH));
    }
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
