// A run as the live page holds it, and the one place run events change it. Pure (no I/O, no
// clock), so the server's first paint, the SSE snapshot and the client's live updates all go
// through the same functions, and the tests need no browser.
import { citationsOf, claimsOf, questionsOf } from '@/lib/domain/output-parts';
import type { RunView, RunViewTurn } from '@/lib/report/run-doc';
import type { RunEvent, StepWait, Usage } from '@/lib/domain/protocol';
import { TERMINAL_RUN_STATUSES, type Polarity, type RunStatus } from '@/lib/domain/vocabulary';
import type { EvidenceShortfall, RedFlag } from '@/lib/domain/red-flags';
import type { Phrase } from '@/lib/domain/phrase';

/**
 * What a citation chip shows about the evidence a citation names. For a finished run it is the
 * evidence as the run cited it; `poolNote` says the pool item has been edited (`changed`) or
 * deleted (`removed`) since, or that the run finished before snapshots and this is read live.
 */
export type EvidenceRef = {
  id: string;
  title: string;
  date: string;
  source: string;
  url: string;
  poolNote?: 'changed' | 'removed' | 'notFrozen';
  /** The item's tagged reading (as the run recorded it once finished), for reading consistency; none for web results. */
  polarity?: Polarity | null;
  /** For an item accepted from an uploaded document: the address of its passage (lib/domain/passage.ts). */
  passage?: string;
};
export type EvidenceRefs = Record<string, EvidenceRef>;

export type LiveRunState = {
  runId: string;
  status: RunStatus;
  error: string | null;
  /** The run's reason as a phrase (runs.errorPhrase), for the reader's language; null when it has none. */
  errorPhrase?: Phrase | null;
  /** In protocol order, shaped like the run view's turns so panels built on those work live. */
  turns: RunViewTurn[];
  evidence: EvidenceRefs;
  /** The decisive credit events found before the debate (`runs.red_flags`); their items are in `evidence`. */
  redFlags?: RedFlag[];
  /** Set when the run ended as `insufficient_evidence`: what the pool held against the threshold. */
  shortfall?: EvidenceShortfall | null;
  /** `cached`: of the prompt tokens, those the provider's prompt cache served (absent in states built before it was kept). */
  tokens: { prompt: number; completion: number; cached?: number };
  costUsd: number;
  /** When the latest attempt started (a retry starts a new one) and when it ended. */
  startedAt: string | null;
  finishedAt: string | null;
  /** What earlier attempts took, summed (`runs.prior_elapsed_ms`); absent in states built before it was kept. */
  priorElapsedMs?: number;
  reportReady: boolean;
  /** Running steps that wait for quota or a retry before their answer streams again, by step id. */
  waiting?: Record<string, StepWait>;
  /** Running steps' spend as estimated from their streams, by step id (see StreamingStep). */
  streaming?: Record<string, StreamingStep>;
  /** The number of the run's latest event this state includes (lib/debate/event-log.ts): where following the run goes on from. */
  seq?: number;
};

/**
 * What a running step has spent so far, estimated from its stream: the run's totals show it until
 * the step's own usage replaces it. Its answer so far is on its turn (`output`, a partial object
 * not yet validated, and what it holds), shown as a finished turn is.
 */
export type StreamingStep = { usage?: Usage };

/**
 * What the SSE route sends: a snapshot when the viewer comes without a position in the run's log,
 * then the log's events, each with its number (step-done with the evidence it cites).
 */
export type WireMessage = { type: 'snapshot'; state: LiveRunState } | (RunEvent & { evidence?: EvidenceRefs; seq?: number });

export const TERMINAL = TERMINAL_RUN_STATUSES;

export function isTerminal(status: RunStatus) {
  return TERMINAL.includes(status);
}

/**
 * The turn with this answer: its prose, its output (whole or, while the step runs, as far as it
 * is written) and the claims, questions and citations the output holds.
 */
function withAnswer(turn: RunViewTurn, text: string, output: unknown): RunViewTurn {
  return {
    ...turn,
    text,
    output: output as RunViewTurn['output'],
    claims: claimsOf(output),
    questions: questionsOf(output),
    citations: citationsOf(output) as RunViewTurn['citations'],
  };
}

/**
 * The live part of a run's log (lib/db/queries/run-events.ts, liveEvents): its current
 * execution's step starts, waits, answers and spend so far, as of the log's event `seq`.
 */
export type LiveEvents = { seq: number; events: RunEvent[] };

/**
 * The state from the database's view of the run, with what the event log's live part adds for
 * steps still running (answers streamed so far, waits, spend so far): what a viewer who arrives
 * mid-run sees first. The live part goes through `reduceRun`, as the browser reduces the events
 * that follow. The view has each running step as of its latest start, so only what the log holds
 * after that start is reduced, and a step's spend so far, which a new attempt keeps.
 */
