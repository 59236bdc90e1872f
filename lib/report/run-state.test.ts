import { describe, expect, it } from 'vitest';
import { isTerminal, progressOf, reduceRun, shownTotals, stateFromView, type LiveRunState, type WireMessage } from '@/lib/report/run-state';
import type { RunViewTurn } from '@/lib/report/run-view';
import type { RunEvent } from '@/lib/domain/protocol';

function turn(step: string, status: RunViewTurn['status'] = 'pending', text = ''): RunViewTurn {
  return {
    step,
    agent: step === 'AG' ? 'aggregator' : 'A1',
    team: 'affirmative',
    act: 'constructive',
    context: [],
    status,
    text,
    claims: [],
    questions: [],
    citations: [],
    output: null,
    toolCalls: [],
    startedAt: null,
    finishedAt: null,
    usage: { promptTokens: 0, completionTokens: 0, costUsd: 0 },
    error: null,
  };
}

function initial(): LiveRunState {
  return {
    runId: 'r1',
    status: 'queued',
    error: null,
    turns: [turn('D1'), turn('D2'), turn('AG')],
    evidence: {},
    tokens: { prompt: 0, completion: 0 },
    costUsd: 0,
    startedAt: null,
    finishedAt: null,
    reportReady: false,
  };
}

const output = {
  text: 'Revenue grows.',
  claims: [
    {
      id: 'D1-c1',
      text: 'Sales up',
      factor: 'industry_growth_outlook',
      polarity: 'favorable',
      citations: [{ evidenceId: 'e1', source: 'DART', date: '2024-05-01', verified: true }],
    },
  ],
  questions: [],
};
const usage = { promptTokens: 100, completionTokens: 20, costUsd: 0.5 };
const at = '2025-01-01T00:00:00.000Z';

/** The database's view of run r1 while it runs: D1 done, D2 running, AG pending. */
function runningView(tokens: { prompt: number; completion: number }, costUsd: number) {
  return {
    id: 'r1',
    status: 'running' as const,
    error: null,
    turns: [turn('D1', 'done', 'final'), turn('D2', 'running', ''), turn('AG')],
    report: null,
    metrics: { tokens: { ...tokens, total: tokens.prompt + tokens.completion }, costUsd } as never,
  };
}

/** A turn's answer so far, as a step-partial carries it: its prose and, when given, more of its output. */
function partial(stepId: string, text: string, more: Record<string, unknown> = {}, runId = 'r1'): WireMessage {
  return { type: 'step-partial', runId, stepId, text, output: { text, ...more } };
}

function play(messages: WireMessage[], from = initial()) {
  return messages.reduce(reduceRun, from);
}

