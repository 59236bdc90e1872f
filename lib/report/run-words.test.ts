// Words and figures of the run and compare pages that read wrong before: a cancelled run's
// pending steps "waiting", and latencies of 0.1 vs 0.2 s differing by "+0.0 s".
import { describe, expect, it } from 'vitest';
import { secondsDigits, secondsFigure } from '@/components/run/live-format';
import { pendingStepNote } from '@/lib/report/run-state';

describe("a pending step's note", () => {
  it('waits while the run goes on, and says it never ran once the run has ended', () => {
    expect(pendingStepNote('running', false)).toBe('waitingForContext');
    expect(pendingStepNote('queued', false)).toBe('waitingForContext');
    expect(pendingStepNote('cancelled', false)).toBe('notRunCancelled');
    expect(pendingStepNote('budget_exceeded', false)).toBe('notRunBudget');
    expect(pendingStepNote('insufficient_evidence', false)).toBe('notRunEvidence');
    expect(pendingStepNote('failed', false)).toBe('notRun');
    expect(pendingStepNote('failed', true)).toBe('blocked');
  });
});

describe('latencies side by side', () => {
  const shown = (a: number, b: number) => {
    const digits = secondsDigits(a, b, b - a);
    return [secondsFigure(a, digits), secondsFigure(b, digits), secondsFigure(b - a, digits)];
  };

  it('shows two sub-second runs and their difference in milliseconds, never "+0.0"', () => {
    expect(shown(149, 194)).toEqual(['0.149', '0.194', '0.045']);
    expect(shown(120, 120)).toEqual(['0.120', '0.120', '0']);
  });

  it('uses fewer decimals for longer runs, enough for the smallest figure', () => {
    expect(shown(12_340, 12_360)).toEqual(['12.340', '12.360', '0.020']);
    expect(shown(4_200, 7_850)).toEqual(['4.20', '7.85', '3.65']);
    expect(shown(95_000, 312_000)).toEqual(['95.0', '312.0', '217.0']);
    expect(shown(125_000, 312_000)).toEqual(['125', '312', '187']);
  });
});
