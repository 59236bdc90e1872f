// A running step is drawn by the card that draws a finished one (components/run/transcript.tsx),
// from its latest partial answer: what is written so far shows as the finished turn would show
// it, and what is not written yet (a claim's id, factor or citations) is left out, not broken.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { Transcript } from '@/components/run/transcript';
import { reduceRun, type LiveRunState, type WireMessage } from '@/lib/report/run-state';
import type { RunViewTurn } from '@/lib/report/run-doc';

// The turn cards' comment threads post through server actions (next-auth), which need the Next server.
vi.mock('@/components/review/turn-comments', () => ({ TurnComments: () => null }));

const at = '2025-01-01T00:00:00.000Z';
const D1: RunViewTurn = {
  step: 'D1',
  agent: 'A1',
  team: 'affirmative',
  act: 'constructive',
  context: [],
  status: 'pending',
  text: '',
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
const start: LiveRunState = {
  runId: 'r1',
  status: 'running',
  error: null,
  turns: [D1],
  evidence: {},
  tokens: { prompt: 0, completion: 0 },
  costUsd: 0,
  startedAt: at,
  finishedAt: null,
  reportReady: false,
};
const answer = {
  text: 'Deliveries grew for a third year.',
  claims: [
    {
      id: 'D1-c1',
      text: 'Orders rose 12 %.',
      factor: 'industry_growth_outlook',
      polarity: 'favorable',
      citations: [{ evidenceId: 'e1', source: 'DART', date: '2024-05-01' }],
    },
  ],
  questions: [],
};

const card = (state: LiveRunState) =>
  renderToStaticMarkup(createElement(Transcript, { turns: state.turns, runStatus: state.status, evidence: state.evidence, streaming: state.streaming }));
/** The claims section of a card: from its heading to the end of its list. */
const claimsOf = (html: string) => /<section class="mt-3" aria-label="Claims">.*?<\/ul><\/section>/.exec(html)?.[0];
const play = (messages: WireMessage[]) => messages.reduce(reduceRun, start);

describe('a running turn on the transcript', () => {
  it('shows its whole partial answer as the finished turn shows the same output', () => {
    const running = play([
      { type: 'step-started', runId: 'r1', stepId: 'D1', at, attempt: 1 },
      { type: 'step-partial', runId: 'r1', stepId: 'D1', text: answer.text, output: answer },
    ]);
    const done = reduceRun(running, {
      type: 'step-done',
      runId: 'r1',
      stepId: 'D1',
      at,
      text: answer.text,
      output: answer,
      usage: { promptTokens: 10, completionTokens: 5, costUsd: 0 },
    });
    const live = card(running);
    expect(live).toContain('data-status="running"');
    expect(live).toContain('Deliveries grew for a third year.');
    expect(claimsOf(live)).toBeDefined();
    expect(claimsOf(live)).toBe(claimsOf(card(done)));
  });

  it('shows a claim written only in part: its text so far, no badge for a factor or a side not yet written, no element id before its id', () => {
    const partial = { text: 'Deliveries', claims: [{ text: 'Orders ro' }] };
    const live = card(
      play([
        { type: 'step-started', runId: 'r1', stepId: 'D1', at, attempt: 1 },
        { type: 'step-partial', runId: 'r1', stepId: 'D1', text: 'Deliveries', output: partial },
      ]),
    );
    const claims = claimsOf(live)!;
    expect(claims).toContain('Orders ro');
    expect(claims).not.toContain('id="claim-');
    expect(claims).not.toMatch(/polarity|undefined/);
    expect((claims.match(/data-testid="claim"/g) ?? []).length).toBe(1);
  });
});
