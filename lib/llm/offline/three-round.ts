// The three-round debate (lib/debate/protocols/three-round.ts): numbered arguments,
// point-by-point responses, closings, and the rubric judge. The judge's scores come from rules
// an RM can check by hand — what the argument cites, how old it is, how it fared in round 2 —
// written out below.
import { argumentsRound as argumentsSchema, responsesRound as responsesSchema, type Citation, type Claim, type StepOutput } from '@/lib/domain/outputs';
import type { Team } from '@/lib/domain/protocol';
import { sideAverage, weightedScore } from '@/lib/domain/rubric';
import type { Turn } from './context';
import { sideOf, type Env } from './env';
import { isGuideline } from './lexicon';
import { citationOf, resolve, sourceKind, type Item } from './material';
import { panelFor } from './panel';
import { counterFor, selectSignals, type Side } from './select';
import { fit, wordCount, type Segment } from './text';

type Argument = StepOutput<'argumentsRound'>['arguments'][number];
type Response = StepOutput<'responsesRound'>['responses'][number];

export function argumentsRound(env: Env): StepOutput<'argumentsRound'> {
  const { step, P, pool } = env;
  const K = panelFor(env.lang);
  const side: Side = sideOf(step) ?? 'favorable';
  const selection = selectSignals(pool, { side, count: 5 });
  // Three arguments whatever it takes; a fourth and fifth only on fresh factors of their own.
  const picks = selection.picks.filter((p, i) => i < 3 || p.mode === 'direct');
  const args: Argument[] = picks.map((p, i) => {
    const w = env.words(p.item.factor, p.item);
    return {
      id: `${step.id}-${i + 1}`,
      claim: K.argClaim(p.item, side),
      reasoning: K.argReasoning(p, side, w),
      factor: p.item.factor,
      evidence: [citationOf(p.item)],
    };
  });
  const segments: Segment[] = [{ text: K.argsHeader(side, env.company, args.length), priority: 10 }];
  args.forEach((a, i) => segments.push({ text: `${i + 1}. ${a.claim} ${a.reasoning}`, priority: 8, join: 'line' }));
  if (picks.length < 3 || selection.thin) {
    segments.push({
      text: P.thinNote({
        given: pool.given,
        found: picks.length,
        wanted: 3,
        factors: new Set(picks.map((p) => p.item.factor)).size,
        side,
        reread: picks.some((p) => p.mode === 'reread'),
      }),
      priority: 9,
      join: 'line',
    });
  }
  return { text: fit(segments, step.maxChars), arguments: args };
}

function roundOf(env: Env, team: Team): { turn: Turn; args: Argument[] } | undefined {
  const found = env.debate.first(argumentsSchema, (t) => t.team === team);
  return found && { turn: found.turn, args: found.output.arguments };
}

function responsesOf(env: Env, team: Team): Response[] {
  return env.debate.first(responsesSchema, (t) => t.team === team)?.output.responses ?? [];
}

function asClaim(a: Argument, side: Side): Claim {
  return { id: a.id, text: a.claim, factor: a.factor, polarity: side, citations: a.evidence };
}

const other = (team: Team): Team => (team === 'affirmative' ? 'negative' : 'affirmative');

export function responsesRound(env: Env): StepOutput<'responsesRound'> {
  const { step, pool } = env;
  const K = panelFor(env.lang);
  const side: Side = sideOf(step) ?? 'favorable';
  const opposing = roundOf(env, other(step.team));
  const avoid = new Set<string>();
  const responses: Response[] = (opposing?.args ?? []).map((a) => {
    const theirs = a.evidence.map((c) => resolve(pool, c)).filter((i): i is Item => !!i);
    const counter = counterFor(pool, asClaim(a, side === 'favorable' ? 'adverse' : 'favorable'), side, avoid);
    if (counter && counter.mode !== 'reinterpret') avoid.add(counter.item.key);
    const newest = theirs[0];
    let kind: Response['kind'];
    // Refuted only by counter-evidence at least as new as the argument's own; older counter-evidence qualifies it.
    if (counter?.mode === 'counter' && (!newest || (counter.item.date >= newest.date && !(counter.item.stale && !newest.stale)))) kind = 'refute';
    else if (!theirs.length || theirs.every((i) => i.stale)) kind = 'challenge';
    else if (counter?.mode === 'counter' || counter?.mode === 'context' || newest?.polarity === 'context' || newest?.category === 'risk_factor')
      kind = 'partial';
    else kind = 'concede';
    const w = env.words(a.factor, counter?.item ?? newest);
    return {
      targetId: a.id,
      kind,
      reasoning: K.responseReasoning(kind, { factor: a.factor, theirs: newest, counter: counter?.item, side, words: w }),
      followUp: K.responseFollowUp(kind, { factor: a.factor, theirs: newest, side, words: w }),
    };
  });
  const segments: Segment[] = [{ text: K.responsesHeader(opposing?.turn.stepId ?? step.context[0] ?? '', responses.length), priority: 10 }];
  responses.forEach((r) => segments.push({ text: K.responseLine(r), priority: 8, join: 'line' }));
  return { text: fit(segments, step.maxChars), responses };
}

