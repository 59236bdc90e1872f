import { describe, expect, it } from 'vitest';
import { averageRanks, erfc, interquartileRange, median, quantile, susScore, wilcoxonExactP, wilcoxonSignedRank } from '@/lib/eval/stats';
import reference from './fixtures/wilcoxon-reference.json';

const TOL = 1e-6;

describe('wilcoxonSignedRank against SciPy (fixtures/wilcoxon-reference.json)', () => {
  it('covers the cases the reference script promises', () => {
    expect(reference.wilcoxon.length).toBeGreaterThanOrEqual(14);
    expect(reference.wilcoxon.map((c) => c.n)).toEqual(expect.arrayContaining([1, 2, 3, 4, 5, 12]));
  });

  for (const c of reference.wilcoxon) {
    it(`${c.name}: n, W, z, p, r with and without the tie correction`, () => {
      const corrected = wilcoxonSignedRank(c.x, c.y);
      expect(corrected.n).toBe(c.n);
      expect(corrected.W).toBeCloseTo(c.W, 9);
      expect(Math.abs(corrected.z! - c.tieCorrected.z)).toBeLessThan(TOL);
      expect(Math.abs(corrected.p! - c.tieCorrected.p)).toBeLessThan(TOL);
      expect(Math.abs(corrected.r! - c.tieCorrected.r)).toBeLessThan(TOL);

      const plain = wilcoxonSignedRank(c.x, c.y, { tieCorrection: false });
      expect(plain.W).toBe(corrected.W);
      expect(Math.abs(plain.z! - c.uncorrected.z)).toBeLessThan(TOL);
      expect(Math.abs(plain.p! - c.uncorrected.p)).toBeLessThan(TOL);
      expect(Math.abs(plain.r! - c.uncorrected.r)).toBeLessThan(TOL);
    });
  }
});

describe('wilcoxonSignedRank', () => {
  // Twelve raters, every one preferring the second system: the paper's W = 0, n = 12.
  const x = [3, 3, 2, 3, 3, 2, 3, 3, 2, 3, 3, 3];
  const y = [4, 5, 4, 4, 5, 4, 4, 5, 4, 4, 4, 5];

  it("reproduces the paper's uncorrected Z = −3.059, p = .002, r = −0.883 for W = 0, n = 12", () => {
    const res = wilcoxonSignedRank(x, y, { tieCorrection: false });
    expect(res).toMatchObject({ n: 12, W: 0, tieCorrection: false });
    expect(res.z!.toFixed(3)).toBe('-3.059');
    expect(res.p!.toFixed(3)).toBe('0.002');
    expect(res.r!.toFixed(3)).toBe('-0.883');
  });

  it('differs from the uncorrected value when |differences| tie, as it should', () => {
    expect(wilcoxonSignedRank(x, y).z!).toBeLessThan(-3.1);
  });

  it('is symmetric in the order of the samples (two-sided, Z reported as −|Z|)', () => {
    const a = wilcoxonSignedRank([1, 5, 3, 4, 2], [2, 3, 3.5, 1, 4]);
    const b = wilcoxonSignedRank([2, 3, 3.5, 1, 4], [1, 5, 3, 4, 2]);
    expect(b).toEqual({ ...a, rPlus: a.rMinus, rMinus: a.rPlus });
    expect(a.z!).toBeLessThanOrEqual(0);
  });

  it('returns a clear result, not NaN, when every difference is zero', () => {
    const res = wilcoxonSignedRank([3, 4, 5], [3, 4, 5]);
    expect(res).toMatchObject({ n: 0, W: 0, z: null, p: null, r: null });
    expect(res.reason).toMatch(/zero difference/);
  });

  it('handles one pair and all-tied differences with finite values', () => {
    const one = wilcoxonSignedRank([4], [2]);
    expect(one).toMatchObject({ n: 1, W: 0, rPlus: 1 });
    expect(Number.isFinite(one.p!)).toBe(true);
    const tied = wilcoxonSignedRank([2, 2, 2, 2, 2], [3, 3, 3, 3, 3]);
    expect(tied.rMinus).toBe(15);
    expect(Number.isFinite(tied.z!)).toBe(true);
  });

  it('rejects unpaired, empty and non-numeric input with a message', () => {
    expect(() => wilcoxonSignedRank([1, 2], [1])).toThrow(/same length/);
    expect(() => wilcoxonSignedRank([], [])).toThrow(/empty/);
    expect(() => wilcoxonSignedRank([1, NaN], [1, 2])).toThrow(/x\[1\]/);
  });
});

describe('averageRanks and erfc', () => {
  it('gives tied values the mean of their positions', () => {
    expect(averageRanks([10, 20, 10, 30, 20, 20])).toEqual({ ranks: [1.5, 4, 1.5, 6, 4, 4], tieGroups: [2, 3, 1] });
  });

  it('matches known values of erfc in both branches and for negative x', () => {
    expect(erfc(0)).toBe(1);
    expect(erfc(1)).toBeCloseTo(0.157299207050285, 13);
    expect(erfc(2.5) / 4.06952017444959e-4).toBeCloseTo(1, 9);
    expect(erfc(4) / 1.541725790028002e-8).toBeCloseTo(1, 10);
    expect(erfc(-1)).toBeCloseTo(1.842700792949715, 13);
  });
});

