import { afterEach, describe, expect, it, vi } from 'vitest';
import { RETAIN_FINISHED_MS, RunBus, runBus } from '@/lib/debate/bus';
import type { RunEvent } from '@/lib/domain/protocol';

const at = '2026-01-01T00:00:00.000Z';
const steps = [{ id: 'D1', agent: 'A1', team: 'affirmative' as const, act: 'constructive' as const, context: [] }];
/** A step's answer so far: a turn's prose and, when given, its claims. */
const partial = (runId: string, text: string, claims?: unknown[]) => ({ type: 'step-partial' as const, runId, stepId: 'D1', text, output: { text, ...(claims ? { claims } : {}) } });

describe('run bus', () => {
  afterEach(() => vi.useRealTimers());

  it('drops a finished run\'s state after a while, but not the state of a retry that started meanwhile', () => {
    vi.useFakeTimers();
    const bus = runBus();
    const runId = `bus-test-${Math.random()}`;
    bus.publish({ type: 'run-started', runId, at, steps });
    bus.publish({ type: 'step-started', runId, stepId: 'D1', at, attempt: 1 });
    bus.publish(partial(runId, 'first '));
    bus.publish({ type: 'step-failed', runId, stepId: 'D1', at, error: 'boom' });
    bus.publish({ type: 'run-finished', runId, at, status: 'failed' });

    // Retried before the finished state expires: the new execution streams.
    vi.advanceTimersByTime(RETAIN_FINISHED_MS / 2);
    bus.publish({ type: 'run-started', runId, at, steps });
    bus.publish({ type: 'step-started', runId, stepId: 'D1', at, attempt: 2 });
    bus.publish(partial(runId, 'second try'));
    vi.advanceTimersByTime(RETAIN_FINISHED_MS);
    // A late viewer still gets the retry's answer so far.
    expect(bus.snapshot(runId)).toEqual({ steps: { D1: { status: 'running', text: 'second try', output: { text: 'second try' } } }, finished: false, version: expect.any(Number) });

    bus.publish({ type: 'run-finished', runId, at, status: 'succeeded' });
    vi.advanceTimersByTime(RETAIN_FINISHED_MS + 1);
    expect(bus.snapshot(runId)).toEqual({ steps: {}, finished: false, version: expect.any(Number) });
  });

  it("keeps a step's wait in the snapshot for late viewers until its answer streams again", () => {
    const bus = new RunBus();
    const runId = 'wait-test';
    const until = '2026-01-01T00:01:00.000Z';
    bus.publish({ type: 'run-started', runId, at, steps });
    bus.publish({ type: 'step-started', runId, stepId: 'D1', at, attempt: 1 });
    bus.publish({ type: 'step-waiting', runId, stepId: 'D1', at, reason: 'tokens', until });
    expect(bus.snapshot(runId).steps.D1).toEqual({ status: 'running', text: '', waiting: { reason: 'tokens', until } });
    bus.publish(partial(runId, 'go'));
    expect(bus.snapshot(runId).steps.D1).toEqual({ status: 'running', text: 'go', output: { text: 'go' } });
  });

  it("keeps a running step's latest partial answer and spend for late viewers; a wait restarts its answer, a new attempt keeps its spend", () => {
    const bus = new RunBus();
    const runId = 'parts-test';
    const claim = { id: 'D1-c1', text: 'Orders up' };
    const usage = { promptTokens: 400, completionTokens: 40, costUsd: 0.001 };
    bus.publish({ type: 'run-started', runId, at, steps });
    bus.publish({ type: 'step-started', runId, stepId: 'D1', at, attempt: 1 });
    bus.publish(partial(runId, 'Ord', [claim]));
    bus.publish({ type: 'step-usage', runId, stepId: 'D1', usage });
    const first = bus.snapshot(runId);
    expect(first.steps.D1).toEqual({ status: 'running', text: 'Ord', output: { text: 'Ord', claims: [claim] }, usage });
    // Each partial replaces the one before; a snapshot handed out is not changed by what comes after it.
    bus.publish(partial(runId, 'Orders grew', [claim, { id: 'D1-c2' }]));
    expect(first.steps.D1.output).toEqual({ text: 'Ord', claims: [claim] });
    expect(bus.snapshot(runId).steps.D1).toEqual({ status: 'running', text: 'Orders grew', output: { text: 'Orders grew', claims: [claim, { id: 'D1-c2' }] }, usage });

    // The provider waits and starts its answer again: what it had streamed goes, its spend stays.
    bus.publish({ type: 'step-waiting', runId, stepId: 'D1', at, reason: 'provider-error', until: at });
    expect(bus.snapshot(runId).steps.D1).toEqual({ status: 'running', text: '', waiting: { reason: 'provider-error', until: at }, usage });
    bus.publish({ type: 'step-started', runId, stepId: 'D1', at, attempt: 2 });
    expect(bus.snapshot(runId).steps.D1).toEqual({ status: 'running', text: '', usage });
    bus.publish({ type: 'step-done', runId, stepId: 'D1', at, text: 'Orders grew.', output: {}, usage });
    expect(bus.snapshot(runId).steps.D1).toEqual({ status: 'done', text: 'Orders grew.' });
    // A new execution meters afresh.
    bus.publish({ type: 'step-usage', runId, stepId: 'D1', usage });
    bus.publish({ type: 'run-started', runId, at, steps });
    expect(bus.snapshot(runId).steps.D1.usage).toBeUndefined();
  });

  it('shows local publishes to its hooks, before subscribers, but not events received from elsewhere', () => {
    const bus = new RunBus();
    const seen: string[] = [];
    const unhook = bus.onLocalPublish((e) => seen.push(`hook ${e.type}`));
    bus.subscribe('r', (e) => {
      seen.push(`viewer ${e.type}`);
      // A subscriber that publishes in turn: its event must reach the hook after the first one.
      if (e.type === 'run-started') bus.publish({ type: 'report-ready', runId: 'r', at });
    });
    bus.publish({ type: 'run-started', runId: 'r', at, steps });
    bus.receive({ type: 'step-started', runId: 'r', stepId: 'D1', at, attempt: 1 });
    bus.receive(partial('r', '원격'));
    unhook();
    bus.publish({ type: 'run-finished', runId: 'r', at, status: 'succeeded' });
    expect(seen).toEqual([
      'hook run-started',
      'viewer run-started',
      'hook report-ready',
      'viewer report-ready',
      'viewer step-started',
      'viewer step-partial',
      'viewer run-finished',
    ]);
    // Received events change the state like local ones.
    expect(bus.snapshot('r').steps.D1).toEqual({ status: 'running', text: '원격', output: { text: '원격' } });
  });

  it('tells subscribers of the named runs (or of all runs) to resync, and restores a run\'s state', () => {
    const bus = new RunBus();
    const resyncs: string[] = [];
    const events: RunEvent[] = [];
    bus.subscribe('a', (e) => events.push(e), { onResync: () => resyncs.push('a') });
    bus.subscribe('b', () => {}, { onResync: () => resyncs.push('b') });
    bus.subscribe('c', () => {});
    bus.resync(['a']);
    expect(resyncs).toEqual(['a']);
    bus.resync();
    expect(resyncs).toEqual(['a', 'a', 'b']);

    bus.publish({ type: 'run-started', runId: 'a', at, steps });
    bus.publish(partial('a', 'partial'));
    bus.restore('a', { D1: { status: 'running', text: 'the whole text so far', output: { text: 'the whole text so far' } } });
    expect(bus.snapshot('a')).toEqual({ steps: { D1: { status: 'running', text: 'the whole text so far', output: { text: 'the whole text so far' } } }, finished: false, version: expect.any(Number) });
    bus.publish(partial('a', 'the whole text so far!'));
    expect(bus.snapshot('a').steps.D1.text).toBe('the whole text so far!');
    expect(events).toHaveLength(3);
  });
});
