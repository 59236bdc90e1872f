import 'server-only';
import { eq, inArray } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { evidenceItems, evidenceTagOverrides } from '@/lib/db/schema';
import type { Polarity } from '@/lib/domain/vocabulary';

export async function getEvidenceById({ db, id }: { db: Executor; id: string }) {
  const [row] = await db.select().from(evidenceItems).where(eq(evidenceItems.id, id)).limit(1);
  return row;
}

/** Title, date and source of the items a run's citations name, for the citation chips. */
export async function listEvidenceRefs({ db, ids }: { db: Executor; ids: string[] }) {
  if (!ids.length) return [];
  return db
    .select({
      id: evidenceItems.id,
      title: evidenceItems.title,
      date: evidenceItems.publishedDate,
      source: evidenceItems.sourceName,
      url: evidenceItems.sourceUrl,
      polarity: evidenceItems.polarity,
    })
    .from(evidenceItems)
    .where(inArray(evidenceItems.id, ids));
}

/** Records an RM's tag on the item and, by its stable id, for any future re-import. */
export async function setEvidenceTag({ db, id, factor, polarity, userId }: { db: Executor; id: string; factor: string; polarity: Polarity; userId: string }) {
  await db
    .insert(evidenceTagOverrides)
    .values({ evidenceId: id, factor, polarity, userId })
    .onConflictDoUpdate({ target: evidenceTagOverrides.evidenceId, set: { factor, polarity, userId, updatedAt: new Date() } });
  await db.update(evidenceItems).set({ factor, polarity, factorSource: 'rm', updatedAt: new Date() }).where(eq(evidenceItems.id, id));
}

/** What an RM may change of an item by hand (lib/pool/import/schemas.ts checks the values). */
export type EvidenceEdit = Partial<
  Pick<
    typeof evidenceItems.$inferInsert,
    | 'category'
    | 'title'
    | 'text'
    | 'value'
    | 'eventDate'
    | 'publishedDate'
    | 'sourceName'
    | 'sourceUrl'
    | 'language'
    | 'searchTokens'
    | 'updatedAt'
    | 'factor'
    | 'polarity'
    | 'factorSource'
  >
>;

/** Writes an RM's edit of an item; a clash with another item's (company, source, date, title) fails with 23505. */
export async function updateEvidenceItem({ db, id, values }: { db: Executor; id: string; values: EvidenceEdit }) {
  await db.update(evidenceItems).set(values).where(eq(evidenceItems.id, id));
}

/** Deletes an item; its RM tag correction stays for a re-import (evidence_tag_overrides). */
export async function deleteEvidenceItem({ db, id }: { db: Executor; id: string }) {
  await db.delete(evidenceItems).where(eq(evidenceItems.id, id));
}
