// The study instrument and the per-evaluator report order. Pure: no database.
// The SUS is asked per report, next to the three Likert items: the study compares systems and
// an evaluator meets a system only through its reports, so a per-report SUS is the only one
// that can be attributed to a system without unblinding it (and it pairs like the Likert items).

export const LIKERT_ITEMS = ['trustworthiness', 'explanatoryAdequacy', 'practicalApplicability'] as const;
export type LikertItem = (typeof LIKERT_ITEMS)[number];

export const SUS_ITEMS = ['sus1', 'sus2', 'sus3', 'sus4', 'sus5', 'sus6', 'sus7', 'sus8', 'sus9', 'sus10'] as const;
export type SusItem = (typeof SUS_ITEMS)[number];

export const ALL_ITEMS = [...LIKERT_ITEMS, ...SUS_ITEMS] as const;
export type StudyItem = (typeof ALL_ITEMS)[number];

/** Every measure the results compare: the three Likert items and the SUS score. */
export const MEASURES = [...LIKERT_ITEMS, 'sus'] as const;
export type Measure = (typeof MEASURES)[number];

export type Answers = Partial<Record<StudyItem, number>>;

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

/** mulberry32: a small, well-mixed PRNG, so an order is reproducible from the recorded seed. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of a string: mixes the study seed with an evaluator's id into that evaluator's seed. */
function hash32(text: string) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  const next = prng(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export type PlannedAssignment = { evaluatorId: string; reportId: string; position: number };

/**
 * Every evaluator × every report, each evaluator with their own order (positions 1…n). The
 * order depends only on the seed, the evaluator's id and the reports (sorted first, so the
 * order the admin ticked them in does not matter).
 */
export function planAssignments({ seed, evaluatorIds, reportIds }: { seed: number; evaluatorIds: string[]; reportIds: string[] }): PlannedAssignment[] {
  const reports = [...new Set(reportIds)].sort();
  return [...new Set(evaluatorIds)].flatMap((evaluatorId) =>
    shuffled(reports, hash32(`${seed}:${evaluatorId}`)).map((reportId, i) => ({ evaluatorId, reportId, position: i + 1 })),
  );
}

export function newStudySeed() {
  return Math.floor(Math.random() * 2 ** 31);
}
