// Light checks of the adapter; lib/eval/stats.ts carries the SciPy-verified suite.
import { describe, expect, it } from 'vitest';
import { medianIqr, susScore, wilcoxonPaired } from '@/lib/eval/study-stats';

describe('study statistics adapter', () => {
  it('reproduces the paper: W = 0, n = 12 → Z = −3.059 without tie correction, r = −0.883', () => {
    const x = [3, 3, 3, 2, 3, 3, 3, 3, 2, 3, 3, 3];
    const y = [4, 5, 4, 4, 5, 4, 5, 4, 4, 4, 5, 4];
    const w = wilcoxonPaired(x, y, { tieCorrection: false });
    expect(w.n).toBe(12);
    expect(w.W).toBe(0);
    expect(w.z).toBeCloseTo(-3.059, 3);
    expect(w.p).toBeCloseTo(0.0022, 4);
    expect(w.r).toBeCloseTo(-0.883, 3);
    // With ties corrected the variance shrinks, so |Z| grows.
    expect(Math.abs(wilcoxonPaired(x, y).z!)).toBeGreaterThan(3.059);
  });

  it('drops zero differences and gives no test when nothing differs', () => {
    expect(wilcoxonPaired([3, 4, 5], [3, 4, 5])).toEqual({ n: 0, W: 0, z: null, p: null, pExact: null, r: null });
    // SciPy 1.x: wilcoxon(x, y, zero_method="wilcox", correction=False, method="approx").
    const w = wilcoxonPaired([1, 2, 3, 4, 5], [2, 2, 5, 1, 9]);
    expect(w.n).toBe(4);
    expect(w.W).toBe(3);
    expect(w.p).toBeCloseTo(0.46521, 4);
    // SciPy: wilcoxon([1, 2, 3, 4, 5], [2, 2, 5, 1, 9], method="exact") → p = 0.625 (2 × 5/16).
    expect(w.pExact).toBe(0.625);
    const tied = wilcoxonPaired([3, 3, 4, 2, 5, 1, 3], [4, 4, 4, 4, 3, 3, 5]);
    expect(tied.n).toBe(6);
    expect(tied.W).toBe(4.5);
    expect(tied.p).toBeCloseTo(0.194366, 5);
  });

  it('takes numpy-linear quartiles', () => {
    expect(medianIqr([1, 2, 3, 4])).toEqual({ median: 2.5, q1: 1.75, q3: 3.25 });
    expect(medianIqr([])).toBeNull();
  });

  it('scores the SUS', () => {
    expect(susScore([5, 1, 5, 1, 5, 1, 5, 1, 5, 1])).toBe(100);
    expect(susScore([3, 3, 3, 3, 3, 3, 3, 3, 3, 3])).toBe(50);
    expect(susScore([4, 2, 4, 2, 3, 3, 4, 2, 3, 3])).toBe(65);
  });
});
