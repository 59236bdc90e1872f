import { describe, expect, it } from 'vitest';
import { SUS_ITEMS } from '@/lib/domain/study';
import { cleanAnswers, missingItems, planAssignments } from '@/lib/eval/study-design';

const reports = ['r-a', 'r-b', 'r-c', 'r-d', 'r-e', 'r-f'];
const evaluators = ['e-1', 'e-2', 'e-3'];

describe('planAssignments', () => {
  it('gives every evaluator every report exactly once, at positions 1…n', () => {
    const plan = planAssignments({ seed: 42, evaluatorIds: evaluators, reportIds: reports });
    expect(plan).toHaveLength(evaluators.length * reports.length);
    for (const e of evaluators) {
      const mine = plan.filter((a) => a.evaluatorId === e);
      expect(mine.map((a) => a.reportId).sort()).toEqual([...reports].sort());
      expect(mine.map((a) => a.position)).toEqual([1, 2, 3, 4, 5, 6]);
    }
  });

  it('orders the reports differently across evaluators', () => {
    const plan = planAssignments({ seed: 42, evaluatorIds: evaluators, reportIds: reports });
    const orders = evaluators.map((e) =>
      plan
        .filter((a) => a.evaluatorId === e)
        .map((a) => a.reportId)
        .join(','),
    );
    expect(new Set(orders).size).toBe(evaluators.length);
    // Not just the input order for everyone either.
    expect(orders.some((o) => o !== reports.join(','))).toBe(true);
  });

  it('is deterministic per seed and independent of the order the reports were picked in', () => {
    const a = planAssignments({ seed: 7, evaluatorIds: evaluators, reportIds: reports });
    const b = planAssignments({ seed: 7, evaluatorIds: [...evaluators], reportIds: [...reports].reverse() });
    expect(b).toEqual(a);
    const other = planAssignments({ seed: 8, evaluatorIds: evaluators, reportIds: reports });
    expect(other).not.toEqual(a);
  });

  it('ignores duplicate picks', () => {
    expect(planAssignments({ seed: 1, evaluatorIds: ['e', 'e'], reportIds: ['x', 'y', 'x'] })).toHaveLength(2);
  });
});

describe('answers', () => {
  it('keeps only known items with whole scores 1–5', () => {
    expect(cleanAnswers({ trustworthiness: 5, sus1: '3', sus2: 0, sus3: 6, sus4: 2.5, runId: 4, explanatoryAdequacy: 'x' })).toEqual({
      trustworthiness: 5,
      sus1: 3,
    });
  });

  it('lists the unanswered items', () => {
    const all = Object.fromEntries([...SUS_ITEMS, 'trustworthiness', 'explanatoryAdequacy', 'practicalApplicability'].map((k) => [k, 3]));
    expect(missingItems(cleanAnswers(all))).toEqual([]);
    expect(missingItems(cleanAnswers({ ...all, sus7: undefined }))).toEqual(['sus7']);
  });
});
