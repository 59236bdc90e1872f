// The contract between protocols (data), the engine, the providers and the UI.
import type { FactorId } from '@/lib/domain/factors';
import type { OutputKind } from '@/lib/domain/outputs';
import type { EvidenceShortfall, RedFlag } from '@/lib/domain/red-flags';
import type { StepRepair } from '@/lib/domain/stored';
import type { Phrase } from '@/lib/domain/phrase';
import type { Protocol as ProtocolId, TerminalRunStatus } from '@/lib/domain/vocabulary';

export type { ProtocolId };

export const TEAMS = ['affirmative', 'negative', 'neutral'] as const;
export type Team = (typeof TEAMS)[number];

export type Act =
  | 'distillation'
  | 'constructive'
  | 'opening'
  | 'cross-examination'
  | 'challenge'
  | 'rebuttal'
  | 'judgment'
  | 'follow-up'
  | 'closing'
  | 'analysis'
  | 'draft'
  | 'debate'
  | 'safety-check'
  | 'aggregation'
  | 'report';

/** Hard rules the engine checks on a step's validated output (a violation is one repair, then a failure). */
export type StepRules = {
  /** At least this many claims (e.g. ≥ 3 favorable signals in D1). */
  minClaims?: number;
  /** Claims must cite at least this many distinct factors. */
  minFactors?: number;
  /** Exactly this many questions (cross-examination). */
  exactQuestions?: number;
  /** Questions must target claims of at least this many distinct factors. */
  questionFactors?: number;
  /** Closings: no factor or evidence that earlier context steps did not use. */
  noNewMaterial?: boolean;
  /** Claims must not reuse factors already used by these steps (D3 against D1). */
  freshFactorsVersus?: string[];
  /** Every claim must carry at least one citation. */
  citationsRequired?: boolean;
  /**
   * Specialists (SAS briefings, FinDebate's five): at least one claim citing an item the step was
   * shown, dated on or before the as-of date, or — when the material holds nothing on the step's
   * topic — `nothingInMaterial: true` and no claims. One sentence with neither fails.
   */
  findingsOrNothing?: boolean;
  /** Polarity the claims argue for. */
  polarity?: 'favorable' | 'adverse' | 'adverse-or-context';
  /**
   * Signals short of this many (distinct factors the step's evidence offers in its direction):
   * a step allowed to search must search the web for more, when search is configured and the
   * provider can search (KPD-MADS constructives, lib/debate/rules.ts); otherwise `minClaims`
   * shrinks to what the evidence allows.
   */
  searchBelowSignals?: number;
  /**
   * Numbered arguments (`argumentsRound`): at least `min` and at most `max` of them; the minimum
   * shrinks to the factors the step's evidence offers, like `minClaims`. With `citationsRequired`
   * every argument must cite evidence.
   */
  argumentCount?: { min: number; max: number };
  /**
   * Every round-1 argument of these context steps must be taken up: answered by a response
   * (`responsesRound`, by `targetId`) or scored (`rubricJudgment`, by `argumentId`).
   */
  coverArguments?: string[];
};

/**
 * What a step may see of the pool: all of it; all of it (a specialist: its `lane` of it; FinDebate's
 * trust agent and skeptic: their `turnLane`) plus retrieved document passages; its side's items (all, on the factors its context argues, or on
 * the others: see lib/debate/evidence-scope.ts); or nothing.
 */
export type EvidenceAccess = 'pool' | 'documents' | 'side' | 'context-factors' | 'fresh-factors' | 'none';

/**
 * A specialist's part of the pool (FinDebate's five, lib/debate/protocols/findebate.ts): the items
 * on these factors — `other` standing for every item outside the ten, untagged ones included —
 * and, with `adverse`, every item read adverse whatever its factor.
 */
export type PoolLane = { factors: readonly FactorId[]; adverse?: boolean };

/**
 * What a debate step that reads documents is shown of the pool beside its passages, read off the
 * turns it receives (FinDebate's trust agent and skeptic, lib/debate/evidence-scope.ts):
 * - `backs`: of these steps' claims, the items that could back one — on its factor, read its way
 *   or either way — other than those the turns already cite (their claims quote them);
 * - `checks`: the items these steps cite, and the items on a claim's factor not read its way;
 * - `adverse`: every item read adverse that no turn it receives cites.
 */
export type TurnLane = { backs?: string[]; checks?: string[]; adverse?: boolean };

/**
 * A step's part in its protocol. Where the act and the team do not tell steps apart, the offline
 * analyst and the report read the role, never a step id or an agent name. A `debater` argues its
 * team's side, and its act says which turn it speaks.
 */
