// Which pool items a step sees. In the debate each side argues from the evidence on its side —
// items read its way or either way (`context`, or untagged) — and meets the other side's
// evidence through the other side's turns, whose cited items it always sees:
// - `side`: the opening speech picks its signals from all of its side's items;
// - `fresh-factors`: the answering constructive, which must widen the picture (D3 in
//   lib/debate/protocols/kpd-mads.ts), from its side's items on factors its context did not use;
// - `context-factors`: a cross-examination or rebuttal, from its side's items on the factors
//   the turns it answers argue, plus every item those turns cite — what it needs to question a
//   reading, find a dated counterexample or reinterpret a signal.
// That keeps prompts small (the evidence block is most of a prompt); the single-agent and
// judge-based systems keep `pool`: everything. A specialist that reads documents with a `lane`
// (FinDebate's five) sees the pool items of its lane only, beside the passages retrieved for it;
// the lanes together show every item (docs/protocols.md, FinDebate). FinDebate's trust agent and
// skeptic, which answer the draft, are shown what their `turnLane` reads off the turns they
// receive: to the trust agent, the items that could back the draft's claims; to the skeptic, the
// risks neither turn cites, and the trust agent's items and what reads otherwise on its factors,
// to test its support.
import { isFactorId } from '@/lib/domain/factors';
import { citationsOf, claimsOf } from '@/lib/domain/output-parts';
import type { PoolLane, StepDef, TurnLane } from '@/lib/domain/protocol';
import type { ContextTurn } from '@/lib/llm/types';
import type { EvidenceAsOf } from '@/lib/pool/as-of';

/** Whether the item is in the lane: on one of its factors (outside the ten or untagged: `other`), or read adverse when the lane takes those. */
export function inLane(lane: PoolLane, e: Pick<EvidenceAsOf, 'factor' | 'polarity'>): boolean {
  const factor = e.factor && isFactorId(e.factor) ? e.factor : 'other';
  return lane.factors.includes(factor) || (lane.adverse === true && e.polarity === 'adverse');
}

/** A factor as lanes read it: outside the ten, or untagged, it is `other`. */
const laneFactor = (factor: string | null | undefined) => (factor && isFactorId(factor) ? factor : 'other');

/** Ids the turns cite. */
const citedBy = (turns: ContextTurn[]) => new Set(turns.flatMap((t) => citationsOf(t.output).map((c) => c.evidenceId)).filter((id): id is string => Boolean(id)));

/**
 * The items of a turn lane, in pool order. An item backs a claim when it is on the claim's factor
 * and does not read against it (both directional, opposite ways): the trust agent strengthens the
 * draft's claims without moving its stance, so a reading against one is not its material, and the
 * items the draft cites it reads in the draft's claims, quoted with id, date and source. An item
 * checks a claim when the claim cites it, or when it is on the claim's factor and read otherwise
 * (against it, either way, or untagged): what the skeptic needs to show the support overreaches.
 */
export function inTurnLane(lane: TurnLane, pool: EvidenceAsOf[], context: ContextTurn[]): EvidenceAsOf[] {
  const turns = (ids: string[] | undefined) => context.filter((t) => ids?.includes(t.stepId));
  const backed = turns(lane.backs);
  const toBack = backed.flatMap((t) => claimsOf(t.output));
  const backedCites = citedBy(backed);
  const checked = turns(lane.checks);
  const checkedCites = citedBy(checked);
  const toCheck = checked.flatMap((t) => claimsOf(t.output));
  const allCites = citedBy(context);
  const against = (a: string | null | undefined, b: string | null | undefined) => (a === 'favorable' && b === 'adverse') || (a === 'adverse' && b === 'favorable');
  const backs = (e: EvidenceAsOf) => !backedCites.has(e.id) && toBack.some((c) => laneFactor(c.factor) === laneFactor(e.factor) && !against(c.polarity, e.polarity));
  // Another item read the claim's way would back it, not test it.
  const checks = (e: EvidenceAsOf) => checkedCites.has(e.id) || toCheck.some((c) => laneFactor(c.factor) === laneFactor(e.factor) && e.polarity !== c.polarity);
  const fresh = (e: EvidenceAsOf) => lane.adverse === true && e.polarity === 'adverse' && !allCites.has(e.id);
  return pool.filter((e) => backs(e) || checks(e) || fresh(e));
}

export function visibleEvidence(step: Pick<StepDef, 'evidence' | 'team' | 'lane' | 'turnLane'>, pool: EvidenceAsOf[], context: ContextTurn[]): EvidenceAsOf[] {
  if (step.evidence === 'none') return [];
  const lane = step.evidence === 'documents' ? step.lane : undefined;
  if (lane) return pool.filter((e) => inLane(lane, e));
  if (step.evidence === 'documents' && step.turnLane) return inTurnLane(step.turnLane, pool, context);
  if (step.evidence === 'pool' || step.evidence === 'documents') return pool;
  const against = step.team === 'affirmative' ? 'adverse' : step.team === 'negative' ? 'favorable' : null;
  const ownSide = (e: EvidenceAsOf) => against === null || e.polarity !== against;
  if (step.evidence === 'side') return pool.filter(ownSide);
  const factors = new Set(context.flatMap((t) => claimsOf(t.output).map((c) => c.factor)));
  const cited = new Set(context.flatMap((t) => citationsOf(t.output).map((c) => c.evidenceId)).filter((id): id is string => Boolean(id)));
  const factorOf = (e: EvidenceAsOf) => e.factor ?? 'other';
  // `other` is never a used factor: untagged items stay open to the answering constructive.
  if (step.evidence === 'fresh-factors') return pool.filter((e) => ownSide(e) && !cited.has(e.id) && (!factors.has(factorOf(e)) || factorOf(e) === 'other'));
  return pool.filter((e) => cited.has(e.id) || (factors.has(factorOf(e)) && ownSide(e)));
}
