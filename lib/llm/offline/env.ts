// Everything one step's builder needs, derived once from the request: the language's phrases,
// the parsed context and the material the step may cite.
import type { Claim, Turn as TurnOutput } from '@/lib/domain/outputs';
import type { Language, StepDef } from '@/lib/domain/protocol';
import type { GenerateRequest } from '@/lib/llm/types';
import { Debate } from './context';
import { words, type FactorWords } from './lexicon';
import { buildPool, buildPoolYielding, citationOf, resolve, shorten, type Item, type Pool } from './material';
import type { Phrases } from './phrases';
import { PHRASES_EN } from './phrases-en';
import { PHRASES_KO } from './phrases-ko';
import type { Pick, Side } from './select';

export type Env = {
  request: GenerateRequest;
  step: StepDef;
  lang: Language;
  P: Phrases;
  debate: Debate;
  pool: Pool;
  /** The borrower's name as prose uses it. */
  company: string;
  words(factor: string, item?: Item): FactorWords;
};

export function phrasesFor(lang: Language): Phrases {
  return lang === 'ko' ? PHRASES_KO : PHRASES_EN;
}

export function makeEnv(request: GenerateRequest): Env {
  const debate = new Debate(request.context, request.protocol.steps);
  return envOf(request, debate, buildPool(request, debate.claims()));
}

/** makeEnv with `pause()` between slices of the pool's build (buildPoolYielding). */
export async function makeEnvYielding(request: GenerateRequest, pause: () => Promise<void>): Promise<Env> {
  const debate = new Debate(request.context, request.protocol.steps);
  return envOf(request, debate, await buildPoolYielding(request, debate.claims(), pause));
}

function envOf(request: GenerateRequest, debate: Debate, pool: Pool): Env {
  const lang: Language = request.params.language === 'ko' ? 'ko' : 'en';
  const P = phrasesFor(lang);
  return {
    request,
    step: request.step,
    lang,
    P,
    debate,
    pool,
    company: P.company(request.company),
    words: (factor, item) => words(lang, factor, item?.category, item?.signal, item),
  };
}

/** The side a step argues: its polarity rule first, then its team. Neutral steps get null. */
export function sideOf(step: StepDef): Side | null {
  if (step.rules?.polarity === 'favorable') return 'favorable';
  if (step.rules?.polarity === 'adverse' || step.rules?.polarity === 'adverse-or-context') return 'adverse';
  if (step.team === 'affirmative') return 'favorable';
  if (step.team === 'negative') return 'adverse';
  return null;
}

/** A claim's polarity as the step argues it; context-read items stay `context` for the negative. */
export function claimPolarity(pick: Pick, side: Side): Claim['polarity'] {
  if (side === 'favorable') return 'favorable';
  return pick.mode === 'context' || pick.item.polarity === 'context' ? 'context' : 'adverse';
}

export function claimFromPick(env: Env, id: string, pick: Pick, side: Side): Claim {
  const w = env.words(pick.item.factor, pick.item);
  return {
    id,
    text: env.P.claim(pick, side, w),
    factor: pick.item.factor,
    polarity: claimPolarity(pick, side),
    citations: [citationOf(pick.item)],
    assumptions: [env.P.assumption(pick, side, w)],
  };
}

export function emptyTurn(text: string): TurnOutput {
  return { text, claims: [], questions: [] };
}

/** The short quotation a question or rebuttal opens with: the cited title, else the claim's start. */
export function quoteOf(env: Env, claim: Claim, max = env.lang === 'ko' ? 30 : 56): string {
  const first = claim.citations[0];
  const item = first ? resolve(env.pool, first) : undefined;
  const source = item ? item.title : claim.text.replace(/^[^:：]{1,40}[:：]\s*/, '');
  const flat = source.replace(/[“”"]/g, '').replace(/\s+/g, ' ').trim();
  return shorten(flat, max);
}
