// Statistics for the evaluation studies: the paired Wilcoxon signed-rank test the
// paper reports, median and interquartile range for rating tables, and SUS scoring. Pure
// functions, no I/O, so the studio UI, the CLI and the tests share one implementation.
//
// The Wilcoxon test matches SciPy's
//   wilcoxon(x, y, zero_method="wilcox", correction=False, method="approx")
// to 1e-6 (see scripts/eval/wilcoxon-reference.py and lib/eval/fixtures/wilcoxon-reference.json).

export type WilcoxonOptions = {
  /**
   * Correct the variance for tied |differences| (SciPy always does). Off reproduces the paper's
   * published table: W = 0, n = 12 gives Z = −3.059 uncorrected. Default true.
   */
  tieCorrection?: boolean;
};

export type WilcoxonResult = {
  /** Pairs with a non-zero difference: zero differences are dropped (the "wilcox" method). */
  n: number;
  /** The smaller of the two signed-rank sums. */
  W: number;
  /** Sum of ranks of positive differences (x − y > 0) and of negative ones. */
  rPlus: number;
  rMinus: number;
  /** Normal approximation, reported as −|Z| like SciPy's two-sided zstatistic; null when n = 0. */
  z: number | null;
  /** Two-sided p-value; null when n = 0. */
  p: number | null;
  /** Effect size Z/√n; null when n = 0. */
  r: number | null;
  tieCorrection: boolean;
  /** Why z, p and r are null. */
  reason?: string;
};

function assertFinite(values: readonly number[], name: string) {
  values.forEach((v, i) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new RangeError(`${name}[${i}] is not a finite number.`);
  });
}

/** 1-based ranks of the values, ties sharing their average rank; also the size of each tie group. */
export function averageRanks(values: readonly number[]): { ranks: number[]; tieGroups: number[] } {
  const order = values.map((v, i) => ({ v, i })).sort((a, b) => a.v - b.v);
  const ranks = new Array<number>(values.length);
  const tieGroups: number[] = [];
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && order[end + 1].v === order[start].v) end++;
    const rank = (start + end + 2) / 2; // mean of the 1-based positions start+1 … end+1
    for (let k = start; k <= end; k++) ranks[order[k].i] = rank;
    tieGroups.push(end - start + 1);
    start = end + 1;
  }
  return { ranks, tieGroups };
}

/**
 * Paired Wilcoxon signed-rank test, two-sided, by normal approximation without continuity
 * correction. Differences are x − y; zeros are dropped; |d| ranked with average ranks for ties.
 * Z = (R+ − n(n+1)/4) / σ with σ² = [n(n+1)(2n+1) − ½ Σ(t³ − t)] / 24 (the tie term only with
 * `tieCorrection`); reported as −|Z|, so r = Z/√n is never positive.
 */
export function wilcoxonSignedRank(x: readonly number[], y: readonly number[], options: WilcoxonOptions = {}): WilcoxonResult {
  const tieCorrection = options.tieCorrection ?? true;
  if (x.length !== y.length) throw new RangeError(`Paired samples need the same length: x has ${x.length} values, y has ${y.length}.`);
  if (x.length === 0) throw new RangeError('The samples are empty: give at least one pair.');
  assertFinite(x, 'x');
  assertFinite(y, 'y');

  const d = x.map((v, i) => v - y[i]).filter((v) => v !== 0);
  const n = d.length;
  if (n === 0) {
    return { n: 0, W: 0, rPlus: 0, rMinus: 0, z: null, p: null, r: null, tieCorrection, reason: 'Every pair has a zero difference: there is nothing to test.' };
  }
  const { ranks, tieGroups } = averageRanks(d.map(Math.abs));
  let rPlus = 0;
  let rMinus = 0;
  d.forEach((v, i) => {
    if (v > 0) rPlus += ranks[i];
    else rMinus += ranks[i];
  });
  const mean = (n * (n + 1)) / 4;
  const tieTerm = tieCorrection ? tieGroups.reduce((s, t) => s + t ** 3 - t, 0) / 2 : 0;
  const variance = (n * (n + 1) * (2 * n + 1) - tieTerm) / 24;
  const W = Math.min(rPlus, rMinus);
  // σ > 0 whenever n ≥ 1 (the tie term is at most n³ − n), but guard anyway: a NaN must never leak.
  if (!(variance > 0)) return { n, W, rPlus, rMinus, z: null, p: null, r: null, tieCorrection, reason: 'The variance of the statistic is zero.' };
  const z = -Math.abs((rPlus - mean) / Math.sqrt(variance));
  return { n, W, rPlus, rMinus, z, p: Math.min(1, erfc(-z / Math.SQRT2)), r: z / Math.sqrt(n), tieCorrection };
}