export function closingRound(env: Env): StepOutput<'closingRound'> {
  const { step } = env;
  const K = panelFor(env.lang);
  const side: Side = sideOf(step) ?? 'favorable';
  const mine = roundOf(env, step.team)?.args ?? [];
  const theirArgs = roundOf(env, other(step.team))?.args ?? [];
  const conceded = responsesOf(env, step.team).filter((r) => r.kind === 'concede' || r.kind === 'partial');
  const concessions = conceded.map((r) =>
    K.concession(
      r,
      theirArgs.find((a) => a.id === r.targetId),
    ),
  );
  const answers = responsesOf(env, other(step.team));
  const refuted = mine.filter((a) => answers.some((r) => r.targetId === a.id && r.kind === 'refute')).map((a) => a.id);
  const unrebutted = mine.filter((a) => !refuted.includes(a.id)).map((a) => a.id);
  const finalPosition = K.finalPosition(side, env.company, { standing: unrebutted.length, refuted: refuted.length, conceded: conceded.length });
  let text = K.closingText({ side, concessions, unrebutted, refuted, finalPosition });
  // ≤ 200 words whatever the character limit says.
  while (wordCount(text) > 200 && concessions.length) {
    concessions.pop();
    text = K.closingText({ side, concessions, unrebutted, refuted, finalPosition });
  }
  return { text: fit([{ text, priority: 10 }], step.maxChars), concessions, unrebutted, finalPosition };
}

const FALLACY_FREE: StepOutput<'rubricJudgment'>['fallacies'] = [];

/**
 * Scores, 1–10:
 * - logic: 6, +2 on a guideline factor, +1 when the cited item is tagged the way the argument
 *   reads it, −3 if refuted in round 2, −1 if only partly conceded by the other side.
 * - evidence: 2 + 3 per resolvable citation (at most 2) + 2 when one is fresh, −1 when all are stale.
 * - responsiveness: 1 + 9 × the share of opposing arguments the side answered in round 2.
 * - honesty: 9, −1 for stale evidence, −2 when the item is tagged against the reading, +1 when
 *   the side conceded anything.
 */
export function rubricJudgment(env: Env): StepOutput<'rubricJudgment'> {
  const K = panelFor(env.lang);
  const clamp = (n: number) => Math.max(1, Math.min(10, Math.round(n * 10) / 10));
  const scores: StepOutput<'rubricJudgment'>['scores'] = [];
  const trace: StepOutput<'rubricJudgment'>['trace'] = [];
  const fallacies = [...FALLACY_FREE];
  const weighted = { affirmative: [] as number[], negative: [] as number[] };
  const unresolved: string[] = [];
  let best: { id: string; weighted: number; factor: string } | undefined;

  for (const team of ['affirmative', 'negative'] as const) {
    const side: Side = team === 'affirmative' ? 'favorable' : 'adverse';
    const args = roundOf(env, team)?.args ?? [];
    const answeredByThem = responsesOf(env, other(team));
    const ownResponses = responsesOf(env, team);
    const opposingCount = roundOf(env, other(team))?.args.length ?? 0;
    const answeredShare = opposingCount ? Math.min(1, new Set(ownResponses.map((r) => r.targetId)).size / opposingCount) : 0;
    const concededAny = ownResponses.some((r) => r.kind === 'concede' || r.kind === 'partial');
    for (const a of args) {
      const items = a.evidence.map((c: Citation) => resolve(env.pool, c)).filter((i): i is Item => !!i);
      const response = answeredByThem.find((r) => r.targetId === a.id);
      const against = items.some((i) => i.polarity !== 'context' && i.polarity !== side);
      const anyFresh = items.some((i) => !i.stale);
      const allStale = items.length > 0 && !anyFresh;
      const logic = clamp(
        6 + (isGuideline(a.factor) ? 2 : 0) + (items.length && !against ? 1 : 0) - (response?.kind === 'refute' ? 3 : response?.kind === 'partial' ? 1 : 0),
      );
      const evidence = clamp(2 + 3 * Math.min(2, items.length) + (anyFresh ? 2 : 0) - (allStale ? 1 : 0));
      const responsiveness = clamp(1 + 9 * answeredShare);
      const honesty = clamp(9 - (allStale ? 1 : 0) - (against ? 2 : 0) + (concededAny ? 1 : 0));
      const score = weightedScore({ logic, evidence, responsiveness, honesty });
      scores.push({ argumentId: a.id, logic, evidence, responsiveness, honesty, weighted: score });
      weighted[team].push(score);
      if (!best || score > best.weighted) best = { id: a.id, weighted: score, factor: a.factor };
      if (items.length === 1 && sourceKind(items[0]) === 'news')
        fallacies.push({ argumentId: a.id, fallacy: 'anecdotal_evidence', explanation: K.anecdotal(items[0]) });
      const standing = !response
        ? evidence >= 6
          ? 'UPHELD'
          : 'UNCERTAIN'
        : response.kind === 'refute'
          ? 'REFUTED'
          : response.kind === 'challenge'
            ? 'UNCERTAIN'
            : response.kind === 'partial'
              ? 'PARTIALLY_UPHELD'
              : 'UPHELD';
      trace.push({ argumentId: a.id, standing, note: K.traceNote(standing, response?.kind, items[0]) });
      if (response && (response.kind === 'challenge' || response.kind === 'partial')) unresolved.push(`${a.id}: ${response.followUp}`);
    }
  }
  // Each side's total is the average of its weighted scores, as the engine recomputes it: a sum
  // would favour the side that put forward more arguments.
  const totals = { affirmative: sideAverage(weighted.affirmative), negative: sideAverage(weighted.negative) };
  return {
    scores,
    fallacies,
    trace,
    overall: {
      affirmativeTotal: totals.affirmative,
      negativeTotal: totals.negative,
      keyInsight: K.keyInsight(best, totals),
      unresolved,
      recommendation: K.recommendation(totals, unresolved.length),
    },
  };
}
