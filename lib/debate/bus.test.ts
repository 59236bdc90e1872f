import { afterEach, describe, expect, it, vi } from 'vitest';
import { RETAIN_FINISHED_MS, RunBus, runBus } from '@/lib/debate/bus';
import type { RunEvent } from '@/lib/domain/protocol';

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
    expect(bus.snapshot(runId)).toEqual({ steps: { D1: { status: 'running', text: 'second try' } }, finished: false, version: expect.any(Number) });

    bus.publish({ type: 'run-finished', runId, at, status: 'succeeded' });
    vi.advanceTimersByTime(RETAIN_FINISHED_MS + 1);
    expect(bus.snapshot(runId)).toEqual({ steps: {}, finished: false, version: expect.any(Number) });
  });

  it("keeps a step's wait in the snapshot for late viewers until its next token", () => {
    const bus = new RunBus();
    const runId = 'wait-test';
    const until = '2026-01-01T00:01:00.000Z';
    bus.publish({ type: 'run-started', runId, at, steps });
    bus.publish({ type: 'step-started', runId, stepId: 'D1', at, attempt: 1 });
    bus.publish({ type: 'step-waiting', runId, stepId: 'D1', at, reason: 'tokens', until });
    expect(bus.snapshot(runId).steps.D1).toEqual({ status: 'running', text: '', waiting: { reason: 'tokens', until } });
    bus.publish({ type: 'token', runId, stepId: 'D1', text: 'go' });
    expect(bus.snapshot(runId).steps.D1).toEqual({ status: 'running', text: 'go' });
  });

  it('keeps the latest draft for late viewers until the part it grows into, through a part of another kind, and ends a wait with the first', () => {
    const bus = new RunBus();
    const runId = 'draft-test';
    const until = '2026-01-01T00:01:00.000Z';
    const seen: RunEvent[] = [];
    bus.subscribe(runId, (e) => seen.push(e));
    bus.publish({ type: 'run-started', runId, at, steps });
    bus.publish({ type: 'step-started', runId, stepId: 'D1', at, attempt: 1 });
    bus.publish({ type: 'step-waiting', runId, stepId: 'D1', at, reason: 'provider-limit', until });
    const draft = (text: string) => ({ type: 'step-part-draft' as const, runId, stepId: 'D1', draft: { kind: 'claim' as const, index: 0, text } });
    bus.publish(draft('태영건설은'));
    expect(seen.at(-1)).toEqual(draft('태영건설은'));
    expect(bus.snapshot(runId).steps.D1).toEqual({ status: 'running', text: '', draft: { kind: 'claim', index: 0, text: '태영건설은' } });
    bus.publish(draft('태영건설은 워크아웃'));
    // The claim's citation completes inside it: the claim's draft stays.
    const citation = { kind: 'citation' as const, value: { evidenceId: 'ty-1', source: 'DART', date: '2024-01-11' } };
    bus.publish({ type: 'step-part', runId, stepId: 'D1', part: citation });
    expect(bus.snapshot(runId).steps.D1).toEqual({ status: 'running', text: '', parts: [citation], draft: { kind: 'claim', index: 0, text: '태영건설은 워크아웃' } });
    const claim = { kind: 'claim' as const, value: { id: 'D1-c1', factor: 'internal_control_risk', polarity: 'adverse', text: '태영건설은 워크아웃을 신청했다.' } };
    bus.publish({ type: 'step-part', runId, stepId: 'D1', part: claim });
    expect(bus.snapshot(runId).steps.D1).toEqual({ status: 'running', text: '', parts: [citation, claim] });
    // A wait starts the answer over: no draft survives it.
    bus.publish(draft('다시'));
    bus.publish({ type: 'step-waiting', runId, stepId: 'D1', at, reason: 'provider-limit', until });
    expect(bus.snapshot(runId).steps.D1).not.toHaveProperty('draft');
  });

  it("keeps a running step's fields as last written for late viewers, drops one taken back, and drops them all with a wait or the step's end", () => {
    const bus = new RunBus();
    const runId = 'fields-test';
    const field = (name: 'objective' | 'favorableSummary', index: number, text: string) => ({ type: 'step-field' as const, runId, stepId: 'D1', field: { name, index, text } });
    bus.publish({ type: 'run-started', runId, at, steps });
    bus.publish({ type: 'step-started', runId, stepId: 'D1', at, attempt: 1 });
    bus.publish(field('objective', 0, '삼성전자의'));
    bus.publish(field('favorableSummary', 0, 'Orders grew.'));
    const first = bus.snapshot(runId);
    bus.publish(field('objective', 0, '삼성전자의 상환 능력'));
    expect(bus.snapshot(runId).steps.D1).toEqual({
      status: 'running',
      text: '',
      fields: [
        { name: 'objective', index: 0, text: '삼성전자의 상환 능력' },
        { name: 'favorableSummary', index: 0, text: 'Orders grew.' },
      ],
    });
    // A snapshot handed out is not changed by what comes after it.
    expect(first.steps.D1.fields![0].text).toBe('삼성전자의');
    bus.publish(field('favorableSummary', 0, ''));
    expect(bus.snapshot(runId).steps.D1.fields).toEqual([{ name: 'objective', index: 0, text: '삼성전자의 상환 능력' }]);
    bus.publish({ type: 'step-waiting', runId, stepId: 'D1', at, reason: 'provider-error', until: at });
    expect(bus.snapshot(runId).steps.D1.fields).toBeUndefined();
    bus.publish(field('objective', 0, '삼성'));
    expect(bus.snapshot(runId).steps.D1.waiting).toBeUndefined();
    bus.publish({ type: 'step-done', runId, stepId: 'D1', at, text: 'Overview.', output: {}, usage: { promptTokens: 1, completionTokens: 1, costUsd: 0 } });
    expect(bus.snapshot(runId).steps.D1).toEqual({ status: 'done', text: 'Overview.' });
  });

  it("keeps a running step's parts and spend for late viewers; a wait restarts its answer, a new attempt keeps its spend", () => {
    const bus = new RunBus();
    const runId = 'parts-test';
    const claim = { kind: 'claim' as const, value: { id: 'D1-c1', text: 'Orders up' } };
    const usage = { promptTokens: 400, completionTokens: 40, costUsd: 0.001 };
    bus.publish({ type: 'run-started', runId, at, steps });
    bus.publish({ type: 'step-started', runId, stepId: 'D1', at, attempt: 1 });
    bus.publish({ type: 'token', runId, stepId: 'D1', text: 'Orders' });
    bus.publish({ type: 'step-part', runId, stepId: 'D1', part: claim });
    bus.publish({ type: 'step-usage', runId, stepId: 'D1', usage });
    const first = bus.snapshot(runId);
    expect(first.steps.D1).toEqual({ status: 'running', text: 'Orders', parts: [claim], usage });
    // A snapshot handed out is not changed by what comes after it.
    bus.publish({ type: 'step-part', runId, stepId: 'D1', part: { kind: 'question', value: { id: 'D1-q1' } } });
    expect(first.steps.D1.parts).toEqual([claim]);
    expect(bus.snapshot(runId).steps.D1.parts).toHaveLength(2);

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
    bus.receive({ type: 'token', runId: 'r', stepId: 'D1', text: '원격' });
    unhook();
    bus.publish({ type: 'run-finished', runId: 'r', at, status: 'succeeded' });
    expect(seen).toEqual([
      'hook run-started',
      'viewer run-started',
      'hook report-ready',
      'viewer report-ready',
      'viewer step-started',
      'viewer token',
      'viewer run-finished',
    ]);
    // Received events change the state like local ones.
    expect(bus.snapshot('r').steps.D1).toEqual({ status: 'running', text: '원격' });
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
    bus.publish({ type: 'token', runId: 'a', stepId: 'D1', text: 'partial' });
    bus.restore('a', { D1: { status: 'running', text: 'the whole text so far' } });
    bus.publish({ type: 'token', runId: 'a', stepId: 'D1', text: '!' });
    expect(bus.snapshot('a')).toEqual({ steps: { D1: { status: 'running', text: 'the whole text so far!' } }, finished: false, version: expect.any(Number) });
    expect(events).toHaveLength(3);
  });
});