/** Largest n for which the exact p is computed: 2^25 sign patterns still count exactly in a double. */
export const WILCOXON_EXACT_MAX_N = 25;

/**
 * Exact two-sided p of the signed-rank test: the null distribution of R+ over all 2^n sign
 * patterns of the ranks actually observed (average ranks for ties), counted by dynamic
 * programming over doubled ranks (average ranks are multiples of ½). p = min(1, 2·min(P(R+ ≤ r),
 * P(R+ ≥ r))). Without ties this is SciPy's wilcoxon(method="exact"); with ties it is the exact
 * permutation (sign-flip) test, as SciPy's permutation_test with permutation_type="samples" gives.
 * Null when there is nothing to test (n = 0) or n > WILCOXON_EXACT_MAX_N.
 */
export function wilcoxonExactP(x: readonly number[], y: readonly number[]): number | null {
  if (x.length !== y.length) throw new RangeError(`Paired samples need the same length: x has ${x.length} values, y has ${y.length}.`);
  assertFinite(x, 'x');
  assertFinite(y, 'y');
  const d = x.map((v, i) => v - y[i]).filter((v) => v !== 0);
  const n = d.length;
  if (n === 0 || n > WILCOXON_EXACT_MAX_N) return null;
  const { ranks } = averageRanks(d.map(Math.abs));
  const doubled = ranks.map((r) => Math.round(2 * r));
  const observed = d.reduce((s, v, i) => (v > 0 ? s + doubled[i] : s), 0);
  const total = doubled.reduce((s, r) => s + r, 0);
  // counts[s] = number of sign patterns whose doubled R+ is s.
  let counts = new Array<number>(total + 1).fill(0);
  counts[0] = 1;
  for (const r of doubled) {
    const next = counts.slice();
    for (let s = 0; s + r <= total; s++) if (counts[s]) next[s + r] += counts[s];
    counts = next;
  }
  let atMost = 0;
  let atLeast = 0;
  counts.forEach((c, s) => {
    if (s <= observed) atMost += c;
    if (s >= observed) atLeast += c;
  });
  return Math.min(1, (2 * Math.min(atMost, atLeast)) / 2 ** n);
}

/**
 * Complementary error function, absolute error ~1e-14: the Taylor series of erf below 3 (few digits lost to
 * cancellation there), Lentz's continued fraction for erfc above (where 1 − erf would lose them all).
 */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x < 0) return 2 - erfc(-x);
  if (x < 3) {
    let term = x;
    let sum = x;
    for (let k = 1; k < 200; k++) {
      term *= (-x * x) / k;
      const next = term / (2 * k + 1);
      sum += next;
      if (Math.abs(next) < 1e-17 * Math.abs(sum)) break;
    }
    return 1 - (2 / Math.sqrt(Math.PI)) * sum;
  }
  // erfc(x) = exp(−x²)/√π · 1/(x + ½/(x + 1/(x + (3/2)/(x + …)))), evaluated by modified Lentz.
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let dd = 0;
  for (let k = 1; k < 500; k++) {
    const a = k / 2;
    dd = x + a * dd;
    dd = dd === 0 ? tiny : dd;
    c = x + a / c;
    c = c === 0 ? tiny : c;
    dd = 1 / dd;
    const delta = c * dd;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / (Math.sqrt(Math.PI) * f);
}

/**
 * Quantile by linear interpolation between order statistics — numpy's default (`method="linear"`,
 * Hyndman & Fan type 7): h = (n − 1)q, value = x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]).
 */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) throw new RangeError('No values: a quantile needs at least one.');
  if (!(q >= 0 && q <= 1)) throw new RangeError('q must be between 0 and 1.');
  assertFinite(values, 'values');
  const sorted = [...values].sort((a, b) => a - b);
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** Q1, Q3 and their difference, by numpy's default linear method. */
export function interquartileRange(values: readonly number[]): { q1: number; q3: number; iqr: number } {
  const q1 = quantile(values, 0.25);
  const q3 = quantile(values, 0.75);
  return { q1, q3, iqr: q3 - q1 };
}

/**
 * System Usability Scale: ten answers 1–5 in questionnaire order. Odd items (positively worded)
 * contribute score − 1, even items (negatively worded) 5 − score; the sum × 2.5 gives 0–100.
 */
export function susScore(answers: readonly number[]): number {
  if (answers.length !== 10) throw new RangeError(`SUS has 10 items; got ${answers.length} answers.`);
  answers.forEach((a, i) => {
    if (!Number.isInteger(a) || a < 1 || a > 5) throw new RangeError(`SUS item ${i + 1} must be a whole number from 1 to 5; got ${a}.`);
  });
  const sum = answers.reduce((s, a, i) => s + (i % 2 === 0 ? a - 1 : 5 - a), 0);
  return sum * 2.5;
}