export const STEP_ROLES = [
  /** Argues its team's side: constructive, questions, rebuttal, closing (KPD-MADS, SAS, three-round). */
  'debater',
  /** Takes no side: challenges both openings, then judges the answers (SAS C and J-DA). */
  'devils-advocate',
  /** Briefs the others on one lane of the material, its `focus` (SAS and FinDebate briefings). */
  'specialist',
  /** Works the case alone and reports on it (NAS). */
  'analyst',
  /** Reports a whole debate, both sides kept, no winner (KPD-MADS AG). */
  'aggregator',
  /** Decides or scores the debate (SAS and three-round JUDGE). */
  'judge',
  /** Finds the single assumption the upheld case can least afford to lose (SAS STRESS). */
  'stress-analyst',
  /** Writes the final report from the judge's decision and the stress test (SAS LEAD). */
  'lead-analyst',
  /** Commits to a stance and horizons from the briefings (FinDebate DRAFT). */
  'draft-writer',
  /** Strengthens the draft's evidence without moving its stance (FinDebate TRUST). */
  'trust',
  /** Adds the risks, mitigations and scenarios the draft misses (FinDebate SKEPTIC). */
  'skeptic',
  /** Merges the debate into the draft (FinDebate LEADER). */
  'leader',
  /** Keeps the draft when the debate moved its stance or horizons (FinDebate SAFETY). */
  'safety-checker',
] as const;
export type StepRole = (typeof STEP_ROLES)[number];

/**
 * The lane a `specialist` covers. Each names one briefing: a lane shared by two protocols would
 * be briefed the same way in both, so SAS's and FinDebate's management briefings are two lanes.
 */
export type SpecialistFocus =
  'figures' | 'management-behaviour' | 'industry-narrative' | 'performance' | 'market-outlook' | 'management-sentiment' | 'collateral' | 'credit-risk';

export type StepDef = {
  /** Stable id within the protocol, e.g. `D5`, `AG`, `R1-A`. */
  id: string;
  /**
   * The speaker, e.g. `A2`, `N3`, `aggregator`, `devils-advocate`: shown in the transcript and
   * the key of its model setting (OPENAI_MODEL_<AGENT>); code decides by `role`, never by this.
   */
  agent: string;
  /** The step's part in the protocol (see STEP_ROLES). */
  role: StepRole;
  /** For a `specialist`: the lane it briefs on. */
  focus?: SpecialistFocus;
  team: Team;
  act: Act;
  /** Steps whose output this step receives; it starts once they are done. */
  context: string[];
  /** Whether the step may call web search. */
  webSearch: boolean;
  evidence: EvidenceAccess;
  /**
   * For a step that reads the pool or documents (`evidence: 'pool'` or `'documents'`): the pool
   * items it is shown are its lane's only, its passages as retrieved (lib/debate/evidence-scope.ts).
   * Without it, every item.
   */
  lane?: PoolLane;
  /**
   * For a debate step that reads documents (`evidence: 'documents'`): the pool items it is shown,
   * from the turns it receives, its passages as retrieved (lib/debate/evidence-scope.ts).
   */
  turnLane?: TurnLane;
  /**
   * For a step that reads documents (`evidence: 'documents'`): the query its passages are
   * retrieved with. Without one the step searches with the start of its task.
   */
  query?: string;
  /**
   * Several retrieval queries for a step that reads documents (FinDebate's query families): each
   * is run and their passages are shared out among them, best first, duplicates once. Wins over
   * `query`.
   */
  queries?: string[];
  /**
   * The step that gave the verdict (`sasJudgment`): of the sided turns in `context`, the step
   * receives only those of the side the verdict upheld (SAS's stress test sees the winning
   * case, not the whole debate). Neutral turns in `context` are kept.
   */
  onlyWinnerOf?: string;
  /** The shape of its answer; where the answer keeps its prose is PROSE in lib/domain/outputs.ts. */
  output: OutputKind;
  /**
   * An answer made of independent parts: written as concurrent calls, one per section, then one
   * overview call that reads them (lib/debate/sections.ts, docs/protocols.md "Sections"). An
   * execution detail: the output, its checks and the step's id are those of a one-call answer.
   */
  sections?: StepSections;
  /** Length limit of the step's `text`, in characters (≈ for closings). */
  maxChars?: number;
  /** The step's task in plain words, as the agent reads it. It names no tool: a step is not always given one. */
  task: string;
  /**
   * What the task says about searching, for a step that may search: added to the task only when
   * the request carries the web_search tool (a search provider is configured), so a model is
   * never told to search when it cannot and then invents a result (docs/protocols.md, "What a
   * prompt may say").
   */
  searchTask?: string;
  rules?: StepRules;
};

