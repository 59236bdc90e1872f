// A run as the live page holds it, and the one place run events change it. Pure (no I/O, no
// clock), so the server's first paint, the SSE snapshot and the client's live updates all go
// through the same functions, and the tests need no browser.
import { citationsOf, claimsOf, questionsOf } from '@/lib/domain/output-parts';
import type { RunSnapshot } from '@/lib/debate/bus';
import type { RunView, RunViewTurn } from '@/lib/report/run-doc';
import type { StepOutput } from '@/lib/domain/outputs';
import type { RunEvent, StepWait } from '@/lib/domain/protocol';
import { TERMINAL_RUN_STATUSES, type RunStatus } from '@/lib/domain/vocabulary';

/**
 * What a citation chip shows about the evidence a citation names. For a finished run it is the
 * evidence as the run cited it; `poolNote` says the pool item has been edited (`changed`) or
 * deleted (`removed`) since, or that the run finished before snapshots and this is read live.
 */
export type EvidenceRef = { id: string; title: string; date: string; source: string; url: string; poolNote?: 'changed' | 'removed' | 'notFrozen' };
export type EvidenceRefs = Record<string, EvidenceRef>;

export type LiveRunState = {
  runId: string;
  status: RunStatus;
  error: string | null;
  /** In protocol order, shaped like the run view's turns so panels built on those work live. */
  turns: RunViewTurn[];
  evidence: EvidenceRefs;
  tokens: { prompt: number; completion: number };
  costUsd: number;
  startedAt: string | null;
  finishedAt: string | null;
  reportReady: boolean;
  /** Running steps that wait for quota or a retry before their next token, by step id. */
  waiting?: Record<string, StepWait>;
};

/** What the SSE route sends: a snapshot on connect, then run events (step-done with the evidence it cites). */
export type WireMessage = { type: 'snapshot'; state: LiveRunState } | (RunEvent & { evidence?: EvidenceRefs });

export const TERMINAL = TERMINAL_RUN_STATUSES;

export function isTerminal(status: RunStatus) {
  return TERMINAL.includes(status);
}

/**
 * The state from the database's view of the run, with the text streamed so far (the bus
 * snapshot) for steps still running: what a viewer who arrives mid-run sees first.
 */
export function stateFromView(
  view: Pick<RunView, 'id' | 'status' | 'error' | 'turns' | 'report' | 'metrics'>,
  run: { startedAt: Date | string | null; finishedAt: Date | string | null },
  live: RunSnapshot,
  evidence: EvidenceRefs,
): LiveRunState {
  const running = !isTerminal(view.status);
  const turns = view.turns.map((t) => {
    const streamed = live.steps[t.step];
    // A step the database still calls running (or pending) may already have text on the bus.
    if (running && t.status !== 'done' && streamed?.status === 'running') return { ...t, status: 'running' as const, text: streamed.text };
    return t;
  });
  const iso = (d: Date | string | null) => (d == null ? null : typeof d === 'string' ? d : d.toISOString());
  const waiting: Record<string, StepWait> = {};
  if (running) for (const [stepId, s] of Object.entries(live.steps)) if (s.status === 'running' && s.waiting) waiting[stepId] = s.waiting;
  return {
    runId: view.id,
    status: view.status,
    error: view.error,
    turns,
    evidence,
    tokens: { prompt: view.metrics.tokens.prompt, completion: view.metrics.tokens.completion },
    costUsd: view.metrics.costUsd,
    startedAt: iso(run.startedAt),
    finishedAt: iso(run.finishedAt),
    reportReady: Boolean(view.report),
    waiting,
  };
}

/** The state without a wait notice for this step (it streams, ended or started again). */
function notWaiting(state: LiveRunState, stepId: string): LiveRunState {
  if (!state.waiting?.[stepId]) return state;
  const { [stepId]: _ended, ...rest } = state.waiting;
  return { ...state, waiting: rest };
}

