// The cited-evidence snapshot of a run (`runs.cited_evidence`): every pool item and document
// passage the run cites, as it read when the run finished. Reports, chips and exports of a
// finished run read this, not the live pool, so an edit of a shared pool item afterwards cannot
// change a submitted or decided report; the fingerprint tells them when the pool item has
// changed (or gone) since, so they can say so. Only what a step was shown is ever copied: a
// citation the engine could not resolve against its step's scope (another borrower's item, one
// dated after the as-of date, a passage the step was not given) stays as the model wrote it and
// brings nothing of the pool with it. docs/security.md describes the defence.
import 'server-only';
import { evidenceFingerprint } from '@/lib/util/case-file-digest';
import { and, asc, eq, inArray, lte, type SQL } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { documentChunks, documents, evidenceItems, runs, runSteps } from '@/lib/db/schema';
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
  return evidenceFingerprint(item);
}

function snapshotWithout(item: Canonical): CitedEvidenceSnapshot {
  const { text, ...fields } = item;
  // By code point, so a cut never splits a surrogate pair.
  return { ...fields, excerpt: Array.from(text).slice(0, EXCERPT_CHARS).join(''), fingerprint: fingerprintOf(item) };
}

/**
 * Whose pool a run may read: its borrower's items and documents published on or before its as-of
 * date. Whatever a caller asks for, nothing outside it is read for that run.
 */
export type PoolScope = { companyId: string; asOf?: string };

/** The conditions of `scope` on evidence items and on documents. */
export function poolScopeWhere(scope: PoolScope | undefined): { items: SQL[]; documents: SQL[] } {
  if (!scope) return { items: [], documents: [] };
  const { companyId, asOf } = scope;
  return {
    items: [eq(evidenceItems.companyId, companyId), ...(asOf ? [lte(evidenceItems.publishedDate, asOf)] : [])],
    documents: [eq(documents.companyId, companyId), ...(asOf ? [lte(documents.publishedDate, asOf)] : [])],
  };
}

/** The pool items and document passages with these ids (within `scope` when given), as they read now; missing ids are left out. */
export async function readCitedPoolItems({
  db,
  ids,
  scope,
  withText = false,
}: {
  db: Executor;
  ids: string[];
  scope?: PoolScope;
  /** Also the item's whole text (the case file: docs/case-file.md). */
  withText?: boolean;
}): Promise<(CitedEvidenceSnapshot & { text?: string })[]> {
  if (!ids.length) return [];
  const chunkIds = ids.filter((id) => UUID.test(id));
  const where = poolScopeWhere(scope);
  const [items, chunks] = await Promise.all([
    db
      .select()
      .from(evidenceItems)
      .where(and(inArray(evidenceItems.id, ids), ...where.items)),
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
          .where(and(inArray(documentChunks.id, chunkIds), ...where.documents))
      : Promise.resolve([]),
  ]);
  const out: (CitedEvidenceSnapshot & { text?: string })[] = [];
  const snapshotOf = (item: Canonical) => (withText ? { ...snapshotWithout(item), text: item.text } : snapshotWithout(item));
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

/** The ids of the citations the engine verified: each names an item its step was shown (lib/debate/checks.ts). */
export function verifiedCitationIds(outputs: readonly unknown[]): string[] {
  const ids = new Set<string>();
  for (const output of outputs)
    for (const c of citationsOf(output) as { evidenceId?: string; verified?: boolean }[]) if (c.evidenceId && c.verified === true) ids.add(c.evidenceId);
  return [...ids];
}

/**
 * The snapshot to store with a run as it finishes: every pool item and passage its saved steps
 * (claims, arguments, the report) cite and the engine verified against what the step was shown,
 * read now, and only within the run's borrower and as-of date. An unverified citation brings
 * nothing: it is kept on its step as the model wrote it. Web results are not in it: they live on
 * the run already (`runs.web_evidence`). The items of the run's red flags are in it too: the
 * engine found them in what the run may see, and a red-flag screening cites nothing else. Call
 * inside the transaction that marks the run finished.
 */
export async function snapshotCitedEvidence({ db, runId }: { db: Executor; runId: string }): Promise<CitedEvidenceSnapshot[]> {
  const [run] = await db.select({ companyId: runs.companyId, params: runs.params, redFlags: runs.redFlags }).from(runs).where(eq(runs.id, runId));
  if (!run) return [];
  const steps = await db.select({ output: runSteps.output }).from(runSteps).where(eq(runSteps.runId, runId)).orderBy(asc(runSteps.ordinal));
  const flagged = (run.redFlags ?? []).flatMap((f) => [f.evidenceId, ...(f.alsoEvidenceIds ?? [])]);
  const ids = [...new Set([...verifiedCitationIds(steps.map((s) => s.output)), ...flagged])];
  return readCitedPoolItems({ db, ids, scope: { companyId: run.companyId, asOf: run.params?.asOf } });
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
