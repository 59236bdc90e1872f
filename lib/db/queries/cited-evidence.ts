// The cited-evidence snapshot of a run (`runs.cited_evidence`): every pool item and document
// passage the run cites, as it read when the run finished. Reports, chips and exports of a
// finished run read this, not the live pool, so an edit of a shared pool item afterwards cannot
// change a submitted or decided report; the fingerprint tells them when the pool item has
// changed (or gone) since, so they can say so. docs/security.md describes the defence.
import 'server-only';
import { createHash } from 'node:crypto';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { documentChunks, documents, evidenceItems, runSteps } from '@/lib/db/schema';
import type { CitedEvidenceSnapshot } from '@/lib/domain/stored';
import { citationsOf } from '@/lib/domain/output-parts';

/** How much of an item's text the snapshot keeps; the fingerprint covers all of it. */
export const EXCERPT_CHARS = 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How a snapshot's item compares with the pool now: the same, edited since, or deleted. */
export type PoolChange = 'changed' | 'removed' | null;
export type FrozenCitedItem = CitedEvidenceSnapshot & { poolChange: PoolChange };

type Canonical = Omit<CitedEvidenceSnapshot, 'excerpt' | 'fingerprint'> & { text: string };

/** sha256 of the item's fields in a fixed order (versioned), the whole text included. */
export function fingerprintOf(item: Canonical): string {
  const fields = [
    'crosscheck-cited-evidence-v1',
    item.kind,
    item.id,
    item.title,
    item.text,
    item.value,
    item.sourceName,
    item.sourceUrl,
    item.publishedDate,
    item.eventDate,
    item.factor,
    item.polarity,
    item.documentId,
    item.documentTitle,
    item.heading,
  ];
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

function snapshotOf(item: Canonical): CitedEvidenceSnapshot {
  const { text, ...fields } = item;
  // By code point, so a cut never splits a surrogate pair.
  return { ...fields, excerpt: Array.from(text).slice(0, EXCERPT_CHARS).join(''), fingerprint: fingerprintOf(item) };
}

/** The pool items and document passages with these ids, as they read now; missing ids are left out. */
export async function readCitedPoolItems({ db, ids }: { db: Executor; ids: string[] }): Promise<CitedEvidenceSnapshot[]> {
  if (!ids.length) return [];
  const chunkIds = ids.filter((id) => UUID.test(id));
  const [items, chunks] = await Promise.all([
    db.select().from(evidenceItems).where(inArray(evidenceItems.id, ids)),
    chunkIds.length
      ? db
          .select({
            id: documentChunks.id,
            heading: documentChunks.heading,
            text: documentChunks.text,
            documentId: documents.id,
            documentTitle: documents.title,
            sourceName: documents.sourceName,
            sourceUrl: documents.sourceUrl,
            publishedDate: documents.publishedDate,
          })
          .from(documentChunks)
          .innerJoin(documents, eq(documents.id, documentChunks.documentId))
          .where(inArray(documentChunks.id, chunkIds))
      : Promise.resolve([]),
  ]);
  const out: CitedEvidenceSnapshot[] = [];
  for (const i of items) {
    out.push(
      snapshotOf({
        kind: 'evidence',
        id: i.id,
        title: i.title,
        text: i.text,
        value: i.value,
        sourceName: i.sourceName,
        sourceUrl: i.sourceUrl,
        publishedDate: i.publishedDate,
        eventDate: i.eventDate,
        factor: i.factor,
        polarity: i.polarity,
        documentId: null,
        documentTitle: null,
        heading: null,
      }),
    );
  }
  for (const c of chunks) {
    out.push(
      snapshotOf({
        kind: 'passage',
        id: c.id,
        title: c.heading ? `${c.documentTitle} — ${c.heading}` : c.documentTitle,
        text: c.text,
        value: null,
        sourceName: c.sourceName,
        sourceUrl: c.sourceUrl,
        publishedDate: c.publishedDate,
        eventDate: null,
        factor: null,
        polarity: null,
        documentId: c.documentId,
        documentTitle: c.documentTitle,
        heading: c.heading,
      }),
    );
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * The snapshot to store with a run as it finishes: every pool item and passage cited anywhere
 * in its saved steps (claims, arguments, the report), read now. Web results are not in it:
 * they live on the run already (`runs.web_evidence`). Call inside the transaction that marks
 * the run finished.
 */
export async function snapshotCitedEvidence({ db, runId }: { db: Executor; runId: string }): Promise<CitedEvidenceSnapshot[]> {
  const steps = await db.select({ output: runSteps.output }).from(runSteps).where(eq(runSteps.runId, runId)).orderBy(asc(runSteps.ordinal));
  const ids = new Set<string>();
  for (const s of steps) for (const c of citationsOf(s.output)) if (c.evidenceId) ids.add(c.evidenceId);
  return readCitedPoolItems({ db, ids: [...ids] });
}

/** A run's snapshot, each item compared with the pool now by its fingerprint. */
export async function compareWithPool({ db, snapshot }: { db: Executor; snapshot: CitedEvidenceSnapshot[] }): Promise<Record<string, FrozenCitedItem>> {
  const now = new Map((await readCitedPoolItems({ db, ids: snapshot.map((s) => s.id) })).map((s) => [s.id, s]));
  const out: Record<string, FrozenCitedItem> = {};
  for (const item of snapshot) {
    const current = now.get(item.id);
    out[item.id] = { ...item, poolChange: !current ? 'removed' : current.fingerprint !== item.fingerprint ? 'changed' : null };
  }
  return out;
}