function updateTurn(state: LiveRunState, stepId: string, change: (turn: RunViewTurn) => RunViewTurn): LiveRunState {
  const index = state.turns.findIndex((t) => t.step === stepId);
  if (index < 0) return state;
  const turns = state.turns.slice();
  turns[index] = change(turns[index]);
  return { ...state, turns };
}

export function reduceRun(state: LiveRunState, message: WireMessage): LiveRunState {
  if (message.type === 'snapshot') return message.state;
  if (message.runId !== state.runId) return state;
  if (message.type === 'step-waiting') {
    const turn = state.turns.find((t) => t.step === message.stepId);
    if (!turn || turn.status === 'done') return state;
    return { ...state, waiting: { ...state.waiting, [message.stepId]: { reason: message.reason, until: message.until } } };
  }
  if (message.type === 'run-finished') state = { ...state, waiting: {} };
  else if ('stepId' in message) state = notWaiting(state, message.stepId);
  switch (message.type) {
    case 'run-started':
      return { ...state, status: 'running', error: null, finishedAt: null, startedAt: state.startedAt ?? message.at };
    case 'step-started':
      return updateTurn({ ...state, status: 'running' }, message.stepId, (t) => ({
        ...t,
        status: 'running',
        text: '',
        error: null,
        startedAt: message.at,
        finishedAt: null,
      }));
    case 'token':
      return updateTurn(state, message.stepId, (t) => (t.status === 'done' ? t : { ...t, status: 'running', text: t.text + message.text }));
    case 'step-done': {
      const before = state.turns.find((t) => t.step === message.stepId);
      // A resumed run repeats step-done for steps finished earlier: count their usage once.
      const fresh = before !== undefined && before.status !== 'done';
      const next = updateTurn(state, message.stepId, (t) => ({
        ...t,
        status: 'done',
        text: message.text,
        // The engine publishes only outputs that passed their step's schema.
        output: message.output as StepOutput,
        claims: claimsOf(message.output),
        questions: questionsOf(message.output),
        citations: citationsOf(message.output) as RunViewTurn['citations'],
        usage: fresh ? message.usage : t.usage,
        error: null,
        finishedAt: message.at,
      }));
      return {
        ...next,
        evidence: message.evidence ? { ...state.evidence, ...message.evidence } : state.evidence,
        tokens: fresh
          ? { prompt: state.tokens.prompt + message.usage.promptTokens, completion: state.tokens.completion + message.usage.completionTokens }
          : state.tokens,
        costUsd: fresh ? state.costUsd + message.usage.costUsd : state.costUsd,
      };
    }
    case 'step-failed':
      return updateTurn(state, message.stepId, (t) => ({ ...t, status: 'failed', error: message.error, finishedAt: message.at }));
    case 'report-ready':
      return { ...state, reportReady: true };
    case 'run-finished': {
      // A cancelled or stopped-at-budget run's unfinished steps go back to pending, as the engine records them.
      const turns =
        message.status === 'cancelled' || message.status === 'budget_exceeded' ? state.turns.map((t) => (t.status === 'running' ? { ...t, status: 'pending' as const, text: '' } : t)) : state.turns;
      return { ...state, turns, status: message.status, error: message.error ?? state.error, finishedAt: message.at };
    }
    default:
      return state;
  }
}

export function progressOf(state: Pick<LiveRunState, 'turns'>) {
  let done = 0;
  let running = 0;
  let failed = 0;
  for (const t of state.turns) {
    if (t.status === 'done') done++;
    else if (t.status === 'running') running++;
    else if (t.status === 'failed') failed++;
  }
  return { done, running, failed, total: state.turns.length };
}

/** Evidence ids a set of turns cites, to look their titles up. */
export function citedEvidenceIds(turns: { output: unknown }[]): string[] {
  const ids = new Set<string>();
  for (const t of turns) for (const c of citationsOf(t.output)) if (c.evidenceId) ids.add(c.evidenceId);
  return [...ids];
}
