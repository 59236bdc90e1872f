// What submitting a case asks the RM to acknowledge, computed on the server from the stored runs
// (docs/architecture.md, "Submitting a case"): for each finished run of the case (COMPLETED_RUN_STATUSES),
// each final check that failed, the reading-consistency check included (lib/report/failed-checks.ts);
// then each decisive red flag any run of the case found that no finished run addresses. A red-flag
// screening addresses every flag it holds by construction; a debate run addresses a flag when its
// report does (unaddressedRedFlags, the rule of its own red-flags-addressed check).
import type { Db, Executor } from '@/lib/db/client';
import { listCaseRunsWithReports } from '@/lib/db/queries/acknowledgements';
import { unaddressedRedFlags } from '@/lib/debate/checks';
import { checkAckKey, flagAckKey, type AckItem } from '@/lib/domain/acknowledgements';
import type { RedFlag } from '@/lib/domain/red-flags';
import { COMPLETED_RUN_STATUSES } from '@/lib/domain/vocabulary';
import { reportCheckRows } from '@/lib/report/failed-checks';
import { loadReportInput } from '@/lib/report/load';

const idsOf = (f: RedFlag) => [f.evidenceId, ...(f.alsoEvidenceIds ?? [])];
const sameEvent = (a: RedFlag, b: RedFlag) => idsOf(a).some((id) => idsOf(b).includes(id));

/**
 * The items to acknowledge, in the order the form lists them: checks run by run (oldest first), in
 * the order each run recorded them, then red flags newest first. Empty when every check passed and
 * every flag is addressed. Reads with `db`, which may be the submission's transaction.
 */
export async function itemsToAcknowledge({ db, caseId }: { db: Executor; caseId: string }): Promise<AckItem[]> {
  const runs = await listCaseRunsWithReports({ db, caseId });
  const completed = runs.filter((r) => COMPLETED_RUN_STATUSES.includes(r.status));
  const items: AckItem[] = [];
  for (const run of completed) {
    if (!run.reportContent) continue;
    // The report's checks as its page shows them: the stored ones and the reading-consistency check.
    const input = await loadReportInput({ db: db as Db, runId: run.id });
    for (const c of reportCheckRows(input.view, input.sources, 'en')) {
      if (c.ok) continue;
      items.push({ key: checkAckKey(run.id, c.id), kind: 'check', runId: run.id, protocol: run.protocol, runCreatedAt: run.createdAt.toISOString(), checkId: c.id, count: c.items.length, label: c.label });
    }
  }
  // One flag per event, whichever runs found it.
  const flags: RedFlag[] = [];
  for (const run of runs) for (const f of run.redFlags ?? []) if (!flags.some((g) => sameEvent(f, g))) flags.push(f);
  const addressed = (f: RedFlag) =>
    completed.some((run) =>
      run.status === 'red_flag_screening' ? (run.redFlags ?? []).some((g) => sameEvent(f, g)) : run.reportContent !== null && unaddressedRedFlags(run.reportContent, [f]).length === 0,
    );
  const open = flags.filter((f) => !addressed(f)).sort((a, b) => b.date.localeCompare(a.date));
  for (const f of open) items.push({ key: flagAckKey(f.evidenceId), kind: 'red_flag', evidenceId: f.evidenceId, flagKind: f.kind, title: f.title, date: f.date });
  return items;
}
