// Closings (KPD-MADS D9 and D10, SAS X-A and X-N): the side's case restated from its own earlier
// claims, the questions it received answered, and what remains open — with no factor and no
// evidence that its context did not already carry (every citation is copied, never looked up).
import type { Claim, Turn as TurnOutput } from '@/lib/domain/outputs';
import { sideOf, type Env } from './env';
import { citationKey, itemsOf, resolve, uniqueCitations } from './material';
import { answerClaim, questionsFor, worthAnswering } from './rebuttal';
import type { Side } from './select';
import { fit, marker, type Segment } from './text';

const MAX_CLAIMS = 5;

export function closing(env: Env): TurnOutput {
  const { step, P, pool, debate } = env;
  const side: Side = sideOf(step) ?? 'favorable';
  const ownTurns = debate.turns.filter((t) => t.team === step.team);
  const ownClaims = ownTurns.flatMap((t) => t.claims).filter((c) => c.citations.length > 0);
  const claims: Claim[] = [];
  const segments: Segment[] = [{ text: P.closingHeader(env.company, side), priority: 10 }];

  if (!ownClaims.length) {
    segments.push({ text: P.noMaterial(side), priority: 9 });
    return { text: fit(segments, step.maxChars), claims, questions: [] };
  }

  // The case itself: the constructive or opening claims, else whatever the side argued.
  const cases = ownTurns.filter((t) => t.act === 'constructive' || t.act === 'opening').flatMap((t) => t.claims);
  const basis = firstPerFactor(cases.length ? cases : ownClaims).map((c) => {
    const item = itemsOf(pool, c)[0];
    return { factor: c.factor, date: c.citations[0].date, stale: !!item?.stale };
  });
  segments.push({ text: P.closingBasis(basis), priority: 7 });

  // Answers: one claim per challenged claim, responding to the first question aimed at it.
  const received = questionsFor(env, step.team);
  const answered = new Set<string>();
  received.forEach(({ question, target }) => {
    if (!target || answered.has(target.id) || claims.length >= MAX_CLAIMS) return;
    // No counter-evidence behind the question: the claim stands as argued (restated below).
    if (!worthAnswering(env, question, target)) return;
    const claim = answerClaim(env, `${step.id}-c${claims.length + 1}`, question, target, side, claims.length);
    if (!claim) return;
    answered.add(target.id);
    claims.push(claim);
    segments.push({ text: `${marker(claims.length - 1, env.lang)} ${claim.text}`, priority: 8, join: 'line' });
  });

  // The rest of the case: each factor not yet covered, restated on the evidence it already had.
  for (const c of firstPerFactor(ownClaims)) {
    if (claims.length >= MAX_CLAIMS) break;
    if (claims.some((x) => x.factor === c.factor)) continue;
    const item = itemsOf(pool, c)[0];
    claims.push({
      id: `${step.id}-c${claims.length + 1}`,
      text: P.standing(c.factor, item, env.words(c.factor, item), side),
      factor: c.factor,
      polarity: c.polarity,
      citations: uniqueCitations(c.citations),
      assumptions: c.assumptions,
    });
  }

  const pressed = debate.questions((t) => t.team === step.team);
  if (pressed.length) {
    const labels = [...new Set(pressed.map((q) => debate.claimById(q.targetClaimId)?.factor).filter((f): f is string => !!f))].map((f) => P.label(f));
    const by = [...new Set(pressed.map((q) => debate.turnOfQuestion(q.id)?.stepId).filter(Boolean))].join(', ');
    segments.push({ text: P.pressed(by, pressed.length, labels), priority: 5, join: 'line' });
  }
  const stale = new Set(ownClaims.flatMap((c) => c.citations.filter((ci) => resolve(pool, ci)?.stale).map(citationKey))).size;
  const thin = new Set(ownClaims.map((c) => c.factor)).size < 3;
  segments.push({ text: P.uncertain({ stale, challenged: answered.size, thin }), priority: 6, join: 'line' });
  return { text: fit(segments, step.maxChars ?? 900), claims, questions: [] };
}

function firstPerFactor(claims: Claim[]): Claim[] {
  return claims.filter((c, i) => claims.findIndex((x) => x.factor === c.factor) === i);
}
