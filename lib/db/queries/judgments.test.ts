// Reading a stored pairwise judgment from the other run's side (the database paths of this
// module run in lib/eval/judge-actions.test.ts on real runs).
import { describe, expect, it } from 'vitest';
import { swapSides } from '@/lib/db/queries/judgments';
import type { PairwiseResult } from '@/lib/domain/judgments';

const stored: PairwiseResult = {
  comparisons: [
    { order: 'a-first', label: 'A', winner: 'a', reason: 'first' },
    { order: 'b-first', label: 'tie', winner: 'tie', reason: 'second' },
  ],
  wins: { a: 1, b: 0 },
  ties: 1,
  winRate: { a: 0.5, b: 0 },
  consistent: false,
  usage: { promptTokens: 10, completionTokens: 2 },
};

describe('swapSides', () => {
  it('exchanges the runs: orders, winners, wins and win rates, keeping the judge’s own labels', () => {
    expect(swapSides(stored)).toEqual({
      ...stored,
      comparisons: [
        { order: 'a-first', label: 'tie', winner: 'tie', reason: 'second' },
        { order: 'b-first', label: 'A', winner: 'b', reason: 'first' },
      ],
      wins: { a: 0, b: 1 },
      winRate: { a: 0, b: 0.5 },
    });
    expect(swapSides(swapSides(stored))).toEqual(stored);
  });
});
