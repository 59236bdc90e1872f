// The order of reports per evaluator, and the checks of an evaluator's answers against the
// instrument (lib/domain/study.ts). Pure: no database.
import { ALL_ITEMS, type Answers, type PlannedAssignment, type StudyItem } from '@/lib/domain/study';
import { hashString, shuffled } from '@/lib/util/random';

const isItem = (key: string): key is StudyItem => (ALL_ITEMS as readonly string[]).includes(key);

/** Only known items with whole scores 1–5; anything else is dropped, never stored. */
export function cleanAnswers(raw: Record<string, unknown>): Answers {
  const out: Answers = {};
  for (const [key, value] of Object.entries(raw)) {
    const n = typeof value === 'string' ? Number(value) : value;
    if (isItem(key) && typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 5) out[key] = n;
  }
  return out;
}

export function missingItems(answers: Answers): StudyItem[] {
  return ALL_ITEMS.filter((item) => answers[item] === undefined);
}

/**
 * Every evaluator × every report, each evaluator with their own order (positions 1…n). The
 * order depends only on the seed, the evaluator's id and the reports (sorted first, so the
 * order the admin ticked them in does not matter).
 */
export function planAssignments({ seed, evaluatorIds, reportIds }: { seed: number; evaluatorIds: string[]; reportIds: string[] }): PlannedAssignment[] {
  const reports = [...new Set(reportIds)].sort();
  return [...new Set(evaluatorIds)].flatMap((evaluatorId) =>
    // FNV-1a of seed and id: each evaluator's own seed, fixed by the study's recorded one.
    shuffled(reports, hashString(`${seed}:${evaluatorId}`)).map((reportId, i) => ({ evaluatorId, reportId, position: i + 1 })),
  );
}

export function newStudySeed() {
  return Math.floor(Math.random() * 2 ** 31);
}
