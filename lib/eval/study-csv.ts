// The raw ratings of a study as CSV (RFC 4180), one row per assignment, for analysis elsewhere;
// lib/util/csv.ts writes it, quoting and defusing formula-like names. Evaluators appear under
// their pseudonym in the study (lib/eval/study-pseudonym.ts), never by name or email.
import { ALL_ITEMS, SUS_ITEMS, type Answers } from '@/lib/domain/study';
import { susScore } from '@/lib/eval/study-stats';
import { csvText } from '@/lib/util/csv';

export type CsvAssignment = {
  id: string;
  position: number;
  /** The evaluator's pseudonym in this study (lib/eval/study-pseudonym.ts). */
  evaluator: string;
  companyId: string;
  companyName: string;
  protocol: string;
  runId: string;
  reportId: string;
  answers: Answers;
  savedAt: Date | null;
  submittedAt: Date | null;
};

export function ratingsCsv({ studyId, studyName, rows }: { studyId: string; studyName: string; rows: CsvAssignment[] }) {
  const head = [
    'study_id',
    'study_name',
    'assignment_id',
    'evaluator',
    'company_id',
    'company_name',
    'protocol',
    'run_id',
    'report_id',
    'position',
    ...ALL_ITEMS,
    'sus_score',
    'saved_at',
    'submitted_at',
  ];
  const lines = rows.map((r) => {
    const sus = SUS_ITEMS.map((i) => r.answers[i]);
    const score = sus.every((v): v is number => v !== undefined) ? susScore(sus) : null;
    return [
      studyId,
      studyName,
      r.id,
      r.evaluator,
      r.companyId,
      r.companyName,
      r.protocol,
      r.runId,
      r.reportId,
      r.position,
      ...ALL_ITEMS.map((i) => r.answers[i] ?? ''),
      score,
      r.savedAt?.toISOString() ?? '',
      r.submittedAt?.toISOString() ?? '',
    ];
  });
  return csvText([head, ...lines]);
}