describe('median and interquartile range (numpy linear method)', () => {
  for (const c of reference.quantiles) {
    it(`[${c.values.join(', ')}]`, () => {
      expect(median(c.values)).toBeCloseTo(c.median, 12);
      const { q1, q3, iqr } = interquartileRange(c.values);
      expect(q1).toBeCloseTo(c.q1, 12);
      expect(q3).toBeCloseTo(c.q3, 12);
      expect(iqr).toBeCloseTo(c.q3 - c.q1, 12);
    });
  }

  it('interpolates between order statistics by hand, too', () => {
    // sorted 1 2 3 4: h = 3 × 0.25 = 0.75 → 1 + 0.75 × (2 − 1)
    expect(quantile([4, 1, 3, 2], 0.25)).toBe(1.75);
    expect(() => median([])).toThrow(/at least one/);
    expect(() => quantile([1], 1.5)).toThrow(/between 0 and 1/);
  });
});

describe('susScore', () => {
  it('scores the standard way: odd items − 1, even items 5 − score, × 2.5', () => {
    expect(susScore([5, 1, 5, 1, 5, 1, 5, 1, 5, 1])).toBe(100);
    expect(susScore([1, 5, 1, 5, 1, 5, 1, 5, 1, 5])).toBe(0);
    expect(susScore([3, 3, 3, 3, 3, 3, 3, 3, 3, 3])).toBe(50);
    // odd items 4,3,4,2,3 → 3+2+3+1+2 = 11; even items 2,1,2,3,1 → 3+4+3+2+4 = 16; 27 × 2.5
    expect(susScore([4, 2, 3, 1, 4, 2, 2, 3, 3, 1])).toBe(67.5);
  });

  it('rejects the wrong number of items and answers outside 1–5', () => {
    expect(() => susScore([3, 3, 3])).toThrow(/10 items/);
    expect(() => susScore([3, 3, 3, 3, 6, 3, 3, 3, 3, 3])).toThrow(/item 5/);
    expect(() => susScore([3, 3, 3, 3, 3, 3, 3, 2.5, 3, 3])).toThrow(/item 8/);
  });
});

describe('wilcoxonExactP', () => {
  const zeros = (d: number[]) => d.map(() => 0);
  const exact = (d: number[]) => wilcoxonExactP(d, zeros(d));

  // SciPy 1.17: wilcoxon(d, method="exact") — no ties, no zeros.
  it.each([
    ['Darwin (Fisher), n = 15', [6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75], 0.041259765625],
    ['all positive, n = 5', [1, 2, 3, 4, 5], 0.0625],
    ['one negative, n = 6', [1, -2, 3, 4, 5, 6], 0.09375],
    ['n = 3', [2, -1, 3], 0.5],
    ['n = 25', [0.5, -1.5, 2, 3, -4, 5.5, 6, 7, 8.25, 9, 10, -11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, -23, 24], 0.0007149577140808105],
  ])("matches SciPy's exact p: %s", (_name, d, p) => {
    expect(exact(d)).toBeCloseTo(p, 12);
  });

  // SciPy 1.17: permutation_test((d,), R+ over the observed average ranks, permutation_type="samples", n_resamples=inf).
  it.each([
    ['tied ranks, n = 5', [1, 1, 2, -3, 4], 0.375],
    ['tied ranks, n = 11', [-2.5, 1, -1, 1.5, 3, 3, 4, -0.5, 2, 5, 1], 0.0498046875],
  ])('with ties, gives the exact sign-flip p over the tied ranks: %s', (_name, d, p) => {
    expect(exact(d)).toBeCloseTo(p, 12);
  });

  it('agrees with brute-force enumeration of every sign pattern', () => {
    const brute = (d: number[]) => {
      const nz = d.filter((v) => v !== 0);
      const { ranks } = averageRanks(nz.map(Math.abs));
      const observed = nz.reduce((s, v, i) => (v > 0 ? s + ranks[i] : s), 0);
      let lo = 0;
      let hi = 0;
      for (let mask = 0; mask < 2 ** nz.length; mask++) {
        const s = ranks.reduce((acc, r, i) => (mask & (1 << i) ? acc + r : acc), 0);
        if (s <= observed) lo++;
        if (s >= observed) hi++;
      }
      return Math.min(1, (2 * Math.min(lo, hi)) / 2 ** nz.length);
    };
    for (const [x, y] of [
      [
        [3, 4, 2, 5, 3, 4, 1],
        [4, 4, 4, 3, 5, 5, 2],
      ],
      [
        [2, 2, 3, 3, 3, 4, 4, 1, 5, 2],
        [3, 4, 4, 5, 2, 5, 4, 2, 5, 4],
      ],
      [
        [1, 2, 3],
        [3, 2, 1],
      ],
    ]) {
      expect(wilcoxonExactP(x, y)).toBeCloseTo(brute(x.map((v, i) => v - y[i])), 12);
    }
  });

  it('differs from the normal approximation where n is small', () => {
    // n = 5, all one way: the smallest p the exact test can give is 2/32; the approximation says .043.
    const x = [1, 2, 3, 4, 5];
    expect(wilcoxonExactP(x, zeros(x))).toBe(0.0625);
    expect(wilcoxonSignedRank(x, zeros(x)).p!).toBeCloseTo(0.0431, 4);
  });

  it('is null with nothing to test and above n = 25', () => {
    expect(wilcoxonExactP([3, 4], [3, 4])).toBeNull();
    const d = Array.from({ length: 26 }, (_, i) => i + 1);
    expect(wilcoxonExactP(d, zeros(d))).toBeNull();
  });
});
