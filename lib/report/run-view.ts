// A run as one JSON document (docs/run-export.md), read from the database: the run, its steps,
// its report and its company, shaped by lib/report/run-doc.ts. The CLI prints it; the pages,
// exports, judges and studies read it.
import type { Executor } from '@/lib/db/client';
import { getCompanyById } from '@/lib/db/queries/companies';
import { getReport, getRun, listRunSteps } from '@/lib/db/queries/runs';
import { runDocument } from '@/lib/report/run-doc';
import type { Run } from '@/lib/db/schema';

export type { RunView, RunViewTurn } from '@/lib/report/run-doc';

/** `run`: the run's row, when the caller has just read it. */
export async function loadRunView({ db, runId, run: known }: { db: Executor; runId: string; run?: Run }) {
  const run = known ?? (await getRun({ db, id: runId }));
  if (!run) throw new Error(`Run ${runId} does not exist.`);
  const [steps, report, company] = await Promise.all([listRunSteps({ db, runId }), getReport({ db, runId }), getCompanyById({ db, id: run.companyId })]);
  return runDocument({ run, steps, report, company });
}
