// The live run page's state from the server: the database's view of the run, what the event
// log's live part adds for running steps (lib/debate/event-log.ts), reduced onto it with the
// browser's own reducer (reduceRun, lib/report/run-state.ts), and the titles of the evidence the
// turns cite, all read in one transaction so they agree on where the run stands.
// The page paints it first and follows the run's log from its number; the SSE route sends it to
// a viewer who comes without one. A finished run's
// chips show its cited-evidence snapshot (lib/db/queries/sources.ts), not the pool as it reads now.
import type { Db, Executor } from '@/lib/db/client';
import { listPassages } from '@/lib/db/queries/documents';
import { listEvidenceRefs } from '@/lib/db/queries/evidence';
import { passageHref } from '@/lib/domain/passage';
import { getRun } from '@/lib/db/queries/runs';
import { resolveCitedSources } from '@/lib/db/queries/sources';
import { withPassageReadings } from '@/lib/report/passage-readings';
import { poolNoteOf } from '@/lib/domain/cited-source';
import type { Run } from '@/lib/db/schema';
import { liveEvents } from '@/lib/db/queries/run-events';
import { loadRunView } from '@/lib/report/run-view';
import { citedEvidenceIds, isTerminal, stateFromView, type EvidenceRefs, type LiveRunState } from '@/lib/report/run-state';
import { citationsOf } from '@/lib/domain/output-parts';

type WebItem = { id: string; title?: string; publishedDate?: string; sourceName?: string; sourceUrl?: string };

/** Chips for the given evidence ids: pool items, then this run's web results. */
export async function evidenceRefsFor({ db, ids, webEvidence }: { db: Executor; ids: string[]; webEvidence: unknown[] }): Promise<EvidenceRefs> {
  const refs: EvidenceRefs = {};
  for (const row of await listEvidenceRefs({ db, ids })) refs[row.id] = row;
  for (const w of webEvidence as WebItem[]) {
    if (ids.includes(w.id)) refs[w.id] = { id: w.id, title: w.title ?? w.id, date: w.publishedDate ?? '', source: w.sourceName ?? '', url: w.sourceUrl ?? '' };
  }
  return withPassages(db, refs);
}

/** Items accepted from an uploaded document link to their passage; the rest are left as they are. */
async function withPassages(db: Executor, refs: EvidenceRefs): Promise<EvidenceRefs> {
  for (const p of await listPassages({ db, evidenceIds: Object.keys(refs) })) {
    if (refs[p.evidenceId]) refs[p.evidenceId].passage = passageHref(p);
  }
  return refs;
}

/**
 * Chips for the evidence a run's turns cite: live while it runs; once it has finished, as it
 * recorded them, each marked when the pool item has changed or gone since, or, for a run
 * finished before snapshots, marked as read live.
 */
export async function runEvidenceRefs({
  db,
  run,
  turns,
}: {
  db: Executor;
  run: Pick<Run, 'status' | 'citedEvidence' | 'webEvidence' | 'companyId' | 'params'>;
  turns: { output: unknown }[];
}): Promise<EvidenceRefs> {
  const ids = citedEvidenceIds(turns);
  if (!ids.length) return {};
  const verifiedIds = [
    ...new Set(
      turns.flatMap((t) =>
        (citationsOf(t.output) as { evidenceId?: string; verified?: boolean }[]).flatMap((c) => (c.evidenceId && c.verified ? [c.evidenceId] : [])),
      ),
    ),
  ];
  const { state, sources } = await resolveCitedSources({ db, run, ids, verifiedIds });
  const refs: EvidenceRefs = {};
  for (const [id, s] of Object.entries(withPassageReadings(sources))) {
    const poolNote = state === 'live' ? undefined : poolNoteOf(s);
    refs[id] = {
      id,
      title: s.title,
      date: s.publishedDate ?? '',
      source: s.sourceName ?? '',
      url: s.url,
      ...(poolNote ? { poolNote } : {}),
      ...(s.polarity ? { polarity: s.polarity } : {}),
    };
  }
  return withPassages(db, refs);
}

export async function loadLiveState({ db, runId }: { db: Db; runId: string }): Promise<LiveRunState> {
  // One snapshot of the database: the log's number and the saved turns are from the same moment.
  return db.transaction((tx) => liveStateIn(tx, runId), { isolationLevel: 'repeatable read', accessMode: 'read only' });
}

async function liveStateIn(db: Executor, runId: string): Promise<LiveRunState> {
  // The run row once: its log's number and status say how much of the log's live part to read.
  const run = await getRun({ db, id: runId });
  if (!run) throw new Error(`Run ${runId} does not exist.`);
  const [view, events] = await Promise.all([loadRunView({ db, runId, run }), isTerminal(run.status) ? [] : liveEvents(db, runId, run.eventSeq)]);
  const evidence = await runEvidenceRefs({ db, run, turns: view.turns });
  // The red flags' items (the panel at the top links them): as cited, else read from the pool, and
  // then, for a finished run, marked as read live (its snapshot holds only what its turns cite).
  const flagged = (run.redFlags ?? []).flatMap((f) => [f.evidenceId, ...(f.alsoEvidenceIds ?? [])]).filter((id) => !evidence[id]);
  const flagRefs = flagged.length ? await evidenceRefsFor({ db, ids: flagged, webEvidence: [] }) : {};
  if (isTerminal(run.status)) for (const ref of Object.values(flagRefs)) ref.poolNote = 'notFrozen';
  return stateFromView(view, run, { seq: run.eventSeq, events }, { ...flagRefs, ...evidence });
}

/**
 * The evidence one finished step cites, sent along with its step-done event: read as a reload
 * reads it (runEvidenceRefs), so a citation the engine did not verify brings nothing of the pool.
 */
export async function evidenceForOutput({ db, runId, output }: { db: Db; runId: string; output: unknown }): Promise<EvidenceRefs> {
  if (!citationsOf(output).some((c) => c.evidenceId)) return {};
  const run = await getRun({ db, id: runId });
  return run ? runEvidenceRefs({ db, run, turns: [{ output }] }) : {};
}
