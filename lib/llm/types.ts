// The two seams to a model. A language model (`LanguageModel.complete`) takes a prompt and, for
// structured output, a JSON Schema, and returns the raw answer with its usage: the debate, the
// judges and document reading all call one. A step writer (`ModelProvider.generate`) takes a whole
// step and writes its answer: the engine calls it, the OpenAI-compatible provider adapts it to one
// `complete` call (`stepWriter`), and the offline analyst, which is not a model, writes it by rules.
import type { ZodType } from 'zod';
import type { ProtocolDef, RunParams, StepDef, StepWait, Team, Act } from '@/lib/domain/protocol';
import type { RedFlag } from '@/lib/domain/red-flags';
import type { SectionCall } from '@/lib/domain/sections';
import type { ToolCallRecord } from '@/lib/domain/stored';
import type { ProviderName } from '@/lib/domain/vocabulary';
import type { EvidenceAsOf } from '@/lib/pool/as-of';
import type { RetrievedItem } from '@/lib/pool/retrieve';
import type { PoolEvidence } from '@/lib/pool/types';

/**
 * Who the borrower is, as every step and the offline analyst read it: identity fields only. A
 * company's free-text profile is left out: it is written when the company is imported and can
 * state facts from after a run's as-of date (a later filing, today's management), and nothing
 * dated after that date may reach a step (docs/protocols.md, "What a prompt may say").
 */
export type CompanyBrief = {
  id: string;
  name: string;
  nameEn: string | null;
  country: string;
  industry: string | null;
  /** Listing codes and registry numbers (stock code, ticker, CIK, corp code…), as imported. */
  identifiers?: Record<string, string>;
};

/** A finished earlier step, as a later step receives it (only its declared context). */
export type ContextTurn = { stepId: string; agent: string; team: Team; act: Act; text: string; output: unknown };

/**
 * A red flag as a step receives it: the flag, the source name and publication date to cite it
 * under, and the start of the item's text, so a step that sees no evidence can still read and
 * cite the event.
 */
export type StepRedFlag = RedFlag & { sourceName: string; publishedDate: string; text: string };

/** A web result captured in this run: cited like pool evidence, id `web-<run>-<n>`. */
export type WebEvidence = PoolEvidence & { retrievedAt: Date };

export type StepInput = {
  runId: string;
  protocol: ProtocolDef;
  step: StepDef;
  params: RunParams;
  company: CompanyBrief;
  /** The evidence this step may see: never published after as-of; `stale` marks the old. */
  evidence: EvidenceAsOf[];
  /** Retrieved document passages, for steps that read documents. */
  passages: RetrievedItem[];
  context: ContextTurn[];
  /**
   * The run's red flags (lib/pool/red-flags.ts): decisive credit events in the pool at the as-of
   * date, the same list for every step of a run, whatever evidence the step itself sees. A
   * final step must address each one (lib/debate/checks.ts, `red-flags-addressed`). Absent
   * outside runs (the automated judges).
   */
  redFlags?: StepRedFlag[];
  /**
   * The run's source table (lib/domain/source-keys.ts): every source name of the pool as of the
   * date, in one stable order, the same for every step of a run. The header names each once and
   * the rest of the prompt refers to it by its key (S1, S2, …). Absent: names are written out.
   */
  sources?: string[];
  /**
   * For one call of a sectioned step (StepDef.sections): the section it writes, and for the
   * overview call what the sections wrote, in their order. The answer has only the call's fields.
   */
  part?: SectionCall & { written?: { key: string; output: Record<string, unknown> }[] };
  /** Built by lib/debate/prompts.ts: shared prefix first (cache-friendly), the step's own part last. */
  prompt: { system: string; user: string };
};

/** One call to a language model: only what the model needs, nothing of a step or a protocol. */
export type ModelCall = {
  system: string;
  user: string;
  /** Structured output: the answer's JSON Schema and the name the endpoint sees it under. Absent: free text. */
  output?: { name: string; jsonSchema: Record<string, unknown> };
  temperature?: number;
  seed?: number;
  /** The most completion tokens to ask for; the run's budget and the model's output cap still bound it. */
  maxTokens?: number;
  /** Offered to the model as a web_search tool when present. */
  webSearch?: (query: string) => Promise<WebEvidence[]>;
  /** The previous answer and why it failed validation: sent as one repair turn. */
  repair?: { previous: string; problems: string[] };
  signal: AbortSignal;
  /** The raw answer as it is produced, in chunks of any size. */
  onText?: (text: string) => void;
  /** Called before a wait for quota or for a retry, so viewers see why nothing streams yet. */
  onWait?: (wait: StepWait) => void;
  /** What is left of the run's token and cost budget; absent when nothing meters the call. */
  budget?: CallBudget;
  /** Whose call it is, for logs and rate windows. */
  tag?: { runId?: string; stepId?: string };
  /** Each request body exactly as it goes to the endpoint, retries included: the case file keeps them (docs/case-file.md). */
  onRequest?: (body: Record<string, unknown>) => void;
};

