// Where cited ids point: the title, link and date of pool items, document passages and this
// run's web results, for readers who want to open a source. A finished run's pool sources come
// from its cited-evidence snapshot (lib/db/queries/cited-evidence.ts), as they read when the run
// finished, marked when the pool item has changed or gone since; only a run still going, or one
// finished before snapshots existed, reads the live pool. Either way a pool source is given only
// for a citation the engine verified (its step was shown the item), and read only within the
// run's borrower and as-of date: an unverified citation shows what the model wrote, nothing more.
import 'server-only';
import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { compareWithPool, poolScopeWhere, type PoolScope } from '@/lib/db/queries/cited-evidence';
import { documentChunks, documents, evidenceItems, type Run } from '@/lib/db/schema';
import { TERMINAL_RUN_STATUSES } from '@/lib/domain/vocabulary';
import type { CitedSource, SourcesState } from '@/lib/domain/cited-source';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type WebItem = { id?: unknown; title?: unknown; sourceUrl?: unknown; sourceName?: unknown; publishedDate?: unknown };

/** This run's own web results among `ids`. */
function webSources(webEvidence: unknown[], ids: string[]): Record<string, CitedSource> {
  const sources: Record<string, CitedSource> = {};
  for (const w of webEvidence as WebItem[]) {
    if (typeof w.id === 'string' && typeof w.sourceUrl === 'string' && ids.includes(w.id)) {
      sources[w.id] = {
        title: String(w.title ?? w.sourceUrl),
        url: w.sourceUrl,
        publishedDate: typeof w.publishedDate === 'string' ? w.publishedDate : undefined,
        sourceName: typeof w.sourceName === 'string' ? w.sourceName : undefined,
        kind: 'web',
        frozen: true,
      };
    }
  }
  return sources;
}

/** Title and link of pool items and document passages (by chunk id) within `scope`, as they read now. */
async function livePoolSources(db: Executor, ids: string[], scope: PoolScope): Promise<Record<string, CitedSource>> {
  const sources: Record<string, CitedSource> = {};
  if (ids.length === 0) return sources;
  const where = poolScopeWhere(scope);
  const [items, chunks] = await Promise.all([
    db
      .select({
        id: evidenceItems.id,
        title: evidenceItems.title,
        url: evidenceItems.sourceUrl,
        publishedDate: evidenceItems.publishedDate,
        sourceName: evidenceItems.sourceName,
        // The tagged reading, for reading consistency on a run still going (lib/eval/reading-consistency.ts).
        polarity: evidenceItems.polarity,
      })
      .from(evidenceItems)
      .where(and(inArray(evidenceItems.id, ids), ...where.items)),
    ids.some((id) => UUID.test(id))
      ? db
          .select({
            id: documentChunks.id,
            heading: documentChunks.heading,
            title: documents.title,
            url: documents.sourceUrl,
            publishedDate: documents.publishedDate,
            sourceName: documents.sourceName,
          })
          .from(documentChunks)
          .innerJoin(documents, eq(documents.id, documentChunks.documentId))
          .where(
            and(
              inArray(
                documentChunks.id,
                ids.filter((id) => UUID.test(id)),
              ),
              ...where.documents,
            ),
          )
      : Promise.resolve([]),
  ]);
  for (const i of items) {
    sources[i.id] = {
      title: i.title,
      url: i.url,
      publishedDate: i.publishedDate,
      sourceName: i.sourceName,
      polarity: i.polarity,
      kind: 'evidence',
      frozen: false,
    };
  }
  for (const c of chunks) {
    sources[c.id] = {
      title: c.heading ? `${c.title} — ${c.heading}` : c.title,
      url: c.url,
      publishedDate: c.publishedDate,
      sourceName: c.sourceName,
      documentTitle: c.title,
      heading: c.heading,
      kind: 'passage',
      frozen: false,
    };
  }
  return sources;
}

/**
 * The sources of a run's cited ids. `verifiedIds` are the ids of citations the engine resolved
 * against what their step was shown (lib/debate/checks.ts): only those get a pool source, read
 * within the run's borrower and as-of date; the others (another borrower's item, say) get none,
 * and a reader sees the citation as the model wrote it. This run's own web results are given for
 * any cited id. When a finished run's snapshot lacks a verified id (a step saved after a
 * cancellation from another process), it is read live and left unfrozen, so the reader still
 * gets a link and is told.
 */
export async function resolveCitedSources({
  db,
  run,
  ids,
  verifiedIds,
}: {
  db: Executor;
  run: Pick<Run, 'status' | 'citedEvidence' | 'webEvidence' | 'companyId' | 'params'>;
  ids: string[];
  verifiedIds: string[];
}): Promise<{ state: SourcesState; sources: Record<string, CitedSource> }> {
  const web = webSources(run.webEvidence ?? [], ids);
  const scope: PoolScope = { companyId: run.companyId, asOf: run.params?.asOf };
  const verified = new Set(verifiedIds);
  const fromPool = ids.filter((id) => verified.has(id) && !web[id]);
  if (!TERMINAL_RUN_STATUSES.includes(run.status) || !run.citedEvidence) {
    const pool = await livePoolSources(db, fromPool, scope);
    return { state: TERMINAL_RUN_STATUSES.includes(run.status) ? 'not-frozen' : 'live', sources: { ...pool, ...web } };
  }
  // A snapshot written before it kept to verified citations may hold more: it is read the same way.
  const wanted = new Set(fromPool);
  const frozen = await compareWithPool({ db, snapshot: run.citedEvidence.filter((s) => wanted.has(s.id)) });
  const sources: Record<string, CitedSource> = {};
  for (const { id, title, sourceUrl, publishedDate, poolChange, ...rest } of Object.values(frozen)) {
    sources[id] = {
      title,
      url: sourceUrl,
      publishedDate,
      ...rest,
      frozen: true,
      changedSincePublished: poolChange === 'changed',
      removedFromPool: poolChange === 'removed',
    };
  }
  const missing = fromPool.filter((id) => !sources[id]);
  return { state: 'frozen', sources: { ...(await livePoolSources(db, missing, scope)), ...sources, ...web } };
}
