// What the KPD-MADS paper published for its comparison with the single-agent baseline (NAS), as
// data: `npm run bench -- --paper` prints our measurements beside these figures. Only figures the
// repository already records are here (docs/protocols.md, "Reproducing the paper"); a figure we
// do not hold is null, never guessed. The paper ran GPT-4o on three real cases, one step at a
// time, and had five credit professionals rate each report blind.

export const PAPER = {
  model: 'GPT-4o',
  mode: 'sequential' as const,
  cases: 3,
  raters: 5,
  /** Seconds per case. The human baseline is an analyst writing the same report by hand. */
  latencySeconds: { kpd: 91.97, nas: 11.55, human: 1920 },
  /** Reasoning tree per case: breadth and REI (Σ depths). NAS trees are one level deep. */
  tree: {
    kpd: { breadth: [6, 7, 6], rei: [12, 13, 18], meanRei: 14.33 },
    nas: { breadth: [7, 8, 9], rei: [7, 8, 9], meanRei: 8.0 },
  },
  /** Median expert ratings (Likert 1–5; SUS 0–100). Trustworthiness medians are not recorded here. */
  medians: {
    trustworthiness: null,
    explanatoryAdequacy: { kpd: 4, nas: 3 },
    practicalApplicability: { kpd: 4, nas: 3 },
    sus: { kpd: 62.5, nas: 52.5 },
  },
} as const;

export type PaperMeasure = 'trustworthiness' | 'explanatoryAdequacy' | 'practicalApplicability' | 'sus';

export const MEASURE_LABELS: Record<PaperMeasure, string> = {
  trustworthiness: 'Trustworthiness',
  explanatoryAdequacy: 'Explanatory adequacy',
  practicalApplicability: 'Practical applicability',
  sus: 'SUS',
};

/** A published Wilcoxon row: the figures as printed, and how many decimals they were printed to. */
export type PublishedWilcoxon = { W: number; n: number; z: number; p: number; r: number; decimals: { z: number; p: number; r: number } };

export type PaperWilcoxonRow = {
  /** Which criterion; null when the repository records the figures but not the criterion they belong to. */
  measure: PaperMeasure | null;
  label: string;
  published: PublishedWilcoxon | null;
  /**
   * Ratings to recompute the row from (x = NAS, y = KPD-MADS, one pair per rater and case). The
   * paper's raw ratings were never published; `source` says what these are instead.
   */
  ratings: { nas: number[]; kpd: number[]; source: string } | null;
  /** What is known about the row beyond its figures (one line), if anything. */
  remark?: string;
};

// Twelve pairs with a non-zero difference, every one favouring KPD-MADS (W = 0, n = 12), Likert
// 2–3 against 4–5 so that |differences| tie as Likert differences do: the same pairs as the case
// "paper n=12 W=0 with ties" in lib/eval/fixtures/wilcoxon-reference.json, checked against SciPy.
const PAPER_SHAPED_NAS = [3, 3, 2, 3, 3, 2, 3, 3, 2, 3, 3, 3];
const PAPER_SHAPED_KPD = [4, 5, 4, 4, 5, 4, 4, 5, 4, 4, 4, 5];

export const PAPER_WILCOXON: PaperWilcoxonRow[] = [
  {
    measure: null,
    label: 'W = 0, n = 12 (all favour KPD-MADS)',
    published: { W: 0, n: 12, z: -3.059, p: 0.002, r: -0.883, decimals: { z: 3, p: 3, r: 3 } },
    ratings: { nas: PAPER_SHAPED_NAS, kpd: PAPER_SHAPED_KPD, source: 'paper-shaped pairs (lib/eval/fixtures/wilcoxon-reference.json), not the raters’ own' },
  },
  {
    measure: 'trustworthiness',
    label: MEASURE_LABELS.trustworthiness,
    published: null,
    ratings: null,
    remark: 'its published p is reported to follow the tie-corrected variance (not checkable here)',
  },
  { measure: 'explanatoryAdequacy', label: MEASURE_LABELS.explanatoryAdequacy, published: null, ratings: null },
  { measure: 'practicalApplicability', label: MEASURE_LABELS.practicalApplicability, published: null, ratings: null },
  {
    measure: 'sus',
    label: MEASURE_LABELS.sus,
    published: null,
    ratings: null,
    remark: 'its published p is reported to follow the tie-corrected variance (not checkable here)',
  },
];