/** One concurrent call of a sectioned step: the fields of the answer it writes. */
export type StepSection = {
  /** Stable within the step: named in the call's prompt (`Part <key> of step <id>`) and on its repairs. */
  key: string;
  /** Top-level fields of the step's output this call writes, whole or (with `factors`) in part. */
  fields: string[];
  /**
   * The factors whose entries this call writes, in the listed fields whose entries name a factor
   * (a report's topics). `other` stands for every factor outside the ten.
   */
  factors?: string[];
  /** What this call writes, in plain words, after the step's task. */
  task: string;
};

/** The sections of a step, each a concurrent call, and the overview written last, from them. */
export type StepSections = {
  parts: StepSection[];
  overview: { fields: string[]; task: string };
};

export type ProtocolDef = {
  id: ProtocolId;
  name: string;
  /** One line for the run launcher. */
  description: string;
  steps: StepDef[];
  /** The step whose output is the run's report. */
  reportStep: string;
};

/** `dag`: every step whose context is done starts; `sequential`: one step at a time, in protocol order. */
export const RUN_MODES = ['dag', 'sequential'] as const;
export type RunMode = (typeof RUN_MODES)[number];
export const LANGUAGES = ['ko', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

export type RunParams = {
  language: Language;
  asOf: string;
  /** Recency window R in days. */
  recencyDays: number;
  /** At most m web results per search call. */
  maxWebResults: number;
  maxConcurrency: number;
  temperature?: number;
  /**
   * Temperature of the steps that score or decide a debate (role `judge`): low by default
   * (DEFAULT_JUDGE_TEMPERATURE in lib/debate/engine.ts), so the same debate gets the same scores;
   * every other step runs at `temperature`.
   */
  judgeTemperature?: number;
  seed?: number;
  /** Budgets (lib/debate/limits.ts): the run stops as `budget_exceeded` once it has used this many tokens or dollars. */
  maxTokens?: number;
  maxCostUsd?: number;
};

/**
 * Tokens and dollars spent. `cachedTokens`: of the prompt tokens, those the provider said its
 * prompt cache served (billed at the cached-input price); absent where nothing says.
 */
export type Usage = { promptTokens: number; completionTokens: number; costUsd: number; cachedTokens?: number };

/**
 * Why a step waits before its model answers: a shared quota of this deployment is full
 * (OPENAI_RPM: `requests`, OPENAI_TPM: `tokens`), the provider answered 429 and asked to wait
 * (`provider-limit`), or it failed and the call is retried after a pause (`provider-error`).
 */
export type WaitReason = 'requests' | 'tokens' | 'provider-limit' | 'provider-error';
export type StepWait = { reason: WaitReason; until: string };

/**
 * Run events (docs/architecture.md): one union shared by server and client. While a step streams,
 * `step-partial` carries its answer so far, parsed (lib/debate/live-step.ts): `output` the object
 * as far as the model has written it, `text` its prose; each replaces the one before, and
 * `step-done` replaces the last. `step-usage` is what the step has spent so far, estimated from
 * the stream until `step-done` brings the provider's count. A `step-waiting` drops what the step
 * streamed: after the wait its answer starts again.
 */
export type RunEvent =
  | {
      type: 'run-started';
      runId: string;
      at: string;
      steps: { id: string; agent: string; team: Team; act: Act; context: string[] }[];
      /** The red flags found before the debate (`runs.red_flags`), so a page open since the launch shows them at once. */
      redFlags?: RedFlag[];
    }
  | { type: 'step-started'; runId: string; stepId: string; at: string; attempt: number }
  | { type: 'step-waiting'; runId: string; stepId: string; at: string; reason: WaitReason; until: string }
  | { type: 'step-partial'; runId: string; stepId: string; text: string; output: unknown }
  | { type: 'step-usage'; runId: string; stepId: string; usage: Usage }
  /** `repairs`: what taking the answer in changed (lib/debate/intake.ts), as saved on the step. */
  | { type: 'step-done'; runId: string; stepId: string; at: string; text: string; output: unknown; usage: Usage; repairs?: StepRepair[] }
  /** `usage`: every attempt of the step, as saved on it; `error`: the stored reason (English, see lib/i18n/failures.ts). */
  | { type: 'step-failed'; runId: string; stepId: string; at: string; error: string; errorPhrase?: Phrase; usage?: Usage; repairs?: StepRepair[] }
  | { type: 'report-ready'; runId: string; at: string }
  /** `error` and `totals`: the run's reason and totals as saved, so viewers need not reload to see them. */
  | {
      type: 'run-finished';
      runId: string;
      at: string;
      status: TerminalRunStatus;
      error?: string;
      errorPhrase?: Phrase;
      totals?: Usage;
      shortfall?: EvidenceShortfall;
      /** A run that ended before its debate (a red-flag screening) never said run-started: its red flags come here. */
      redFlags?: RedFlag[];
    };
