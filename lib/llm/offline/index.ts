// The built-in offline analyst: the default provider when no model is configured
// and a real choice for banks that may not send borrower data out. It is not a language model:
// it builds each step's output from the step's evidence, passages and context alone — never
// from the prompt — by fixed rules, so the same request always gives the same output. No
// network, no clock, no randomness. It streams its answer as a model does: the JSON, prose first,
// in word-sized pieces, so the engine reads both providers' streams the same way.
import type { OutputKind, StepOutput } from '@/lib/domain/outputs';
import { answerJson } from '@/lib/domain/step-output';
import { sectionOf } from '@/lib/domain/sections';
import type { Act, StepRole } from '@/lib/domain/protocol';
import { yieldToEventLoop } from '@/lib/event-loop';
import { sourceKeys, withSourceKeys } from '@/lib/domain/source-keys';
import type { GenerateRequest, GenerateResult, ModelProvider } from '@/lib/llm/types';
import { briefing } from './briefing';
import { closing } from './closing';
import { constructive } from './constructive';
import { makeEnv, makeEnvYielding, sideOf, type Env } from './env';
import { leaderDraft, safetyCheck, skeptic, stanceDraft, trust, writeDraft } from './findebate';
import { crossExamination } from './questions';
import { rebuttal } from './rebuttal';
import { addressesRedFlags, addressRedFlags } from './red-flags';
import { aggregate, poolReport } from './report';
import { followUp, judgeRebuttals, sasJudgment, sasStress } from './sas';
import { sasLead } from './sas-lead';
import { answerPieces } from './text';
import { argumentsRound, closingRound, responsesRound, rubricJudgment } from './three-round';

export const OFFLINE_MODEL = 'offline-analyst-1';

/** Pieces handed to `onToken` between yields to the event loop, so a long turn does not block it. */
const PIECES_PER_YIELD = 16;

type Builder<K extends OutputKind> = (env: Env) => StepOutput<K>;

/**
 * How the analyst writes one output kind: by the step's role where the role decides (FinDebate's
 * trust agent and skeptic both speak a `debate` act), else by its act, else `otherwise`.
 */
type Builders<K extends OutputKind> = {
  byRole?: Partial<Record<StepRole, Builder<K>>>;
  byAct?: Partial<Record<Act, Builder<K>>>;
  otherwise: Builder<K>;
};

const BUILDERS: { [K in OutputKind]: Builders<K> } = {
  turn: {
    byRole: { trust, skeptic },
    byAct: {
      constructive,
      opening: constructive,
      'cross-examination': crossExamination,
      challenge: crossExamination,
      rebuttal,
      closing,
      judgment: judgeRebuttals,
      'follow-up': followUp,
      // A debate turn of no declared part: the negative team probes, any other strengthens.
      debate: (env) => (env.step.team === 'negative' ? skeptic(env) : trust(env)),
    },
    otherwise: (env) => (sideOf(env.step) ? constructive(env) : { ...briefing(env), questions: [] }),
  },
  // With debate turns in context it is the aggregator's report; without, NAS's report on the pool.
  report: { otherwise: (env) => (env.debate.turns.some((t) => t.claims.length || t.questions.length) ? aggregate(env) : poolReport(env)) },
  briefing: { otherwise: briefing },
  sasJudgment: { otherwise: sasJudgment },
  sasStress: { otherwise: sasStress },
  sasReport: { otherwise: sasLead },
  argumentsRound: { otherwise: argumentsRound },
  responsesRound: { otherwise: responsesRound },
  closingRound: { otherwise: closingRound },
  rubricJudgment: { otherwise: rubricJudgment },
  stanceDraft: { byRole: { 'draft-writer': writeDraft, leader: leaderDraft }, otherwise: stanceDraft },
  safetyCheck: { otherwise: safetyCheck },
};

function builderFor(request: GenerateRequest): Builder<OutputKind> {
  const { step } = request;
  const builders = BUILDERS[step.output] as Builders<OutputKind> | undefined;
  if (!builders) throw new Error(`The offline analyst cannot write "${step.output}" outputs (step ${step.id}).`);
  return builders.byRole?.[step.role] ?? builders.byAct?.[step.act] ?? builders.otherwise;
}

/** The step's output, built synchronously from the request. Exported for tests and tooling. */
export function buildOutput(request: GenerateRequest): StepOutput {
  return write(builderFor(request), makeEnv(request));
}

/** The builder's output, with the run's red flags addressed first in a final step (red-flags.ts). */
function write(builder: Builder<OutputKind>, env: Env): StepOutput {
  const output = builder(env);
  return addressesRedFlags(env) ? addressRedFlags(env, output) : output;
}

/**
 * The same output, built with a turn of the event loop before, between slices of the pool (the
 * long part on a large pool) and after: the analyst runs in the web server's process, whose
 * health checks and pages must not wait behind a step. Stops between slices once aborted.
 */
export async function buildOutputYielding(request: GenerateRequest): Promise<StepOutput> {
  const builder = builderFor(request);
  const pause = async () => {
    await yieldToEventLoop();
    request.signal.throwIfAborted();
  };
  await pause();
  const env = await makeEnvYielding(request, pause);
  await pause();
  return write(builder, env);
}

function inputChars(request: GenerateRequest): number {
  let n = 0;
  for (const e of request.evidence) n += e.title.length + e.text.length + e.sourceName.length + (e.value?.length ?? 0);
  for (const p of request.passages) n += p.title.length + p.snippet.length + p.sourceName.length;
  for (const c of request.context) n += c.text.length + JSON.stringify(c.output ?? null).length;
  for (const w of request.part?.written ?? []) n += JSON.stringify(w.output).length;
  return n;
}

/**
 * Streams the answer piece by piece and meters its tokens against the run's budget as it goes,
 * spread over the pieces by length: a run that goes past its budget stops here mid-answer, as a
 * model's stream would.
 */
async function stream(raw: string, request: GenerateRequest, completionTokens: number): Promise<void> {
  const list = answerPieces(raw);
  const totalChars = list.reduce((n, p) => n + p.length, 0);
  let chars = 0;
  let metered = 0;
  for (let i = 0; i < list.length; i++) {
    if (i % PIECES_PER_YIELD === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    request.signal.throwIfAborted();
    request.onToken(list[i]);
    chars += list[i].length;
    const due = totalChars ? Math.ceil((completionTokens * chars) / totalChars) : completionTokens;
    if (due > metered) request.budget?.spend(due - metered);
    metered = Math.max(metered, due);
  }
  request.signal.throwIfAborted();
}

export function createOfflineAnalyst(): ModelProvider {
  return {
    name: 'offline',
    model: OFFLINE_MODEL,
    isLLM: false,
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      request.signal.throwIfAborted();
      // Citations by their source's key, as the prompt asks (lib/domain/source-keys.ts); the
      // engine gives them their names back when it takes the answer in.
      const output = withSourceKeys(await buildOutputYielding(request), sourceKeys(request.sources));
      // One call of a sectioned step (lib/domain/sections.ts): the whole answer is built as for
      // one call, and this call answers its share of it, so the parts join into that answer.
      const raw = request.part ? JSON.stringify(sectionOf(request.step.output, output, request.part)) : answerJson(request.step, output);
      const usage = { promptTokens: Math.ceil(inputChars(request) / 4), completionTokens: Math.ceil(raw.length / 4) };
      // Like a model's prompt, counted before anything streams; refused when it does not fit.
      request.budget?.allow(usage.promptTokens);
      await stream(raw, request, usage.completionTokens);
      return { raw, usage, toolCalls: [], modelMs: 0 };
    },
  };
}
