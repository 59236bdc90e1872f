// SAS after the openings: the devil's advocate judging the rebuttals (J-DA), the sides' answers
// to its follow-ups (F-A, F-N), the judge (JUDGE) and the stress analyst (STRESS). The judge's
// rule is transparent: the side whose case rests on more distinct dated evidence, fresh items
// counting double, plus the challenges it answered, held; a tie goes to the side arguing risk.
import type { Claim, Question, Turn as TurnOutput } from '@/lib/domain/outputs';
import { sasJudgment as judgmentSchema } from '@/lib/domain/outputs';
import type { Team } from '@/lib/domain/protocol';
import type { Turn } from './context';
import { quoteOf, sideOf, type Env } from './env';
import { citationKey, itemsOf, resolve, sourceKind } from './material';
import { panelFor } from './panel';
import { answerClaim } from './rebuttal';
import { counterexample, type Side } from './select';
import { fit, type Segment } from './text';

type SideTeam = 'affirmative' | 'negative';

const teamSide = (team: SideTeam): Side => (team === 'affirmative' ? 'favorable' : 'adverse');

/** What a team's case rests on: distinct cited items, how many fresh, and answers given. */
export function support(env: Env, team: Team) {
  const turns = env.debate.turns.filter((t) => t.team === team);
  const keys = new Map<string, boolean>();
  for (const c of turns.flatMap((t) => t.claims)) for (const ci of c.citations) keys.set(citationKey(ci), !(resolve(env.pool, ci)?.stale ?? false));
  const items = keys.size;
  const fresh = [...keys.values()].filter(Boolean).length;
  const answered = new Set(
    turns
      .flatMap((t) => t.claims)
      .map((c) => c.respondsTo)
      .filter((id): id is string => !!id && !!env.debate.turnOfQuestion(id)),
  ).size;
  return { items, fresh, answered, score: fresh + (items - fresh) * 0.5 + answered * 0.5 };
}

function weakness(env: Env, claim: Claim): 'stale' | 'reread' | null {
  const items = itemsOf(env.pool, claim);
  if (items.length && items.every((i) => i.stale)) return 'stale';
  if (items.some((i) => i.polarity !== 'context' && claim.polarity !== 'context' && i.polarity !== claim.polarity)) return 'reread';
  return null;
}

/** J-DA: each rebuttal judged against the challenges; one follow-up for a side that fell short. */
export function judgeRebuttals(env: Env): TurnOutput {
  const { debate, step } = env;
  const K = panelFor(env.lang);
  const challengeTurns = debate.turns.filter((t) => t.act === 'challenge');
  const questions: Question[] = [];
  const segments: Segment[] = [];
  for (const rebuttal of debate.turns.filter((t) => t.act === 'rebuttal' && t.team !== 'neutral')) {
    const ownClaims = new Set(debate.turns.filter((t) => t.team === rebuttal.team).flatMap((t) => t.claims.map((c) => c.id)));
    const put = challengeTurns.flatMap((t) => t.questions).filter((q) => ownClaims.has(q.targetClaimId) || q.targetClaimId === rebuttal.stepId);
    const answeredIds = new Set(rebuttal.claims.map((c) => c.respondsTo));
    const unanswered = put.filter((q) => !answeredIds.has(q.id));
    const weak = rebuttal.claims.map((c) => ({ c, why: weakness(env, c) })).find((x) => x.why);
    const convinced = rebuttal.claims.length > 0 && !unanswered.length && !weak;
    segments.push({
      text: K.verdict(rebuttal.stepId, rebuttal.team, convinced, { unanswered: unanswered.map((q) => q.id), weak: weak?.why ?? null }),
      priority: 10,
      join: 'line',
    });
    if (convinced) continue;
    const target = weak?.c ?? rebuttal.claims[0] ?? openingClaim(env, rebuttal.team);
    const text =
      unanswered.length && !weak
        ? K.pressUnanswered(unanswered[0].id, unanswered[0].text)
        : target
          ? followUpText(env, rebuttal, target, weak?.why ?? null)
          : K.pressEmpty(rebuttal.stepId);
    questions.push({
      id: `${step.id}-q${questions.length + 1}`,
      targetClaimId: target?.id ?? rebuttal.stepId,
      text,
      kind: weak?.why === 'stale' ? 'reliability' : 'testability',
    });
    segments.push({ text: `→ ${text}`, priority: 9, join: 'line' });
  }
  if (!segments.length) segments.push({ text: K.nothingToJudge(), priority: 10 });
  return { text: fit(segments, step.maxChars), claims: [], questions };
}

