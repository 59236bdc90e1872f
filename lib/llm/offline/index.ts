// The built-in offline analyst (DESIGN.md §5): the default provider when no model is configured
// and a real choice for banks that may not send borrower data out. It is not a language model:
// it builds each step's output from the step's evidence, passages and context alone — never
// from the prompt — by fixed rules, so the same request always gives the same output. No
// network, no clock, no randomness. It streams its text word by word like a model would.
import type { OutputKind, StepOutput } from '@/lib/debate/schemas';
import type { GenerateRequest, GenerateResult, ModelProvider } from '@/lib/llm/types';
import { briefing } from './briefing';
import { closing } from './closing';
import { constructive } from './constructive';
import { makeEnv, sideOf, type Env } from './env';
import { safetyCheck, skeptic, stanceDraft, trust } from './findebate';
import { crossExamination } from './questions';
import { rebuttal } from './rebuttal';
import { aggregate, poolReport } from './report';
import { followUp, judgeRebuttals, sasJudgment, sasStress } from './sas';
import { sasLead } from './sas-lead';
import { chunks, pieces } from './text';
import { argumentsRound, closingRound, responsesRound, rubricJudgment } from './three-round';

export const OFFLINE_MODEL = 'offline-analyst-1';

/** Pieces handed to `onToken` between yields to the event loop, so a long turn does not block it. */
const PIECES_PER_YIELD = 16;

function turn(env: Env): StepOutput<'turn'> {
  const { step } = env;
  switch (step.act) {
    case 'constructive':
    case 'opening':
      return constructive(env);
    case 'cross-examination':
    case 'challenge':
      return crossExamination(env);
    case 'rebuttal':
      return rebuttal(env);
    case 'closing':
      return closing(env);
    case 'judgment':
      return judgeRebuttals(env);
    case 'follow-up':
      return followUp(env);
    case 'debate':
      if (/trust/i.test(`${step.id} ${step.agent}`)) return trust(env);
      if (/skeptic/i.test(`${step.id} ${step.agent}`) || step.team === 'negative') return skeptic(env);
      return trust(env);
    default:
      return sideOf(step) ? constructive(env) : { ...briefing(env), questions: [] };
  }
}

const BUILDERS: { [K in OutputKind]: (env: Env) => StepOutput<K> } = {
  turn,
  // With debate turns in context it is the aggregator's report; without, NAS's report on the pool.
  report: (env) => (env.debate.turns.some((t) => t.claims.length || t.questions.length) ? aggregate(env) : poolReport(env)),
  briefing,
  sasJudgment,
  sasStress,
  sasReport: sasLead,
  argumentsRound,
  responsesRound,
  closingRound,
  rubricJudgment,
  stanceDraft,
  safetyCheck,
};

/** The step's output, built synchronously from the request. Exported for tests and tooling. */
export function buildOutput(request: GenerateRequest): StepOutput {
  const builder = BUILDERS[request.step.output] as ((env: Env) => StepOutput) | undefined;
  if (!builder) throw new Error(`The offline analyst cannot write "${request.step.output}" outputs (step ${request.step.id}).`);
  return builder(makeEnv(request));
}

function inputChars(request: GenerateRequest): number {
  let n = 0;
  for (const e of request.evidence) n += e.title.length + e.text.length + e.sourceName.length + (e.value?.length ?? 0);
  for (const p of request.passages) n += p.title.length + p.snippet.length + p.sourceName.length;
  for (const c of request.context) n += c.text.length + JSON.stringify(c.output ?? null).length;
  return n;
}

async function stream(text: string, isText: boolean, request: GenerateRequest): Promise<void> {
  const list = isText ? pieces(text) : chunks(text);
  for (let i = 0; i < list.length; i++) {
    if (i % PIECES_PER_YIELD === 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      request.signal.throwIfAborted();
    }
    request.onToken(list[i]);
  }
}

export function createOfflineAnalyst(): ModelProvider {
  return {
    name: 'offline',
    model: OFFLINE_MODEL,
    isLLM: false,
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      request.signal.throwIfAborted();
      const output = buildOutput(request);
      const raw = JSON.stringify(output);
      const text = (output as { text?: unknown }).text;
      await stream(typeof text === 'string' ? text : raw, typeof text === 'string', request);
      return {
        raw,
        usage: { promptTokens: Math.ceil(inputChars(request) / 4), completionTokens: Math.ceil(raw.length / 4) },
        toolCalls: [],
        modelMs: 0,
      };
    },
  };
}
