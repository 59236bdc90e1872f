// Uploaded documents and their candidate evidence items (lib/pool/documents): proposing them with
// the document, listing them beside it, and an RM's decision on each. The document and its chunks
// themselves are written by the import's queries (pool-import.ts).
import 'server-only';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor, Tx } from '@/lib/db/client';
import { documentCandidates, documentChunks, documents } from '@/lib/db/schema';
import type { CandidateStatus } from '@/lib/domain/vocabulary';

export type NewCandidate = typeof documentCandidates.$inferInsert;
export type CandidateRow = typeof documentCandidates.$inferSelect;

const INSERT_BATCH = 500;

export async function insertCandidates({ db, rows }: { db: Executor; rows: NewCandidate[] }) {
  for (let i = 0; i < rows.length; i += INSERT_BATCH) await db.insert(documentCandidates).values(rows.slice(i, i + INSERT_BATCH));
}

/** A document's title, if the pool has a document with this id. */
export async function findDocumentTitle({ db, id }: { db: Executor; id: string }) {
  const [row] = await db
    .select({ id: documents.id, companyId: documents.companyId, title: documents.title })
    .from(documents)
    .where(eq(documents.id, id))
    .limit(1);
  return row;
}

/** Merges these keys into a document's meta (the model's reading state, lib/jobs/document-reading.ts). */
export async function mergeDocumentMeta({ db, id, meta }: { db: Executor; id: string; meta: Record<string, unknown> }) {
  await db
    .update(documents)
    .set({ meta: sql`${documents.meta} || ${JSON.stringify(meta)}::jsonb` })
    .where(eq(documents.id, id));
}

/**
 * Adds the model's readings of new candidates (by span) to those the document's meta holds
 * already: a second reading proposes only spans the first did not, and the first's stay.
 */
export async function mergeModelReadings({ db, id, readings }: { db: Executor; id: string; readings: Record<string, string> }) {
  if (Object.keys(readings).length === 0) return;
  await db
    .update(documents)
    .set({
      meta: sql`${documents.meta} || jsonb_build_object('modelReadings', coalesce(${documents.meta} -> 'modelReadings', '{}'::jsonb) || ${JSON.stringify(readings)}::jsonb)`,
    })
    .where(eq(documents.id, id));
}

/**
 * An uploaded document as a new reading of it needs it, its row locked (in `tx`) so two requests
 * to read it again cannot both start: its meta, and its chunks in order.
 */
export async function lockDocumentForReading({ tx, id }: { tx: Tx; id: string }) {
  const [doc] = await tx
    .select({ id: documents.id, companyId: documents.companyId, publishedDate: documents.publishedDate, meta: documents.meta })
    .from(documents)
    .where(eq(documents.id, id))
    .for('update');
  if (!doc) return null;
  const chunks = await tx
    .select({
      ordinal: documentChunks.ordinal,
      heading: documentChunks.heading,
      text: documentChunks.text,
      charStart: documentChunks.charStart,
      charEnd: documentChunks.charEnd,
    })
    .from(documentChunks)
    .where(eq(documentChunks.documentId, id))
    .orderBy(asc(documentChunks.ordinal));
  return { ...doc, chunks };
}

/** The spans of a document's candidates, to tell a new proposal from one already made. */
export async function listCandidateSpans({ db, documentId }: { db: Executor; documentId: string }) {
  return db
    .select({ charStart: documentCandidates.charStart, charEnd: documentCandidates.charEnd })
    .from(documentCandidates)
    .where(eq(documentCandidates.documentId, documentId));
}

/** A document's candidates in reading order. */
export async function listCandidates({ db, documentId }: { db: Executor; documentId: string }): Promise<CandidateRow[]> {
  return db
    .select()
    .from(documentCandidates)
    .where(eq(documentCandidates.documentId, documentId))
    .orderBy(asc(documentCandidates.charStart), asc(documentCandidates.id));
}

/** One candidate with its document's source, locked for the decision inside the caller's transaction. */
export async function lockCandidate({ tx, id }: { tx: Tx; id: string }) {
  const [row] = await tx
    .select({
      candidate: documentCandidates,
      document: { id: documents.id, title: documents.title, sourceName: documents.sourceName, sourceUrl: documents.sourceUrl, language: documents.language },
    })
    .from(documentCandidates)
    .innerJoin(documents, eq(documents.id, documentCandidates.documentId))
    .where(eq(documentCandidates.id, id))
    .for('update', { of: documentCandidates });
  return row;
}

/** A candidate without locking it (the page, the action's checks before the transaction). */
export async function getCandidate({ db, id }: { db: Executor; id: string }) {
  const [row] = await db.select().from(documentCandidates).where(eq(documentCandidates.id, id)).limit(1);
  return row;
}

export async function decideCandidate({
  tx,
  id,
  status,
  userId,
  evidenceId = null,
  edits = {},
}: {
  tx: Tx;
  id: string;
  status: Exclude<CandidateStatus, 'proposed'>;
  userId: string;
  evidenceId?: string | null;
  edits?: Partial<Pick<NewCandidate, 'category' | 'factor' | 'title' | 'text' | 'eventDate'>>;
}) {
  await tx
    .update(documentCandidates)
    .set({ ...edits, status, evidenceId, decidedById: userId, decidedAt: new Date() })
    .where(and(eq(documentCandidates.id, id), eq(documentCandidates.status, 'proposed')));
}

/** Where each of these pool items came from in an uploaded document, for a link to its passage. */
export async function listPassages({ db, evidenceIds }: { db: Executor; evidenceIds: string[] }) {
  if (!evidenceIds.length) return [];
  return db
    .select({
      evidenceId: sql<string>`${documentCandidates.evidenceId}`,
      companyId: documentCandidates.companyId,
      documentId: documentCandidates.documentId,
      page: documentCandidates.page,
      charStart: documentCandidates.charStart,
      charEnd: documentCandidates.charEnd,
    })
    .from(documentCandidates)
    .where(and(inArray(documentCandidates.evidenceId, evidenceIds), eq(documentCandidates.status, 'accepted')));
}
