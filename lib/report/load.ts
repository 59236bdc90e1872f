// Everything a report needs from the database: the run document (lib/debate/run-view.ts) and
// where each cited evidence id points (title and link), so a reader can open the source.
import type { Db } from '@/lib/db/client';
import { listCitedSources } from '@/lib/db/queries/sources';
import { getProtocol, isProtocolId } from '@/lib/debate/protocols';
import { loadRunView, type RunView } from '@/lib/debate/run-view';
import type { ReportInput, Sources } from '@/lib/report/model';

function citedIds(view: RunView): string[] {
  const ids = new Set<string>();
  for (const turn of view.turns) for (const c of turn.citations as { evidenceId?: string }[]) if (c.evidenceId) ids.add(c.evidenceId);
  return [...ids];
}

/** Title and link of every cited pool item, document passage and web result of this run. */
export async function loadCitedSources({ db, view }: { db: Db; view: RunView }): Promise<Sources> {
  return listCitedSources({ db, runId: view.id, ids: citedIds(view) });
}

export async function loadReportInput({ db, runId }: { db: Db; runId: string }): Promise<ReportInput> {
  const view = await loadRunView({ db, runId });
  const protocol = isProtocolId(view.protocol) ? getProtocol(view.protocol) : null;
  return {
    view,
    sources: await loadCitedSources({ db, view }),
    protocolName: protocol?.name ?? view.protocol,
    totalSteps: protocol?.steps.length ?? view.turns.length,
  };
}