describe('run state reducer', () => {
  it('shows a running turn from its latest partial answer as a finished one reads, then the validated output replaces it and usage counts once', () => {
    const claim = { id: 'D1-c1', text: 'Sal', citations: [{ evidenceId: 'e1', source: 'DA' }] };
    const s = play([
      { type: 'run-started', runId: 'r1', at, steps: [] },
      { type: 'step-started', runId: 'r1', stepId: 'D1', at, attempt: 1 },
      partial('D1', 'Reve'),
      partial('D1', 'Revenue', { claims: [claim] }),
    ]);
    expect(s.status).toBe('running');
    // The turn as far as it is written: its prose, its claims (fields still missing and all) and their citations.
    expect(s.turns[0]).toMatchObject({
      status: 'running',
      text: 'Revenue',
      output: { text: 'Revenue', claims: [claim] },
      claims: [claim],
      questions: [],
      citations: [{ evidenceId: 'e1', source: 'DA' }],
    });
    expect(progressOf(s)).toEqual({ done: 0, running: 1, failed: 0, total: 3 });

    const evidence = { e1: { id: 'e1', title: 'Q1 report', date: '2024-05-01', source: 'DART', url: 'https://dart.example' } };
    const done = play([{ type: 'step-done', runId: 'r1', stepId: 'D1', at, text: output.text, output, usage, evidence }], s);
    expect(done.turns[0]).toMatchObject({ status: 'done', text: 'Revenue grows.', usage });
    expect(done.turns[0].claims.map((c) => c.id)).toEqual(['D1-c1']);
    expect(done.turns[0].citations).toHaveLength(1);
    expect(done.evidence.e1.title).toBe('Q1 report');
    expect(done.tokens).toEqual({ prompt: 100, completion: 20, cached: 0 });
    expect(done.costUsd).toBe(0.5);

    // A resumed run announces finished steps again: nothing is counted twice, a late partial is ignored.
    const again = play(
      [
        { type: 'step-done', runId: 'r1', stepId: 'D1', at, text: output.text, output, usage: { promptTokens: 0, completionTokens: 0, costUsd: 0 } },
        partial('D1', 'x'),
      ],
      done,
    );
    expect(again.tokens).toEqual({ prompt: 100, completion: 20, cached: 0 });
    expect(again.turns[0].text).toBe('Revenue grows.');
  });

  it('shows several steps running at once, failures with their message, and the end of the run', () => {
    const s = play([
      { type: 'step-started', runId: 'r1', stepId: 'D1', at, attempt: 1 },
      { type: 'step-started', runId: 'r1', stepId: 'D2', at, attempt: 1 },
    ]);
    expect(progressOf(s).running).toBe(2);
    const failed = play(
      [
        {
          type: 'step-failed',
          runId: 'r1',
          stepId: 'D2',
          at,
          error: 'The output did not meet the step rules',
          repairs: [{ kind: 'repair-request', attempt: 1, detail: 'sent back once: D2 needs 3 questions' }],
        },
        { type: 'run-finished', runId: 'r1', at, status: 'failed' },
      ],
      s,
    );
    expect(failed.turns[1]).toMatchObject({ status: 'failed', error: 'The output did not meet the step rules' });
    // The card shows what was asked on the way to failing, live as after a reload.
    expect(failed.turns[1].repairs).toEqual([{ kind: 'repair-request', attempt: 1, detail: 'sent back once: D2 needs 3 questions' }]);
    expect(failed.status).toBe('failed');
    expect(failed.finishedAt).toBe(at);
    // A partial answer or spend that comes after the step failed leaves the card failed and the totals as they are.
    const late = play([partial('D2', 'late'), { type: 'step-usage', runId: 'r1', stepId: 'D2', usage }], failed);
    expect(late).toEqual(failed);
  });

  it('puts running steps of a cancelled run back to pending, and ignores other runs and report-ready flags the report', () => {
    const s = play([
      { type: 'step-started', runId: 'r1', stepId: 'D1', at, attempt: 1 },
      partial('D2', 'nope', {}, 'other'),
      { type: 'run-finished', runId: 'r1', at, status: 'cancelled' },
    ]);
    expect(s.turns[0]).toMatchObject({ status: 'pending', text: '' });
    expect(s.turns[1].text).toBe('');
    expect(play([{ type: 'report-ready', runId: 'r1', at }]).reportReady).toBe(true);
  });

  it('ends a run stopped at its budget: running steps back to pending, done ones kept, the reason shown', () => {
    const error = 'The run reached its token budget of 2,500 tokens: 4,000 used.';
    const s = play([
      { type: 'step-done', runId: 'r1', stepId: 'D1', at, text: 'kept', output: {}, usage: { promptTokens: 2_000, completionTokens: 2_000, costUsd: 0 } },
      { type: 'step-started', runId: 'r1', stepId: 'D2', at, attempt: 1 },
      partial('D2', 'half', { claims: [{ id: 'D2-c1' }] }),
      { type: 'run-finished', runId: 'r1', at, status: 'budget_exceeded', error },
    ]);
    expect(s).toMatchObject({ status: 'budget_exceeded', error, finishedAt: at });
    expect(s.turns.map((t) => t.status)).toEqual(['done', 'pending', 'pending']);
    expect(s.turns[0].text).toBe('kept');
    // What the stopped step had written goes with it.
    expect(s.turns[1]).toMatchObject({ text: '', output: null, claims: [] });
    expect(isTerminal(s.status)).toBe(true);
  });

  it('a snapshot replaces the state, so a reconnect cannot double anything', () => {
    const base = play([{ type: 'step-started', runId: 'r1', stepId: 'D1', at, attempt: 1 }, partial('D1', 'abc')]);
    const snapshot = { ...initial(), status: 'running' as const, turns: [turn('D1', 'running', 'abcdef'), turn('D2'), turn('AG')] };
    expect(play([{ type: 'snapshot', state: snapshot }], base).turns[0].text).toBe('abcdef');
    const s = play([{ type: 'snapshot', state: snapshot }, partial('D1', 'abcdefg')], base);
    expect(s.turns[0].text).toBe('abcdefg');
  });

  it('builds the first state from the database view, with the answers so far of steps still running', () => {
    const claim = { id: 'D2-c1', text: 'Orders up', factor: 'other' };
    const live = { events: [partial('D2', 'so far', { claims: [claim] })] as RunEvent[], seq: 7 };
    const s = stateFromView(runningView({ prompt: 5, completion: 6 }, 0.1), { startedAt: new Date(at), finishedAt: null }, live, {});
    expect(s.turns.map((t) => [t.step, t.status, t.text])).toEqual([
      ['D1', 'done', 'final'],
      ['D2', 'running', 'so far'],
      ['AG', 'pending', ''],
    ]);
    expect(s.turns[1]).toMatchObject({ output: { text: 'so far', claims: [claim] }, claims: [claim] });
    expect(s.startedAt).toBe(at);
    expect(s.tokens).toEqual({ prompt: 5, completion: 6, cached: 0 });
  });

  it('shows why a running step waits until its answer streams again, and a late viewer sees it from the snapshot', () => {
    const until = '2025-01-01T00:01:00.000Z';
    const waiting = play([
      { type: 'run-started', runId: 'r1', at, steps: [] },
      { type: 'step-started', runId: 'r1', stepId: 'D1', at, attempt: 1 },
      { type: 'step-started', runId: 'r1', stepId: 'D2', at, attempt: 1 },
      { type: 'step-waiting', runId: 'r1', stepId: 'D1', at, reason: 'requests', until },
      { type: 'step-waiting', runId: 'r1', stepId: 'D2', at, reason: 'provider-limit', until },
    ]);
    expect(waiting.waiting).toEqual({ D1: { reason: 'requests', until }, D2: { reason: 'provider-limit', until } });
    // A spend estimate does not end a wait (a sectioned step's other calls go on spending); the
    // first partial answer ends D1's wait only; a finished step never shows one.
    const spending = play([{ type: 'step-usage', runId: 'r1', stepId: 'D2', usage }], waiting);
    expect(spending.waiting).toEqual(waiting.waiting);
    const streaming = play([partial('D1', 'Rev')], spending);
    expect(streaming.waiting).toEqual({ D2: { reason: 'provider-limit', until } });
    const done = play([{ type: 'step-done', runId: 'r1', stepId: 'D1', at, text: output.text, output, usage }], streaming);
    expect(play([{ type: 'step-waiting', runId: 'r1', stepId: 'D1', at, reason: 'tokens', until }], done).waiting).toEqual({
      D2: { reason: 'provider-limit', until },
    });
    expect(play([{ type: 'run-finished', runId: 'r1', at, status: 'cancelled' }], done).waiting).toEqual({});

    const live = {
      events: [
        { type: 'step-waiting' as const, runId: 'r1', stepId: 'D1', at, reason: 'tokens' as const, until },
        { type: 'step-waiting' as const, runId: 'r1', stepId: 'D2', at, reason: 'requests' as const, until },
      ],
      seq: 7,
    };
    expect(stateFromView(runningView({ prompt: 0, completion: 0 }, 0), { startedAt: new Date(at), finishedAt: null }, live, {}).waiting).toEqual({
      D2: { reason: 'requests', until },
    });
  });

  it("counts a running step's spend so far in the totals, until its usage replaces the estimate; a wait or a new attempt drops its answer so far", () => {
    const claim = { id: 'D2-c1', text: 'Orders up' };
    const estimate = { promptTokens: 300, completionTokens: 50, costUsd: 0.25 };
    const s = play(
      [
        { type: 'step-done', runId: 'r1', stepId: 'D1', at, text: output.text, output, usage },
        { type: 'step-started', runId: 'r1', stepId: 'D2', at, attempt: 1 },
        partial('D2', 'Orders', { claims: [claim] }),
        { type: 'step-usage', runId: 'r1', stepId: 'D2', usage: estimate },
      ],
      play([{ type: 'run-started', runId: 'r1', at, steps: [] }]),
    );
    expect(s.turns[1]).toMatchObject({ status: 'running', text: 'Orders', claims: [claim] });
    expect(s.streaming).toEqual({ D2: { usage: estimate } });
    // The stored totals stay what finished steps used; what a viewer sees adds the running step's spend.
    expect(s.tokens).toEqual({ prompt: 100, completion: 20, cached: 0 });
    expect(shownTotals(s)).toEqual({ tokens: 470, costUsd: 0.75, cachedTokens: 0 });

    // A repair attempt writes anew but keeps what the attempt before it spent.
    const again = play([{ type: 'step-started', runId: 'r1', stepId: 'D2', at, attempt: 2 }], s);
    expect(again.streaming).toEqual({ D2: { usage: estimate } });
    expect(again.turns[1]).toMatchObject({ text: '', output: null, claims: [] });

    // A wait restarts the answer: its text and claims go, its spend stays.
    const waited = play([{ type: 'step-waiting', runId: 'r1', stepId: 'D2', at, reason: 'provider-error', until: at }], s);
    expect(waited.turns[1]).toMatchObject({ text: '', output: null, claims: [] });
    expect(waited.streaming).toEqual({ D2: { usage: estimate } });

    // The step's usage replaces the estimate: counted once.
    const final = { promptTokens: 320, completionTokens: 60, costUsd: 0.3 };
    const done = play(
      [{ type: 'step-done', runId: 'r1', stepId: 'D2', at, text: 'Orders grew.', output: { text: 'Orders grew.', claims: [], questions: [] }, usage: final }],
      s,
    );
    expect(done.streaming).toEqual({});
    expect(shownTotals(done)).toEqual({ tokens: 500, costUsd: 0.8, cachedTokens: 0 });
    // A partial answer or spend of another run, or of a finished step, changes nothing.
    expect(play([partial('D1', 'late'), { type: 'step-usage', runId: 'other', stepId: 'D2', usage: estimate }], done)).toEqual(done);
    expect(play([{ type: 'run-finished', runId: 'r1', at, status: 'cancelled' }], s).streaming).toEqual({});
  });

  it("gives a late viewer the running steps' spend from the bus snapshot", () => {
    const estimate = { promptTokens: 300, completionTokens: 50, costUsd: 0.25 };
    const live = { events: [partial('D2', 'so far'), { type: 'step-usage', runId: 'r1', stepId: 'D2', usage: estimate }] as RunEvent[], seq: 7 };
    const s = stateFromView(runningView({ prompt: 5, completion: 6 }, 0.1), { startedAt: new Date(at), finishedAt: null }, live, {});
    expect(s.streaming).toEqual({ D2: { usage: estimate } });
    expect(shownTotals(s).tokens).toBe(361);
  });

  it('reads a running step of two prose fields, its critique written before its assumption, from the partial as a finished turn', () => {
    const started = play([{ type: 'step-started', runId: 'r1', stepId: 'D2', at, attempt: 1 }], play([{ type: 'run-started', runId: 'r1', at, steps: [] }]));
    const writing = play(
      [
        {
          type: 'step-partial',
          runId: 'r1',
          stepId: 'D2',
          text: 'It assumes',
          output: { critique: 'It assumes', evidence: [{ source: 'DART', date: '2024-03-05' }] },
        },
      ],
      started,
    );
    expect(writing.turns[1]).toMatchObject({ status: 'running', text: 'It assumes', claims: [], citations: [{ source: 'DART', date: '2024-03-05' }] });
    const done = play(
      [
        {
          type: 'step-done',
          runId: 'r1',
          stepId: 'D2',
          at,
          text: 'Demand holds. — It assumes growth.',
          output: { assumption: 'Demand holds.', critique: 'It assumes growth.', evidence: [] },
          usage,
        },
      ],
      writing,
    );
    expect(done.turns[1]).toMatchObject({ status: 'done', text: 'Demand holds. — It assumes growth.', citations: [] });
  });

  it("adds up the prompt tokens the provider's cache served, from the saved view, finished steps and the run's saved totals", () => {
    const s = stateFromView(
      runningView({ prompt: 5_000, completion: 600, cached: 3_000 } as never, 0.01),
      { startedAt: new Date(at), finishedAt: null },
      { events: [], seq: 7 },
      {},
    );
    expect(s.tokens).toEqual({ prompt: 5_000, completion: 600, cached: 3_000 });
    const d2 = play(
      [
        {
          type: 'step-done',
          runId: 'r1',
          stepId: 'D2',
          at,
          text: 'x',
          output: { text: 'x', claims: [], questions: [] },
          usage: { promptTokens: 2_000, completionTokens: 100, costUsd: 0.004, cachedTokens: 1_500 },
        },
      ],
      s,
    );
    expect(d2.tokens).toEqual({ prompt: 7_000, completion: 700, cached: 4_500 });
    expect(shownTotals(d2).cachedTokens).toBe(4_500);
    expect(d2.turns[1].usage).toEqual({ promptTokens: 2_000, completionTokens: 100, costUsd: 0.004, cachedTokens: 1_500 });
    // The run's totals as saved replace what the viewer added up.
    const end = play(
      [
        {
          type: 'run-finished',
          runId: 'r1',
          at,
          status: 'succeeded',
          totals: { promptTokens: 9_000, completionTokens: 900, costUsd: 0.02, cachedTokens: 6_000 },
        },
      ],
      d2,
    );
    expect(end.tokens).toEqual({ prompt: 9_000, completion: 900, cached: 6_000 });
  });
});