export function stateFromView(
  view: Pick<RunView, 'id' | 'status' | 'error' | 'turns' | 'report' | 'metrics'> & { errorPhrase?: RunView['errorPhrase'] },
  run: {
    startedAt: Date | string | null;
    finishedAt: Date | string | null;
    priorElapsedMs?: number | null;
    redFlags?: RedFlag[] | null;
    shortfall?: EvidenceShortfall | null;
  },
  live: LiveEvents,
  evidence: EvidenceRefs,
): LiveRunState {
  const iso = (d: Date | string | null) => (d == null ? null : typeof d === 'string' ? d : d.toISOString());
  const saved: LiveRunState = {
    runId: view.id,
    status: view.status,
    error: view.error,
    errorPhrase: view.errorPhrase ?? null,
    turns: view.turns,
    evidence,
    redFlags: run.redFlags ?? [],
    shortfall: run.shortfall ?? null,
    tokens: { prompt: view.metrics.tokens.prompt, completion: view.metrics.tokens.completion, cached: view.metrics.tokens.cached ?? 0 },
    costUsd: view.metrics.costUsd,
    startedAt: iso(run.startedAt),
    finishedAt: iso(run.finishedAt),
    priorElapsedMs: run.priorElapsedMs ?? 0,
    // A red-flag screening's report is the screening (lib/report/screening.ts): ready when it ends.
    reportReady: Boolean(view.report) || view.status === 'red_flag_screening',
    waiting: {},
    streaming: {},
    seq: live.seq,
  };
  if (isTerminal(view.status)) return saved;
  return liveOfRunningSteps(view.turns, live.events).reduce(reduceRun, saved);
}

/** Of the live events, those the database's view of these turns does not hold yet (see stateFromView). */
function liveOfRunningSteps(turns: Pick<RunViewTurn, 'step' | 'status'>[], events: RunEvent[]): RunEvent[] {
  const running = new Set(turns.filter((t) => t.status === 'running').map((t) => t.step));
  const latestStart = new Map<string, number>();
  events.forEach((e, i) => {
    if (e.type === 'step-started') latestStart.set(e.stepId, i);
  });
  return events.filter((e, i) => {
    if (!('stepId' in e) || !running.has(e.stepId) || e.type === 'step-started') return false;
    return e.type === 'step-usage' || i > (latestStart.get(e.stepId) ?? -1);
  });
}

/**
 * How long the run has taken: its earlier attempts' lengths plus the latest attempt's, from its
 * start to its end or, while it goes, to `now` (null before the clock is read: the server's
 * render and the browser's first one agree). Not the span from the first start to the last end,
 * which would count the time a failed run waited for its retry. Null when nothing has started.
 */
export function runElapsedMs(run: { startedAt: string | null; finishedAt: string | null; priorElapsedMs?: number | null }, now: number | null): number | null {
  const prior = run.priorElapsedMs ?? 0;
  const current = !run.startedAt
    ? null
    : run.finishedAt
      ? Date.parse(run.finishedAt) - Date.parse(run.startedAt)
      : now === null
        ? null
        : now - Date.parse(run.startedAt);
  if (current === null) return prior > 0 ? prior : null;
  return prior + current;
}

/** The run's tokens and cost as a viewer sees them: what finished steps used and what running ones have spent so far. */
export function shownTotals(state: Pick<LiveRunState, 'tokens' | 'costUsd' | 'streaming'>): { tokens: number; costUsd: number; cachedTokens: number } {
  let tokens = state.tokens.prompt + state.tokens.completion;
  // Known only once a step's usage is in: a running step's estimate says nothing of the cache.
  const cachedTokens = state.tokens.cached ?? 0;
  let costUsd = state.costUsd;
  for (const s of Object.values(state.streaming ?? {})) {
    if (!s.usage) continue;
    tokens += s.usage.promptTokens + s.usage.completionTokens;
    costUsd += s.usage.costUsd;
  }
  return { tokens, costUsd, cachedTokens };
}

/** The state with this step's streaming record changed (`null`: dropped). */
function updateStreaming(state: LiveRunState, stepId: string, change: (s: StreamingStep) => StreamingStep | null): LiveRunState {
  const current = state.streaming?.[stepId];
  const next = change(current ?? {});
  const { [stepId]: _old, ...rest } = state.streaming ?? {};
  if (!next) return current ? { ...state, streaming: rest } : state;
  return { ...state, streaming: { ...rest, [stepId]: next } };
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
  // An event the state already includes (a reconnect that overlaps) changes nothing.
  if (message.seq !== undefined && state.seq !== undefined && message.seq <= state.seq) return state;
  const next = reduceEvent(state, message);
  return message.seq === undefined ? next : { ...next, seq: message.seq };
}