function openingClaim(env: Env, team: Team): Claim | undefined {
  return env.debate.turns.find((t) => t.team === team && (t.act === 'opening' || t.act === 'constructive'))?.claims[0];
}

function followUpText(env: Env, turn: Turn, target: Claim, why: 'stale' | 'reread' | null): string {
  const item = itemsOf(env.pool, target)[0];
  return env.P.question({
    kind: why === 'stale' ? 'reliability' : 'testability',
    step: turn.stepId,
    quote: quoteOf(env, target),
    factor: target.factor,
    words: env.words(target.factor, item),
    item,
    sourceKind: item ? sourceKind(item) : undefined,
    counter: counterexample(env.pool, target),
    against: target.polarity === 'favorable' ? 'favorable' : 'adverse',
    itemAgainst: why === 'reread',
    asOf: env.pool.asOf,
    recencyDays: env.pool.recencyDays,
  });
}

/** F-A, F-N: answer the devil's advocate's follow-up, or say there was none. */
export function followUp(env: Env): TurnOutput {
  const { debate, step } = env;
  const side: Side = sideOf(step) ?? 'favorable';
  const judging = new Set(debate.turns.filter((t) => t.act === 'judgment').map((t) => t.stepId));
  const own = debate.turns.filter((t) => t.team === step.team);
  const ownClaims = new Map(own.flatMap((t) => t.claims.map((c) => [c.id, c] as const)));
  const asked = debate.questions((t) => judging.has(t.stepId)).filter((q) => ownClaims.has(q.targetClaimId) || own.some((t) => t.stepId === q.targetClaimId));
  const K = panelFor(env.lang);
  if (!asked.length) return { text: K.noFollowUp(side), claims: [], questions: [] };
  const claims: Claim[] = [];
  const lines: Segment[] = [];
  asked.forEach((q, i) => {
    const target = ownClaims.get(q.targetClaimId);
    const claim = answerClaim(env, `${step.id}-c${claims.length + 1}`, q, target, side, i);
    if (claim) claims.push(claim);
    lines.push({ text: claim?.text ?? K.cannotAnswer(q.id), priority: 9, join: 'line' });
  });
  return { text: fit(lines, step.maxChars), claims, questions: [] };
}

export function sasJudgment(env: Env) {
  const aff = support(env, 'affirmative');
  const neg = support(env, 'negative');
  const winner: SideTeam = aff.score > neg.score ? 'affirmative' : 'negative';
  return { winner, justification: panelFor(env.lang).judgment(winner, aff, neg) };
}

/** The winner's claim that can least afford to be wrong: stale, reread, challenged, single-sourced. */
export function fragileClaim(env: Env, team: SideTeam): Claim | undefined {
  const claims = env.debate.turns
    .filter((t) => t.team === team)
    .flatMap((t) => t.claims)
    .filter((c) => c.citations.length);
  const targeted = new Set(env.debate.questions().map((q) => q.targetClaimId));
  let best: Claim | undefined;
  let bestScore = -1;
  for (const c of claims) {
    const why = weakness(env, c);
    const s =
      (why === 'stale' ? 2 : 0) +
      (why === 'reread' ? 2 : 0) +
      (c.polarity === 'context' ? 1 : 0) +
      (targeted.has(c.id) ? 1 : 0) +
      (c.citations.length === 1 ? 0.5 : 0) +
      (counterexample(env.pool, c) ? 1 : 0);
    if (s > bestScore) [best, bestScore] = [c, s];
  }
  return best;
}

export function winnerOf(env: Env): SideTeam {
  return env.debate.first(judgmentSchema)?.output.winner ?? sasJudgment(env).winner;
}

export function sasStress(env: Env) {
  const K = panelFor(env.lang);
  const winner = winnerOf(env);
  const side = teamSide(winner);
  const claim = fragileClaim(env, winner);
  if (!claim) return { assumption: K.noCaseAssumption(winner), critique: K.noCaseCritique(winner) };
  const item = itemsOf(env.pool, claim)[0];
  const w = env.words(claim.factor, item);
  const assumption = claim.assumptions?.[0] ?? (side === 'favorable' ? w.favAssumption : w.advAssumption);
  const counter = counterexample(env.pool, claim);
  return {
    assumption: K.assumption(claim.factor, assumption),
    critique: K.critique({
      factor: claim.factor,
      item,
      counter,
      challenged: env.debate.questions().some((q) => q.targetClaimId === claim.id),
      falsifier: side === 'favorable' ? w.favFalsifier : w.advFalsifier,
    }),
  };
}
