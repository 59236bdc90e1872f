import { afterEach, describe, expect, it, vi } from 'vitest';
import { RETAIN_FINISHED_MS, runBus } from '@/lib/debate/bus';

const at = '2026-01-01T00:00:00.000Z';
const steps = [{ id: 'D1', agent: 'A1', team: 'affirmative' as const, act: 'constructive' as const, context: [] }];

describe('run bus', () => {
  afterEach(() => vi.useRealTimers());

  it('drops a finished run\'s state after a while, but not the state of a retry that started meanwhile', () => {
    vi.useFakeTimers();
    const bus = runBus();
    const runId = `bus-test-${Math.random()}`;
    bus.publish({ type: 'run-started', runId, at, steps });
    bus.publish({ type: 'step-started', runId, stepId: 'D1', at, attempt: 1 });
    bus.publish({ type: 'token', runId, stepId: 'D1', text: 'first ' });
    bus.publish({ type: 'step-failed', runId, stepId: 'D1', at, error: 'boom' });
    bus.publish({ type: 'run-finished', runId, at, status: 'failed' });

    // Retried before the finished state expires: the new execution streams.
    vi.advanceTimersByTime(RETAIN_FINISHED_MS / 2);
    bus.publish({ type: 'run-started', runId, at, steps });
    bus.publish({ type: 'step-started', runId, stepId: 'D1', at, attempt: 2 });
    bus.publish({ type: 'token', runId, stepId: 'D1', text: 'second try' });
    vi.advanceTimersByTime(RETAIN_FINISHED_MS);
    // A late viewer still gets the retry's text so far.
    expect(bus.snapshot(runId)).toEqual({ steps: { D1: { status: 'running', text: 'second try' } }, finished: false });

    bus.publish({ type: 'run-finished', runId, at, status: 'succeeded' });
    vi.advanceTimersByTime(RETAIN_FINISHED_MS + 1);
    expect(bus.snapshot(runId)).toEqual({ steps: {}, finished: false });
  });
});
