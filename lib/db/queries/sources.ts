// Where cited ids point: the title, link and date of pool items, document passages and this
// run's web results, for readers who want to open a source.
import { eq, inArray } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { documentChunks, documents, evidenceItems, runs } from '@/lib/db/schema';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type CitedSource = { title: string; url: string; publishedDate?: string };

/** Title and link of every cited pool item, document passage (by chunk id) and web result of the run. */
export async function listCitedSources({ db, runId, ids }: { db: Executor; runId: string; ids: string[] }): Promise<Record<string, CitedSource>> {
  const sources: Record<string, CitedSource> = {};
  if (ids.length === 0) return sources;
  const [items, chunks, [run]] = await Promise.all([
    db
      .select({ id: evidenceItems.id, title: evidenceItems.title, url: evidenceItems.sourceUrl, publishedDate: evidenceItems.publishedDate })
      .from(evidenceItems)
      .where(inArray(evidenceItems.id, ids)),
    ids.some((id) => UUID.test(id))
      ? db
          .select({ id: documentChunks.id, heading: documentChunks.heading, title: documents.title, url: documents.sourceUrl, publishedDate: documents.publishedDate })
          .from(documentChunks)
          .innerJoin(documents, eq(documents.id, documentChunks.documentId))
          .where(inArray(documentChunks.id, ids.filter((id) => UUID.test(id))))
      : Promise.resolve([]),
    db.select({ webEvidence: runs.webEvidence }).from(runs).where(eq(runs.id, runId)),
  ]);
  for (const i of items) sources[i.id] = { title: i.title, url: i.url, publishedDate: i.publishedDate };
  for (const c of chunks) sources[c.id] = { title: c.heading ? `${c.title} — ${c.heading}` : c.title, url: c.url, publishedDate: c.publishedDate };
  for (const w of (run?.webEvidence ?? []) as { id?: unknown; title?: unknown; sourceUrl?: unknown; publishedDate?: unknown }[]) {
    if (typeof w.id === 'string' && typeof w.sourceUrl === 'string' && ids.includes(w.id)) {
      sources[w.id] = { title: String(w.title ?? w.sourceUrl), url: w.sourceUrl, publishedDate: typeof w.publishedDate === 'string' ? w.publishedDate : undefined };
    }
  }
  return sources;
}