export interface LanguageModel {
  readonly name: ProviderName;
  readonly model: string;
  complete(call: ModelCall): Promise<ModelResult>;
}

export type GenerateRequest = StepInput &
  Pick<ModelCall, 'repair' | 'maxTokens' | 'signal' | 'onWait' | 'budget' | 'onRequest'> & {
    /** The step's output schema (zod) and its JSON Schema form for structured output. */
    schema: ZodType;
    jsonSchema: Record<string, unknown>;
    /** Present only for steps allowed to search. */
    tools: Pick<ModelCall, 'webSearch'>;
    /** The raw answer as it streams: the engine shows it to viewers as a partial answer (lib/debate/live-step.ts). */
    onToken: (text: string) => void;
  };

/**
 * The run's budget as one model call sees it (lib/debate/budget.ts keeps the count). A provider
 * asks before each request how many completion tokens it may ask for, and reports tokens as they
 * stream; when the run's budget is crossed the run's `signal` aborts, every step's stream stops.
 */
export type CallBudget = {
  /**
   * Before a request: records its prompt (an estimate, in tokens) and returns the most completion
   * tokens it may produce — what is left of the run's tokens, and of its dollars at the model's
   * price — or undefined when the run has no budget. When not even the prompt fits it stops the
   * run and throws: the request must not be sent.
   */
  allow(promptTokens: number): number | undefined;
  /** Completion tokens as they arrive (an estimate until the call's usage is known). */
  spend(completionTokens: number): void;
  /** The endpoint stopped a request at the allowance `allow` gave: the run's budget is used up. */
  exhausted(): void;
};

/**
 * What a call that threw had spent: the prompts of the requests the endpoint took and the tokens
 * they streamed, estimated where the endpoint did not say. A provider attaches it to its error
 * (`withSpent`) so the run's totals, its budget and the rate windows count the failed call too.
 */
export type SpentUsage = { promptTokens: number; completionTokens: number };

export function withSpent<E>(err: E, spent: SpentUsage): E {
  if (err !== null && typeof err === 'object') Object.defineProperty(err, 'spent', { value: { ...spent }, configurable: true });
  return err;
}

/** The spend a provider attached to its error, if any. */
export function spentBy(err: unknown): SpentUsage | undefined {
  const spent = err !== null && typeof err === 'object' ? (err as { spent?: unknown }).spent : undefined;
  if (!spent || typeof spent !== 'object') return undefined;
  const { promptTokens, completionTokens } = spent as Partial<SpentUsage>;
  return typeof promptTokens === 'number' && typeof completionTokens === 'number' ? { promptTokens, completionTokens } : undefined;
}

export type ModelResult = {
  /** The raw JSON the model produced (validated by the engine, not here). */
  raw: string;
  /**
   * Every request the call made, those that failed and were retried included. `cachedTokens`: of
   * the prompt tokens, those the endpoint said its prompt cache served (absent when it did not say).
   */
  usage: { promptTokens: number; completionTokens: number; cachedTokens?: number };
  toolCalls: ToolCallRecord[];
  /** Milliseconds spent waiting on the model (for the engine-overhead benchmark). */
  modelMs: number;
  /** Why the model stopped, as the API says it (`stop`, `length`: cut off at the token limit, `content_filter`, …). */
  finishReason?: string;
  /** The model's refusal, when the API reports one apart from the answer. */
  refusal?: string;
};

/** A step's answer: a model's, or the offline analyst's in the same shape. */
export type GenerateResult = ModelResult;

/** The step writer the engine calls. */
export interface ModelProvider {
  readonly name: ProviderName;
  readonly model: string;
  /** False for the offline analyst: the UI says plainly that it is not an LLM. */
  readonly isLLM: boolean;
  /** The model behind the steps, for calls that are not steps (judges, document reading); absent for the offline analyst. */
  readonly languageModel?: LanguageModel;
  generate(request: GenerateRequest): Promise<GenerateResult>;
}

/** A step as one model call: its prompt, its output schema (named after its output kind) and its run's settings. */
export function stepCall(request: GenerateRequest): ModelCall {
  return {
    system: request.prompt.system,
    user: request.prompt.user,
    output: { name: request.step.output, jsonSchema: request.jsonSchema },
    temperature: request.params.temperature,
    seed: request.params.seed,
    maxTokens: request.maxTokens,
    webSearch: request.tools.webSearch,
    repair: request.repair,
    signal: request.signal,
    onText: request.onToken,
    onWait: request.onWait,
    budget: request.budget,
    tag: { runId: request.runId, stepId: request.step.id },
    onRequest: request.onRequest,
  };
}

/** The step writer of a language model: each step is one `complete` call. */
export function stepWriter(model: LanguageModel): ModelProvider {
  return { name: model.name, model: model.model, isLLM: true, languageModel: model, generate: (request) => model.complete(stepCall(request)) };
}