function reduceEvent(state: LiveRunState, message: Exclude<WireMessage, { type: 'snapshot' }>): LiveRunState {
  if (message.type === 'step-waiting') {
    const turn = state.turns.find((t) => t.step === message.stepId);
    if (!turn || turn.status === 'done') return state;
    // After the wait the answer starts again: what it had streamed goes, its spend stays.
    const restarted = updateTurn(state, message.stepId, (t) => withAnswer(t, '', null));
    return { ...restarted, waiting: { ...state.waiting, [message.stepId]: { reason: message.reason, until: message.until } } };
  }
  // A wait ends when the step's answer streams again or the step ends, not with a spend estimate
  // (a sectioned step's other calls go on spending while one of them waits).
  if (message.type === 'run-finished') state = { ...state, waiting: {} };
  else if ('stepId' in message && message.type !== 'step-usage') state = notWaiting(state, message.stepId);
  // A running step's answer so far (each partial replaces the one before) and its spend; a new
  // attempt keeps the spend of those before it, a new execution starts afresh. One that comes
  // after the step ended (a call of a sectioned step still writing when another failed) is late.
  if (message.type === 'step-partial' || message.type === 'step-usage') {
    const turn = state.turns.find((t) => t.step === message.stepId);
    if (!turn || turn.status === 'done' || turn.status === 'failed') return state;
    if (message.type === 'step-usage') return updateStreaming(state, message.stepId, (s) => ({ ...s, usage: message.usage }));
    return updateTurn(state, message.stepId, (t) => ({ ...withAnswer(t, message.text, message.output), status: 'running' }));
  }
  if (message.type === 'run-started' || message.type === 'run-finished') state = { ...state, streaming: {} };
  else if (message.type === 'step-done' || message.type === 'step-failed') state = updateStreaming(state, message.stepId, () => null);
  else if (message.type === 'step-started') state = updateStreaming(state, message.stepId, (s) => (s.usage ? { usage: s.usage } : null));
  switch (message.type) {
    case 'run-started':
      return {
        ...state,
        status: 'running',
        error: null,
        errorPhrase: null,
        shortfall: null,
        finishedAt: null,
        // After an end, a new attempt (a retry): the ended one's length is kept, as the database
        // keeps it (setRunStatus in lib/db/queries/runs.ts); else the attempt's start stays.
        ...(state.startedAt && state.finishedAt
          ? { priorElapsedMs: runElapsedMs(state, null) ?? 0, startedAt: message.at }
          : { startedAt: state.startedAt ?? message.at }),
        ...(message.redFlags ? { redFlags: message.redFlags } : {}),
        // The route may send the flagged items' sources along, as it does with a step's citations.
        ...(message.evidence ? { evidence: { ...state.evidence, ...message.evidence } } : {}),
      };
    case 'step-started':
      return updateTurn({ ...state, status: 'running' }, message.stepId, (t) => ({
        ...withAnswer(t, '', null),
        status: 'running',
        error: null,
        errorPhrase: null,
        startedAt: message.at,
        finishedAt: null,
      }));
    case 'step-done': {
      const before = state.turns.find((t) => t.step === message.stepId);
      // A resumed run repeats step-done for steps finished earlier: count their usage once.
      const fresh = before !== undefined && before.status !== 'done';
      const next = updateTurn(state, message.stepId, (t) => ({
        // The engine publishes only outputs that passed their step's schema.
        ...withAnswer(t, message.text, message.output),
        status: 'done',
        // The step's usage adds up across executions, as saved: a retried step keeps what its failed one spent.
        usage: fresh ? addUsage(t.usage, message.usage) : t.usage,
        error: null,
        errorPhrase: null,
        finishedAt: message.at,
        // A resumed run's repeated step-done carries none: the saved ones stay.
        repairs: message.repairs ?? t.repairs,
      }));
      return {
        ...next,
        evidence: message.evidence ? { ...state.evidence, ...message.evidence } : state.evidence,
        tokens: fresh
          ? {
              prompt: state.tokens.prompt + message.usage.promptTokens,
              completion: state.tokens.completion + message.usage.completionTokens,
              cached: (state.tokens.cached ?? 0) + (message.usage.cachedTokens ?? 0),
            }
          : state.tokens,
        costUsd: fresh ? state.costUsd + message.usage.costUsd : state.costUsd,
      };
    }
    case 'step-failed': {
      // As the database keeps a failed step, so a reload shows the same card: the reason, what
      // every attempt spent (added to the run's totals), and no text or parts of its own.
      const before = state.turns.find((t) => t.step === message.stepId);
      const spent = before !== undefined && before.status !== 'failed' ? message.usage : undefined;
      const next = updateTurn(state, message.stepId, (t) => ({
        ...withAnswer(t, '', null),
        status: 'failed',
        usage: spent ? addUsage(t.usage, spent) : t.usage,
        error: message.error,
        errorPhrase: message.errorPhrase ?? null,
        finishedAt: message.at,
        repairs: message.repairs ?? t.repairs,
      }));
      if (!spent) return next;
      return {
        ...next,
        tokens: { ...state.tokens, prompt: state.tokens.prompt + spent.promptTokens, completion: state.tokens.completion + spent.completionTokens },
        costUsd: state.costUsd + spent.costUsd,
      };
    }
    case 'report-ready':
      return { ...state, reportReady: true };
    case 'run-finished': {
      // A cancelled or stopped-at-budget run's unfinished steps go back to pending, as the engine records them.
      const turns =
        message.status === 'cancelled' || message.status === 'budget_exceeded'
          ? state.turns.map((t) => (t.status === 'running' ? { ...withAnswer(t, '', null), status: 'pending' as const, startedAt: null, finishedAt: null } : t))
          : state.turns;
      // The reason and the totals as saved: the totals include what calls cut off by the end spent.
      const totals = message.totals
        ? {
            tokens: {
              prompt: message.totals.promptTokens,
              completion: message.totals.completionTokens,
              cached: message.totals.cachedTokens ?? state.tokens.cached ?? 0,
            },
            costUsd: message.totals.costUsd,
          }
        : {};
      // A run short of evidence says what the pool held, live as after a reload.
      const thin = message.status === 'insufficient_evidence' || message.status === 'red_flag_screening';
      const shortfall = thin ? (message.shortfall ?? state.shortfall ?? null) : (state.shortfall ?? null);
      const reportReady = state.reportReady || message.status === 'red_flag_screening';
      return {
        ...state,
        turns,
        status: message.status,
        reportReady,
        error: message.error ?? state.error,
        errorPhrase: message.error !== undefined ? (message.errorPhrase ?? null) : (state.errorPhrase ?? null),
        shortfall,
        finishedAt: message.at,
        ...totals,
        // A red-flag screening ends without a run-started: its flags, and their items, come here.
        ...(message.redFlags ? { redFlags: message.redFlags } : {}),
        ...(message.evidence ? { evidence: { ...state.evidence, ...message.evidence } } : {}),
      };
    }
    default:
      return state;
  }
}

