// Everything a report needs from the database: the run document (lib/report/run-view.ts) and
// where each cited evidence id points (title and link), so a reader can open the source. A
// finished run's sources are its cited-evidence snapshot, not the live pool: the report an RM
// submitted and the committee decided on cannot change when the pool is edited afterwards.
import type { Db } from '@/lib/db/client';
import type { Run } from '@/lib/db/schema';
import { getRun } from '@/lib/db/queries/runs';
import { resolveCitedSources } from '@/lib/db/queries/sources';
import { getProtocol, isProtocolId } from '@/lib/debate/protocols';
import { withPassageReadings } from '@/lib/report/passage-readings';
import { loadRunView, type RunView } from '@/lib/report/run-view';
import type { ReportInput, Sources, SourcesState } from '@/lib/report/model';

type Cited = { evidenceId?: string; verified?: boolean };

function citedIds(view: RunView, onlyVerified = false): string[] {
  const ids = new Set<string>();
  for (const turn of view.turns) for (const c of turn.citations as Cited[]) if (c.evidenceId && (!onlyVerified || c.verified)) ids.add(c.evidenceId);
  return [...ids];
}

/** Title and link of every cited pool item, document passage and web result of this run, and where they were read. */
async function loadCitedSources({ db, view, run }: { db: Db; view: RunView; run: Run }): Promise<{ sources: Sources; sourcesState: SourcesState }> {
  // The run row's own status decides, read with its snapshot: the view may be a moment older.
  const { state, sources } = await resolveCitedSources({ db, run, ids: citedIds(view), verifiedIds: citedIds(view, true) });
  return { sources: withPassageReadings(sources), sourcesState: state };
}

/**
 * Source name and link of the red flags' items that no turn cites (the flag itself keeps its title
 * and date). A finished run's come from its cited-evidence snapshot, which holds its red flags'
 * items (lib/db/queries/cited-evidence.ts), so an edit of the pool changes nothing in the report;
 * a run still going, or one finished before snapshots held them, reads the pool within its
 * borrower and as-of date.
 */
async function loadRedFlagSources({ db, view, run, cited }: { db: Db; view: RunView; run: Run; cited: { sources: Sources } }): Promise<Sources> {
  const ids = [...new Set(view.redFlags.map((f) => f.evidenceId))].filter((id) => !cited.sources[id]);
  if (ids.length === 0) return {};
  // The engine found each flag in what the run may see: every flag's item counts as verified.
  return (await resolveCitedSources({ db, run, ids, verifiedIds: ids })).sources;
}

export async function loadReportInput({ db, runId }: { db: Db; runId: string }): Promise<ReportInput> {
  const view = await loadRunView({ db, runId });
  const protocol = isProtocolId(view.protocol) ? getProtocol(view.protocol) : null;
  // The run row, read once for both: its own status and snapshot decide, the view may be a moment older.
  const run = await getRun({ db, id: view.id });
  if (!run) throw new Error(`Run ${view.id} does not exist.`);
  const cited = await loadCitedSources({ db, view, run });
  const redFlagSources = await loadRedFlagSources({ db, view, run, cited });
  return {
    view,
    ...cited,
    protocolName: protocol?.name ?? view.protocol,
    totalSteps: protocol?.steps.length ?? view.turns.length,
    redFlagSources,
  };
}
