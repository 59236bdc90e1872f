// A study's ratings and the metrics of its runs, read for the results page and the CSV.
// Admin-only: it carries run ids and systems.
import type { Db } from '@/lib/db/client';
import { listStudyAssignments } from '@/lib/db/queries/studies';
import type { Protocol } from '@/lib/domain/vocabulary';
import { loadRunView } from '@/lib/report/run-view';
import type { RatingRow } from '@/lib/eval/study-results';

export type StudyRunMetrics = {
  runId: string;
  protocol: Protocol;
  companyId: string;
  companyName: string;
  mode: string;
  breadth: number;
  depths: number[];
  rei: number;
  latencyMs: number | null;
};

export async function loadStudyData({ db, studyId }: { db: Db; studyId: string }) {
  const assignments = await listStudyAssignments({ db, studyId });
  const ratings: RatingRow[] = assignments
    .filter((a) => a.submittedAt)
    .map((a) => ({ evaluatorId: a.evaluatorId, companyId: a.companyId, protocol: a.protocol, answers: a.answers }));
  const runIds = [...new Set(assignments.map((a) => a.runId))];
  const runs: StudyRunMetrics[] = [];
  for (const runId of runIds) {
    const view = await loadRunView({ db, runId });
    const a = assignments.find((x) => x.runId === runId)!;
    runs.push({
      runId,
      protocol: a.protocol,
      companyId: a.companyId,
      companyName: a.companyName,
      mode: view.mode,
      breadth: view.metrics.breadth,
      depths: view.metrics.depths,
      rei: view.metrics.rei,
      latencyMs: view.metrics.latencyMs,
    });
  }
  runs.sort((x, y) => x.companyName.localeCompare(y.companyName) || x.protocol.localeCompare(y.protocol));
  return { assignments, ratings, runs };
}
