// A run as one JSON document (docs/run-export.md), read from the database: the run, its steps,
// its report and its company, shaped by lib/report/run-doc.ts. The CLI prints it; the pages,
// exports, judges and studies read it.
import type { Executor } from '@/lib/db/client';
import { getCompanyById } from '@/lib/db/queries/companies';
import { getReport, getRun, listRunSteps } from '@/lib/db/queries/runs';
import { runDocument } from '@/lib/report/run-doc';

export type { RunView, RunViewTurn } from '@/lib/report/run-doc';

export async function loadRunView({ db, runId }: { db: Executor; runId: string }) {
  const run = await getRun({ db, id: runId });
  if (!run) throw new Error(`Run ${runId} does not exist.`);
  const [steps, report, company] = await Promise.all([listRunSteps({ db, runId }), getReport({ db, runId }), getCompanyById({ db, id: run.companyId })]);
  return runDocument({ run, steps, report, company });
}
