// The knowledge pool's import (lib/pool/import): the reads that plan it (which companies, items
// and documents the pool already has) and the writes that apply it inside the caller's
// transaction. Every insert skips a row that appeared since planning (another import in
// between) by the same conflict rules, never overwriting it.
import 'server-only';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { companies, documentChunks, documents, evidenceItems, evidenceTagOverrides } from '@/lib/db/schema';
import type { Polarity } from '@/lib/domain/vocabulary';

/** Ids per `in (…)` list of the plan's reads. */
const IN_BATCH = 1000;
/** PostgreSQL allows 65,535 bind parameters per statement; evidence rows take about 20. */
export const EVIDENCE_INSERT_BATCH = 1000;
const CHUNK_BATCH = 1000;

async function selectIn<T>(ids: string[], query: (batch: string[]) => Promise<T[]>) {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += IN_BATCH) out.push(...(await query(ids.slice(i, i + IN_BATCH))));
  return out;
}

/** The profiles of those of `ids` the pool has. */
export async function selectCompanyProfiles({ db, ids }: { db: Executor; ids: string[] }) {
  return selectIn(ids, (batch) =>
    db
      .select({
        id: companies.id,
        name: companies.name,
        nameEn: companies.nameEn,
        country: companies.country,
        identifiers: companies.identifiers,
        industry: companies.industry,
        description: companies.description,
        soleProprietor: companies.soleProprietor,
      })
      .from(companies)
      .where(inArray(companies.id, batch)),
  );
}

/** What makes each item of these companies unique (its id, and company, source, date and title). */
export async function selectEvidenceKeys({ db, companyIds }: { db: Executor; companyIds: string[] }) {
  return selectIn(companyIds, (batch) =>
    db
      .select({
        id: evidenceItems.id,
        companyId: evidenceItems.companyId,
        sourceUrl: evidenceItems.sourceUrl,
        publishedDate: evidenceItems.publishedDate,
        title: evidenceItems.title,
      })
      .from(evidenceItems)
      .where(inArray(evidenceItems.companyId, batch)),
  );
}

/** Those of `ids` that are evidence items of the pool. */
export async function selectExistingEvidenceIds({ db, ids }: { db: Executor; ids: string[] }): Promise<string[]> {
  const rows = await selectIn(ids, (batch) => db.select({ id: evidenceItems.id }).from(evidenceItems).where(inArray(evidenceItems.id, batch)));
  return rows.map((r) => r.id);
}

/** Those of `ids` that are documents of the pool. */
export async function selectExistingDocumentIds({ db, ids }: { db: Executor; ids: string[] }): Promise<string[]> {
  const rows = await selectIn(ids, (batch) => db.select({ id: documents.id }).from(documents).where(inArray(documents.id, batch)));
  return rows.map((r) => r.id);
}

/** The identifiers that also have a column of their own (indexed: the connectors look companies up by them). */
function identifierColumns(ids: Record<string, string>) {
  return { corpCode: ids.corp_code ?? null, stockCode: ids.stock_code ?? null, cik: ids.cik ?? null, ticker: ids.ticker ?? null };
}

export type NewCompanyProfile = Pick<typeof companies.$inferInsert, 'id' | 'name' | 'nameEn' | 'country' | 'industry' | 'description' | 'soleProprietor'> & {
  identifiers: Record<string, string>;
};

/** New companies only; one that exists already is left as it is. Returns how many were inserted. */
export async function insertNewCompanies({ db, rows }: { db: Executor; rows: NewCompanyProfile[] }): Promise<number> {
  if (!rows.length) return 0;
  const inserted = await db
    .insert(companies)
    .values(rows.map((c) => ({ ...c, ...identifierColumns(c.identifiers) })))
    .onConflictDoNothing()
    .returning({ id: companies.id });
  return inserted.length;
}

export type ProfileChange = Partial<Pick<NewCompanyProfile, 'name' | 'nameEn' | 'country' | 'industry' | 'description' | 'soleProprietor' | 'identifiers'>>;

/**
 * Changes an existing company's profile. 'replace' writes the values as they are (identifiers
 * whole); 'fill' only fills what the profile lacks when the statement runs: a value that appeared
 * since planning wins over the import's, and an empty one counts as missing, as it does in the
 * plan; identifiers are merged, the profile's own keys winning. Whether the company was there.
 */
export async function updateCompanyProfile({
  db,
  id,
  change,
  mode,
}: {
  db: Executor;
  id: string;
  change: ProfileChange;
  mode: 'replace' | 'fill';
}): Promise<boolean> {
  const { identifiers, ...fields } = change;
  const set: Record<string, unknown> =
    mode === 'replace'
      ? { ...fields, ...(identifiers ? { identifiers, ...identifierColumns(identifiers) } : {}) }
      : {
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
  const [row] = await db
    .update(companies)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(companies.id, id))
    .returning({ id: companies.id });
  return Boolean(row);
}

/** The RM's tag corrections of those of `ids` that have one (even of items deleted since). */
export async function selectTagOverrides({ db, ids }: { db: Executor; ids: string[] }) {
  const found = new Map<string, { factor: string; polarity: Polarity }>();
  for (let i = 0; i < ids.length; i += EVIDENCE_INSERT_BATCH) {
    const rows = await db
      .select()
      .from(evidenceTagOverrides)
      .where(inArray(evidenceTagOverrides.evidenceId, ids.slice(i, i + EVIDENCE_INSERT_BATCH)));
    for (const r of rows) found.set(r.evidenceId, { factor: r.factor, polarity: r.polarity });
  }
  return found;
}

/**
 * Inserts up to EVIDENCE_INSERT_BATCH items, skipping any whose id or (company, source, date,
 * title) the pool has already. Returns how many were inserted.
 */
export async function insertEvidenceBatch({ db, rows }: { db: Executor; rows: (typeof evidenceItems.$inferInsert)[] }): Promise<number> {
  if (!rows.length) return 0;
  // No conflict target: skips a known id and a known (company, source, date, title) alike.
  const inserted = await db.insert(evidenceItems).values(rows).onConflictDoNothing().returning({ id: evidenceItems.id });
  return inserted.length;
}

/** Inserts a document unless its id exists; whether it was inserted. */
export async function insertDocument({ db, document }: { db: Executor; document: typeof documents.$inferInsert }): Promise<boolean> {
  const [inserted] = await db.insert(documents).values(document).onConflictDoNothing().returning({ id: documents.id });
  return Boolean(inserted);
}

/** A new document's chunks, in statements small enough for PostgreSQL's bind-parameter limit. */
export async function insertDocumentChunks({ db, chunks }: { db: Executor; chunks: (typeof documentChunks.$inferInsert)[] }) {
  for (let i = 0; i < chunks.length; i += CHUNK_BATCH) {
    await db.insert(documentChunks).values(chunks.slice(i, i + CHUNK_BATCH));
  }
}

/**
 * Gathers the pool tables' statistics. PGlite has no autovacuum to do it; without them retrieval
 * plans badly after a bulk load.
 */
export async function analyzePoolTables({ db }: { db: Executor }) {
  await db.execute(sql`analyze evidence_items, documents, document_chunks`);
}