function addUsage(a: Usage, b: Usage): Usage {
  const cached = a.cachedTokens !== undefined || b.cachedTokens !== undefined ? { cachedTokens: (a.cachedTokens ?? 0) + (b.cachedTokens ?? 0) } : {};
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    costUsd: a.costUsd + b.costUsd,
    ...cached,
  };
}

/**
 * The pending steps that cannot start because a step they wait on failed, each with the failed
 * steps it waits on, directly or through other pending steps (in protocol order).
 */
export function blockedBy(turns: Pick<RunViewTurn, 'step' | 'status' | 'context'>[]): Record<string, string[]> {
  const byStep = new Map(turns.map((t) => [t.step, t]));
  const memo = new Map<string, string[]>();
  const order = new Map(turns.map((t, i) => [t.step, i]));
  const failedUpstream = (step: string, seen: Set<string>): string[] => {
    const known = memo.get(step);
    if (known) return known;
    const found = new Set<string>();
    for (const id of byStep.get(step)?.context ?? []) {
      const dep = byStep.get(id);
      if (!dep || seen.has(id)) continue;
      if (dep.status === 'failed') found.add(id);
      else if (dep.status === 'pending') for (const f of failedUpstream(id, new Set([...seen, id]))) found.add(f);
    }
    const list = [...found].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
    memo.set(step, list);
    return list;
  };
  const blocked: Record<string, string[]> = {};
  for (const t of turns) {
    if (t.status !== 'pending') continue;
    const failed = failedUpstream(t.step, new Set([t.step]));
    if (failed.length) blocked[t.step] = failed;
  }
  return blocked;
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

/**
 * Why a pending step shows no answer, as a runMessages key: waiting for its context while the
 * run goes on, blocked by a failed step it needs, or never run because the run ended first
 * (cancelled, stopped at its budget, or short of evidence).
 */
export function pendingStepNote(
  runStatus: RunStatus,
  blocked: boolean,
): 'waitingForContext' | 'blocked' | 'notRunCancelled' | 'notRunBudget' | 'notRunEvidence' | 'notRun' {
  if (blocked) return 'blocked';
  switch (runStatus) {
    case 'queued':
    case 'running':
      return 'waitingForContext';
    case 'cancelled':
      return 'notRunCancelled';
    case 'budget_exceeded':
      return 'notRunBudget';
    case 'insufficient_evidence':
    case 'red_flag_screening':
      return 'notRunEvidence';
    default:
      return 'notRun';
  }
}
