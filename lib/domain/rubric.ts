// The three-round rubric's arithmetic (docs/protocols.md): one definition for the engine, which
// recomputes what a judge wrote (lib/debate/enforce.ts), and the offline analyst, which writes it.

/** The criteria's weights: logic, evidence, responsiveness, honesty. */
export const RUBRIC_WEIGHTS = { logic: 0.3, evidence: 0.3, responsiveness: 0.25, honesty: 0.15 } as const;

const round2 = (n: number) => Math.round(n * 100) / 100;

/** 0.30 logic + 0.30 evidence + 0.25 responsiveness + 0.15 honesty, to two decimals. */
export function weightedScore(s: { logic: number; evidence: number; responsiveness: number; honesty: number }): number {
  const w = RUBRIC_WEIGHTS;
  return round2(w.logic * s.logic + w.evidence * s.evidence + w.responsiveness * s.responsiveness + w.honesty * s.honesty);
}

/**
 * A side's total: the average of its arguments' weighted scores, to two decimals (a sum would
 * favour the side that put forward more arguments); 0 for a side with no scored argument.
 */
export function sideAverage(weighted: number[]): number {
  return weighted.length ? round2(weighted.reduce((n, w) => n + w, 0) / weighted.length) : 0;
}
