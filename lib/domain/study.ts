// The study instrument: the items an evaluator answers for each blinded report, and the shape of
// their answers and of a planned assignment. The SUS is asked per report, next to the three
// Likert items: the study compares systems and an evaluator meets a system only through its
// reports, so a per-report SUS is the only one that can be attributed to a system without
// unblinding it (and it pairs like the Likert items). The order of reports is lib/eval/study-design.ts.

export const LIKERT_ITEMS = ['trustworthiness', 'explanatoryAdequacy', 'practicalApplicability'] as const;
export type LikertItem = (typeof LIKERT_ITEMS)[number];

export const SUS_ITEMS = ['sus1', 'sus2', 'sus3', 'sus4', 'sus5', 'sus6', 'sus7', 'sus8', 'sus9', 'sus10'] as const;
export type SusItem = (typeof SUS_ITEMS)[number];

export const ALL_ITEMS = [...LIKERT_ITEMS, ...SUS_ITEMS] as const;
export type StudyItem = (typeof ALL_ITEMS)[number];

/** Every measure the results compare: the three Likert items and the SUS score. */
export const MEASURES = [...LIKERT_ITEMS, 'sus'] as const;
export type Measure = (typeof MEASURES)[number];

/** Whole scores 1–5 by item (`study_assignments.answers`); an unanswered item is absent. */
export type Answers = Partial<Record<StudyItem, number>>;

/** One report shown to one evaluator at a position of their own order (1…n). */
export type PlannedAssignment = { evaluatorId: string; reportId: string; position: number };
