// The contract between protocols (data), the engine, the providers and the UI.
import type { OutputKind } from '@/lib/domain/outputs';
import type { Protocol as ProtocolId } from '@/lib/db/schema';

export type { ProtocolId };

export type Team = 'affirmative' | 'negative' | 'neutral';

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
  /** Polarity the claims argue for. */
  polarity?: 'favorable' | 'adverse' | 'adverse-or-context';
};

/**
 * What a step may see of the pool: all of it; all of it plus retrieved document passages; its
 * side's items (all, on the factors its context argues, or on the others: see
 * lib/debate/evidence-scope.ts); or nothing.
 */
export type EvidenceAccess = 'pool' | 'documents' | 'side' | 'context-factors' | 'fresh-factors' | 'none';

export type StepDef = {
  /** Stable id within the protocol, e.g. `D5`, `AG`, `R1-A`. */
  id: string;
  /** Speaker or role, e.g. `A2`, `N3`, `aggregator`, `devils-advocate`. */
  agent: string;
  team: Team;
  act: Act;
  /** Steps whose output this step receives; it starts once they are done. */
  context: string[];
  /** Whether the step may call web search. */
  webSearch: boolean;
  evidence: EvidenceAccess;
  output: OutputKind;
  /** Length limit of the step's `text`, in characters (≈ for closings). */
  maxChars?: number;
  /** The step's task in plain words, as the agent reads it. */
  task: string;
  rules?: StepRules;
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

export type RunMode = 'dag' | 'sequential';
export type Language = 'ko' | 'en';

export type RunParams = {
  language: Language;
  asOf: string;
  /** Recency window R in days. */
  recencyDays: number;
  /** At most m web results per search call. */
  maxWebResults: number;
  maxConcurrency: number;
  temperature?: number;
  seed?: number;
  /** Budgets (lib/debate/limits.ts): the run stops as `budget_exceeded` once it has used this many tokens or dollars. */
  maxTokens?: number;
  maxCostUsd?: number;
};

export type Usage = { promptTokens: number; completionTokens: number; costUsd: number };

/**
 * Why a step waits before its model answers: a shared quota of this deployment is full
 * (OPENAI_RPM: `requests`, OPENAI_TPM: `tokens`), the provider answered 429 and asked to wait
 * (`provider-limit`), or it failed and the call is retried after a pause (`provider-error`).
 */
export type WaitReason = 'requests' | 'tokens' | 'provider-limit' | 'provider-error';
export type StepWait = { reason: WaitReason; until: string };

/** Run events (docs/architecture.md): one union shared by server and client. */
export type RunEvent =
  | { type: 'run-started'; runId: string; at: string; steps: { id: string; agent: string; team: Team; act: Act; context: string[] }[] }
  | { type: 'step-started'; runId: string; stepId: string; at: string; attempt: number }
  | { type: 'step-waiting'; runId: string; stepId: string; at: string; reason: WaitReason; until: string }
  | { type: 'token'; runId: string; stepId: string; text: string }
  | { type: 'step-done'; runId: string; stepId: string; at: string; text: string; output: unknown; usage: Usage }
  | { type: 'step-failed'; runId: string; stepId: string; at: string; error: string }
  | { type: 'report-ready'; runId: string; at: string }
  | { type: 'run-finished'; runId: string; at: string; status: 'succeeded' | 'failed' | 'cancelled' | 'budget_exceeded'; error?: string };
