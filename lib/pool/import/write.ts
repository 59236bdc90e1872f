// Writes a validated import plan inside the caller's transaction: companies, tagged evidence,
// documents and their chunks, and one audit entry. Rows that appeared since planning (another
// import in between) are skipped by the same conflict rules, never overwritten.
import { inArray, sql } from 'drizzle-orm';
import type { Tx } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { env } from '@/lib/env';
import { companies, documentChunks, documents, evidenceItems, evidenceTagOverrides } from '@/lib/db/schema';
import { chunkDocument } from '@/lib/pool/chunk';
import { tagByCategory } from '@/lib/pool/factors';
import type { ImportPlan } from '@/lib/pool/import/plan';
import { searchTokens } from '@/lib/pool/search-text';

export type ImportCounts = { companies: number; evidence: number; documents: number; chunks: number };
export type Progress = (p: { phase: 'evidence' | 'documents'; done: number; total: number }) => void;

// PostgreSQL allows 65,535 bind parameters per statement; evidence rows take about 20.
const EVIDENCE_BATCH = 1000;
const CHUNK_BATCH = 1000;

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

export async function writeImport(tx: Tx, plan: ImportPlan, { actorId, origin = 'import', label, auditAction = 'pool.import', onProgress }: WriteOptions): Promise<ImportCounts> {
  const counts: ImportCounts = { companies: 0, evidence: 0, documents: 0, chunks: 0 };

  if (plan.companies.length) {
    const rows = plan.companies.map((c) => ({
      ...c,
      corpCode: c.identifiers.corp_code ?? null,
      stockCode: c.identifiers.stock_code ?? null,
      cik: c.identifiers.cik ?? null,
      ticker: c.identifiers.ticker ?? null,
    }));
    // A company's profile follows its latest import; its id (the slug) never changes.
    await tx
      .insert(companies)
      .values(rows)
      .onConflictDoUpdate({
        target: companies.id,
        set: {
          name: sql`excluded.name`,
          nameEn: sql`excluded.name_en`,
          country: sql`excluded.country`,
          identifiers: sql`excluded.identifiers`,
          corpCode: sql`excluded.corp_code`,
          stockCode: sql`excluded.stock_code`,
          cik: sql`excluded.cik`,
          ticker: sql`excluded.ticker`,
          industry: sql`excluded.industry`,
          description: sql`excluded.description`,
          updatedAt: sql`now()`,
        },
      });
    counts.companies = plan.newCompanyIds.size;
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
    detail: { source: label, origin, ...counts, skippedDuplicates: plan.skippedDuplicates, rejected: plan.rejected.length },
  });
  return counts;
}
