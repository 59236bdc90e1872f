// The one adapter the study pages call for statistics, over lib/eval/stats.ts —
// the SciPy-checked implementation the CLI uses too. It shapes results for the results tables:
// an empty sample is "nothing to test" rather than an error.
import { interquartileRange, median, susScore, wilcoxonExactP, wilcoxonSignedRank } from '@/lib/eval/stats';

export { susScore };

export function medianIqr(values: number[]): { median: number; q1: number; q3: number } | null {
  if (values.length === 0) return null;
  const { q1, q3 } = interquartileRange(values);
  return { median: median(values), q1, q3 };
}

/**
 * Wilcoxon signed-rank on pairs (zero differences dropped, average ranks for ties, W = the
 * smaller rank sum, normal approximation with the tie correction unless switched off,
 * two-sided p, r = Z/√n); Z is reported as −|Z|, as SciPy does. `pExact` is the exact two-sided
 * p over every sign pattern of the ranks, for n ≤ 25 where the approximation is poor; else null.
 */
export function wilcoxonPaired(
  x: number[],
  y: number[],
  opts: { tieCorrection?: boolean } = {},
): { n: number; W: number; z: number | null; p: number | null; pExact: number | null; r: number | null } {
  if (x.length === 0 && y.length === 0) return { n: 0, W: 0, z: null, p: null, pExact: null, r: null };
  const result = wilcoxonSignedRank(x, y, { tieCorrection: opts.tieCorrection ?? true });
  return { n: result.n, W: result.W, z: result.z, p: result.p, pExact: wilcoxonExactP(x, y), r: result.r };
}
