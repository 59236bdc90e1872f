import { describe, expect, it } from 'vitest';
import { isTerminal, progressOf, reduceRun, shownTotals, stateFromView, type LiveRunState, type WireMessage } from '@/lib/report/run-state';
import type { RunViewTurn } from '@/lib/report/run-view';

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
  claims: [{ id: 'D1-c1', text: 'Sales up', factor: 'industry_growth_outlook', polarity: 'favorable', citations: [{ evidenceId: 'e1', source: 'DART', date: '2024-05-01', verified: true }] }],
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

function play(messages: WireMessage[], from = initial()) {
  return messages.reduce(reduceRun, from);
}

describe('run state reducer', () => {
  it('streams tokens into a running turn, then replaces them with the validated output and counts usage once', () => {
    const s = play([
      { type: 'run-started', runId: 'r1', at, steps: [] },
      { type: 'step-started', runId: 'r1', stepId: 'D1', at, attempt: 1 },
      { type: 'token', runId: 'r1', stepId: 'D1', text: 'Reve' },
      { type: 'token', runId: 'r1', stepId: 'D1', text: 'nue' },
    ]);
    expect(s.status).toBe('running');
    expect(s.turns[0]).toMatchObject({ status: 'running', text: 'Revenue' });
    expect(progressOf(s)).toEqual({ done: 0, running: 1, failed: 0, total: 3 });

    const evidence = { e1: { id: 'e1', title: 'Q1 report', date: '2024-05-01', source: 'DART', url: 'https://dart.example' } };
    const done = play([{ type: 'step-done', runId: 'r1', stepId: 'D1', at, text: output.text, output, usage, evidence }], s);
    expect(done.turns[0]).toMatchObject({ status: 'done', text: 'Revenue grows.', usage });
    expect(done.turns[0].claims.map((c) => c.id)).toEqual(['D1-c1']);
    expect(done.turns[0].citations).toHaveLength(1);
    expect(done.evidence.e1.title).toBe('Q1 report');
    expect(done.tokens).toEqual({ prompt: 100, completion: 20, cached: 0 });
    expect(done.costUsd).toBe(0.5);

    // A resumed run announces finished steps again: nothing is counted twice, late tokens are ignored.
    const again = play(
      [
        { type: 'step-done', runId: 'r1', stepId: 'D1', at, text: output.text, output, usage: { promptTokens: 0, completionTokens: 0, costUsd: 0 } },
        { type: 'token', runId: 'r1', stepId: 'D1', text: 'x' },
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
        { type: 'step-failed', runId: 'r1', stepId: 'D2', at, error: 'The output did not meet the step rules', repairs: [{ kind: 'repair-request', attempt: 1, detail: 'sent back once: D2 needs 3 questions' }] },
        { type: 'run-finished', runId: 'r1', at, status: 'failed' },
      ],
      s,
    );
    expect(failed.turns[1]).toMatchObject({ status: 'failed', error: 'The output did not meet the step rules' });
    // The card shows what was asked on the way to failing, live as after a reload.
    expect(failed.turns[1].repairs).toEqual([{ kind: 'repair-request', attempt: 1, detail: 'sent back once: D2 needs 3 questions' }]);
    expect(failed.status).toBe('failed');
    expect(failed.finishedAt).toBe(at);
  });

  it('puts running steps of a cancelled run back to pending, and ignores other runs and report-ready flags the report', () => {
    const s = play([
      { type: 'step-started', runId: 'r1', stepId: 'D1', at, attempt: 1 },
      { type: 'token', runId: 'other', stepId: 'D2', text: 'nope' },
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
      { type: 'token', runId: 'r1', stepId: 'D2', text: 'half' },
      { type: 'run-finished', runId: 'r1', at, status: 'budget_exceeded', error },
    ]);
    expect(s).toMatchObject({ status: 'budget_exceeded', error, finishedAt: at });
    expect(s.turns.map((t) => t.status)).toEqual(['done', 'pending', 'pending']);
    expect(s.turns[0].text).toBe('kept');
    expect(isTerminal(s.status)).toBe(true);
  });

  it('a snapshot replaces the state, so a reconnect cannot double anything', () => {
    const base = play([{ type: 'step-started', runId: 'r1', stepId: 'D1', at, attempt: 1 }, { type: 'token', runId: 'r1', stepId: 'D1', text: 'abc' }]);
    const snapshot = { ...initial(), status: 'running' as const, turns: [turn('D1', 'running', 'abcdef'), turn('D2'), turn('AG')] };
    const s = play([{ type: 'snapshot', state: snapshot }, { type: 'token', runId: 'r1', stepId: 'D1', text: 'g' }], base);
    expect(s.turns[0].text).toBe('abcdefg');
  });

  it('builds the first state from the database view, with the streamed text of steps still running', () => {
    const s = stateFromView(runningView({ prompt: 5, completion: 6 }, 0.1), { startedAt: new Date(at), finishedAt: null }, { steps: { D1: { status: 'done', text: 'final' }, D2: { status: 'running', text: 'so far' } }, finished: false }, {});
    expect(s.turns.map((t) => [t.step, t.status, t.text])).toEqual([
      ['D1', 'done', 'final'],
      ['D2', 'running', 'so far'],
      ['AG', 'pending', ''],
    ]);
    expect(s.startedAt).toBe(at);
    expect(s.tokens).toEqual({ prompt: 5, completion: 6, cached: 0 });
  });

  it('shows why a running step waits until its next token, and a late viewer sees it from the snapshot', () => {
    const until = '2025-01-01T00:01:00.000Z';
    const waiting = play([
      { type: 'run-started', runId: 'r1', at, steps: [] },
      { type: 'step-started', runId: 'r1', stepId: 'D1', at, attempt: 1 },
      { type: 'step-started', runId: 'r1', stepId: 'D2', at, attempt: 1 },
      { type: 'step-waiting', runId: 'r1', stepId: 'D1', at, reason: 'requests', until },
      { type: 'step-waiting', runId: 'r1', stepId: 'D2', at, reason: 'provider-limit', until },
    ]);
    expect(waiting.waiting).toEqual({ D1: { reason: 'requests', until }, D2: { reason: 'provider-limit', until } });
    // The first token ends D1's wait only; a finished step never shows one.
    const streaming = play([{ type: 'token', runId: 'r1', stepId: 'D1', text: 'Rev' }], waiting);
    expect(streaming.waiting).toEqual({ D2: { reason: 'provider-limit', until } });
    const done = play([{ type: 'step-done', runId: 'r1', stepId: 'D1', at, text: output.text, output, usage }], streaming);
    expect(play([{ type: 'step-waiting', runId: 'r1', stepId: 'D1', at, reason: 'tokens', until }], done).waiting).toEqual({ D2: { reason: 'provider-limit', until } });
    expect(play([{ type: 'run-finished', runId: 'r1', at, status: 'cancelled' }], done).waiting).toEqual({});

    const live = {
      steps: { D1: { status: 'done' as const, text: 'final', waiting: { reason: 'tokens' as const, until } }, D2: { status: 'running' as const, text: '', waiting: { reason: 'requests' as const, until } } },
      finished: false,
    };
    expect(stateFromView(runningView({ prompt: 0, completion: 0 }, 0), { startedAt: new Date(at), finishedAt: null }, live, {}).waiting).toEqual({ D2: { reason: 'requests', until } });
  });

  it('lists the parts of a running step as they complete and counts its spend so far in the totals, until its usage replaces the estimate', () => {
    const claim = { kind: 'claim' as const, value: { id: 'D2-c1', text: 'Orders up' } };
    const estimate = { promptTokens: 300, completionTokens: 50, costUsd: 0.25 };
    const s = play(
      [
        { type: 'step-done', runId: 'r1', stepId: 'D1', at, text: output.text, output, usage },
        { type: 'step-started', runId: 'r1', stepId: 'D2', at, attempt: 1 },
        { type: 'token', runId: 'r1', stepId: 'D2', text: 'Orders' },
        { type: 'step-part', runId: 'r1', stepId: 'D2', part: claim },
        { type: 'step-usage', runId: 'r1', stepId: 'D2', usage: estimate },
      ],
      play([{ type: 'run-started', runId: 'r1', at, steps: [] }]),
    );
    expect(s.turns[1]).toMatchObject({ status: 'running', text: 'Orders' });
    expect(s.streaming).toEqual({ D2: { parts: [claim], usage: estimate } });
    // The stored totals stay what finished steps used; what a viewer sees adds the running step's spend.
    expect(s.tokens).toEqual({ prompt: 100, completion: 20, cached: 0 });
    expect(shownTotals(s)).toEqual({ tokens: 470, costUsd: 0.75, cachedTokens: 0 });

    // A repair attempt writes anew but keeps what the attempt before it spent.
    const again = play([{ type: 'step-started', runId: 'r1', stepId: 'D2', at, attempt: 2 }], s);
    expect(again.streaming).toEqual({ D2: { parts: [], usage: estimate } });
    expect(again.turns[1].text).toBe('');

    // A wait restarts the answer: its text and parts go, its spend stays.
    const waited = play([{ type: 'step-waiting', runId: 'r1', stepId: 'D2', at, reason: 'provider-error', until: at }], s);
    expect(waited.turns[1].text).toBe('');
    expect(waited.streaming).toEqual({ D2: { parts: [], usage: estimate } });

    // The step's usage replaces the estimate: counted once.
    const final = { promptTokens: 320, completionTokens: 60, costUsd: 0.3 };
    const done = play([{ type: 'step-done', runId: 'r1', stepId: 'D2', at, text: 'Orders grew.', output: { text: 'Orders grew.', claims: [], questions: [] }, usage: final }], s);
    expect(done.streaming).toEqual({});
    expect(shownTotals(done)).toEqual({ tokens: 500, costUsd: 0.8, cachedTokens: 0 });
    // Parts and spend of another run, or of a finished step, change nothing.
    expect(play([{ type: 'step-part', runId: 'r1', stepId: 'D1', part: claim }, { type: 'step-usage', runId: 'other', stepId: 'D2', usage: estimate }], done)).toEqual(done);
    expect(play([{ type: 'run-finished', runId: 'r1', at, status: 'cancelled' }], s).streaming).toEqual({});
  });

  it('gives a late viewer the running steps\' parts and spend from the bus snapshot', () => {
    const claim = { kind: 'claim' as const, value: { id: 'D2-c1', text: 'Orders up' } };
    const estimate = { promptTokens: 300, completionTokens: 50, costUsd: 0.25 };
    const live = { steps: { D1: { status: 'done' as const, text: 'final' }, D2: { status: 'running' as const, text: 'so far', parts: [claim], usage: estimate } }, finished: false };
    const s = stateFromView(runningView({ prompt: 5, completion: 6 }, 0.1), { startedAt: new Date(at), finishedAt: null }, live, {});
    expect(s.streaming).toEqual({ D2: { parts: [claim], usage: estimate } });
    expect(shownTotals(s).tokens).toBe(361);
  });
  it('grows the claim being written in place, then the finished claim replaces it; a question or citation meanwhile leaves it be', () => {
    // DH오토넥스's rehabilitation filing, as a model writing its claims before its prose would put it.
    const full = 'DH오토넥스는 2024-03-05 서울회생법원에 회생절차 개시를 신청했다.';
    const draft = (text: string, index = 0) => ({ type: 'step-part-draft' as const, runId: 'r1', stepId: 'D2', draft: { kind: 'claim' as const, index, text } });
    const started = play([{ type: 'step-started', runId: 'r1', stepId: 'D2', at, attempt: 1 }], play([{ type: 'run-started', runId: 'r1', at, steps: [] }]));
    const growing = play([draft(full.slice(0, 10)), draft(full.slice(0, 30))], started);
    expect(growing.streaming).toEqual({ D2: { parts: [], draft: { kind: 'claim', index: 0, text: full.slice(0, 30) } } });
    // Nothing of it is the turn's prose.
    expect(growing.turns[1].text).toBe('');

    const citation = { kind: 'citation' as const, value: { source: 'DART', date: '2024-03-05' } };
    const cited = play([draft(full), { type: 'step-part', runId: 'r1', stepId: 'D2', part: citation }], growing);
    expect(cited.streaming!.D2).toEqual({ parts: [citation], draft: { kind: 'claim', index: 0, text: full } });

    const claim = { kind: 'claim' as const, value: { id: 'D2-c1', text: full, citations: [citation.value] } };
    const replaced = play([{ type: 'step-part', runId: 'r1', stepId: 'D2', part: claim }], cited);
    expect(replaced.streaming!.D2).toEqual({ parts: [citation, claim] });

    // The next claim's draft; a wait or another attempt drops it with the parts, and a finished step ends it.
    const next = play([draft('자본잠식', 1)], replaced);
    expect(next.streaming!.D2.draft).toEqual({ kind: 'claim', index: 1, text: '자본잠식' });
    expect(play([{ type: 'step-waiting', runId: 'r1', stepId: 'D2', at, reason: 'provider-error', until: at }], next).streaming).toEqual({});
    expect(play([{ type: 'step-started', runId: 'r1', stepId: 'D2', at, attempt: 2 }], next).streaming).toEqual({});
    const done = play([{ type: 'step-done', runId: 'r1', stepId: 'D2', at, text: 'Filed.', output: { text: 'Filed.', claims: [], questions: [] }, usage }], next);
    expect(done.streaming).toEqual({});
    // A draft of a finished step, or of another run, changes nothing.
    expect(play([draft('late'), { ...draft('x'), runId: 'other' }], done)).toEqual(done);
  });

  it('shows the fields being written in the order they came, each grown in place, one taken back gone, and none once the step is done', () => {
    const field = (name: 'critique' | 'assumption' | 'objective', text: string, stepId = 'D2') => ({ type: 'step-field' as const, runId: 'r1', stepId, field: { name, index: 0, text } });
    const started = play([{ type: 'step-started', runId: 'r1', stepId: 'D2', at, attempt: 1 }], play([{ type: 'run-started', runId: 'r1', at, steps: [] }]));
    const growing = play([field('critique', 'It assumes'), field('objective', 'Why'), field('critique', 'It assumes growth.')], started);
    expect(growing.streaming!.D2.fields).toEqual([
      { name: 'critique', index: 0, text: 'It assumes growth.' },
      { name: 'objective', index: 0, text: 'Why' },
    ]);
    // Nothing of it is the turn's prose; the prose, when it comes, takes the critique back.
    expect(growing.turns[1].text).toBe('');
    const prose = play([{ type: 'token', runId: 'r1', stepId: 'D2', text: 'Demand holds. — It assumes growth.' }, field('critique', '')], growing);
    expect(prose.turns[1].text).toBe('Demand holds. — It assumes growth.');
    expect(prose.streaming!.D2.fields).toEqual([{ name: 'objective', index: 0, text: 'Why' }]);
    const done = play([{ type: 'step-done', runId: 'r1', stepId: 'D2', at, text: 'Demand holds. — It assumes growth.', output: { assumption: 'Demand holds.', critique: 'It assumes growth.' }, usage }], prose);
    expect(done.streaming).toEqual({});
    expect(play([field('objective', 'late')], done)).toEqual(done);
    // A late viewer gets the fields from the snapshot.
    const live = { steps: { D1: { status: 'done' as const, text: 'final' }, D2: { status: 'running' as const, text: '', fields: [{ name: 'objective' as const, index: 0, text: 'Why' }] } }, finished: false };
    expect(stateFromView(runningView({ prompt: 5, completion: 6 }, 0.1), { startedAt: new Date(at), finishedAt: null }, live, {}).streaming).toEqual({ D2: { parts: [], fields: [{ name: 'objective', index: 0, text: 'Why' }] } });
    // And the part being drafted, with the parts before it.
    const claim = { kind: 'claim' as const, value: { id: 'D2-c1', text: 'Orders grew.' } };
    const drafting = { ...live, steps: { ...live.steps, D2: { status: 'running' as const, text: '', parts: [claim], draft: { kind: 'claim' as const, index: 1, text: 'Margins' } } } };
    expect(stateFromView(runningView({ prompt: 5, completion: 6 }, 0.1), { startedAt: new Date(at), finishedAt: null }, drafting, {}).streaming).toEqual({ D2: { parts: [claim], draft: { kind: 'claim', index: 1, text: 'Margins' } } });
  });

  it('ends a wait notice with the first draft, as with the first token', () => {
    const until = '2025-01-01T00:00:30.000Z';
    const waiting = play([{ type: 'step-started', runId: 'r1', stepId: 'D2', at, attempt: 1 }, { type: 'step-waiting', runId: 'r1', stepId: 'D2', at, reason: 'provider-limit', until }]);
    expect(waiting.waiting).toEqual({ D2: { reason: 'provider-limit', until } });
    const writing = play([{ type: 'step-part-draft', runId: 'r1', stepId: 'D2', draft: { kind: 'question', index: 0, text: '근거는' } }], waiting);
    expect(writing.waiting).toEqual({});
    expect(writing.streaming!.D2.draft).toEqual({ kind: 'question', index: 0, text: '근거는' });
  });

  it("adds up the prompt tokens the provider's cache served, from the saved view, finished steps and the run's saved totals", () => {
    const s = stateFromView(runningView({ prompt: 5_000, completion: 600, cached: 3_000 } as never, 0.01), { startedAt: new Date(at), finishedAt: null }, { steps: {}, finished: false }, {});
    expect(s.tokens).toEqual({ prompt: 5_000, completion: 600, cached: 3_000 });
    const d2 = play([{ type: 'step-done', runId: 'r1', stepId: 'D2', at, text: 'x', output: { text: 'x', claims: [], questions: [] }, usage: { promptTokens: 2_000, completionTokens: 100, costUsd: 0.004, cachedTokens: 1_500 } }], s);
    expect(d2.tokens).toEqual({ prompt: 7_000, completion: 700, cached: 4_500 });
    expect(shownTotals(d2).cachedTokens).toBe(4_500);
    expect(d2.turns[1].usage).toEqual({ promptTokens: 2_000, completionTokens: 100, costUsd: 0.004, cachedTokens: 1_500 });
    // The run's totals as saved replace what the viewer added up.
    const end = play([{ type: 'run-finished', runId: 'r1', at, status: 'succeeded', totals: { promptTokens: 9_000, completionTokens: 900, costUsd: 0.02, cachedTokens: 6_000 } }], d2);
    expect(end.tokens).toEqual({ prompt: 9_000, completion: 900, cached: 6_000 });
  });
});
