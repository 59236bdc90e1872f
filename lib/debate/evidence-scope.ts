// Which pool items a step sees. In the debate each side argues from the evidence on its side —
// items read its way or either way (`context`, or untagged) — and meets the other side's
// evidence through the other side's turns, whose cited items it always sees:
// - `side`: the opening speech picks its signals from all of its side's items;
// - `fresh-factors`: the answering constructive, which must widen the picture (D3 in
//   lib/debate/protocols/kpd-mads.ts), from its side's items on factors its context did not use;
// - `context-factors`: a cross-examination or rebuttal, from its side's items on the factors
//   the turns it answers argue, plus every item those turns cite — what it needs to question a
//   reading, find a dated counterexample or reinterpret a signal.
// Each of the three shows at most a dozen items, the most material (`mostMaterial`), and always
// the cited ones. That keeps prompts small (the evidence block is most of a prompt); the single-agent and
// judge-based systems keep `pool`: everything. A specialist that reads documents with a `lane`
// (FinDebate's five) sees the pool items of its lane only, beside the passages retrieved for it;
// the lanes together show every item a step may cite (docs/protocols.md, FinDebate). FinDebate's trust agent and
// skeptic, which answer the draft, are shown what their `turnLane` reads off the turns they
// receive: to the trust agent, the items that could back the draft's claims; to the skeptic, the
// risks neither turn cites, and the trust agent's items and what reads otherwise on its factors,
// to test its support.
import { isFactorId } from '@/lib/domain/factors';
import { citationsOf, claimsOf } from '@/lib/domain/output-parts';
import type { PoolLane, StepDef, TurnLane } from '@/lib/domain/protocol';
import type { ContextTurn } from '@/lib/llm/types';
import type { EvidenceAsOf } from '@/lib/pool/as-of';
import { sortEvidence } from '@/lib/debate/prompts';

/** Whether the item is in the lane: on one of its factors (outside the ten or untagged: `other`), or read adverse when the lane takes those. */
export function inLane(lane: PoolLane, e: Pick<EvidenceAsOf, 'factor' | 'polarity'>): boolean {
  const factor = e.factor && isFactorId(e.factor) ? e.factor : 'other';
  return lane.factors.includes(factor) || (lane.adverse === true && e.polarity === 'adverse');
}

/**
 * At most this many pool items in a debate turn's evidence block, besides the items the turns it
 * answers cite. A turn makes three to five claims; past a dozen items the block only adds what it
 * will not argue (the opening of the engine benchmark's Samsung case was shown 23 items, its
 * prompt 58 % evidence).
 */
export const DEBATE_ITEMS = 12;

/**
 * The most material of a debate turn's items (lib/pool/materiality.ts, in the order the prompt
 * shows them): every item in `keep`, then (with `everyFactor`) the most material item of each
 * factor the items hold, so no factor a debater could argue is lost, then the next most material
 * up to `DEBATE_ITEMS`.
 */
export function mostMaterial(items: EvidenceAsOf[], keep: ReadonlySet<string> = new Set(), everyFactor = true): EvidenceAsOf[] {
  if (items.length <= DEBATE_ITEMS) return items;
  const ordered = sortEvidence(items);
  const chosen = new Set(ordered.filter((e) => keep.has(e.id)));
  const factors = new Set([...chosen].map((e) => e.factor ?? 'other'));
  for (const e of everyFactor ? ordered : []) {
    if (factors.has(e.factor ?? 'other')) continue;
    factors.add(e.factor ?? 'other');
    chosen.add(e);
  }
  for (const e of ordered) if (chosen.size < DEBATE_ITEMS) chosen.add(e);
  return items.filter((e) => chosen.has(e));
}

/**
 * A debate turn's pool without the stale items it may not cite (Rule 5, lib/debate/prompts.ts,
 * as the `stale-evidence` check reads it: lib/debate/checks.ts): those on a factor the pool holds
 * newer evidence on. A red flag stays, stale or not.
 */
function citable(pool: EvidenceAsOf[], redFlags: ReadonlySet<string>): EvidenceAsOf[] {
  const fresh = new Set(pool.filter((e) => !e.stale).map((e) => e.factor ?? 'other'));
  return pool.filter((e) => !e.stale || redFlags.has(e.id) || !fresh.has(e.factor ?? 'other'));
}

/** A factor as lanes read it: outside the ten, or untagged, it is `other`. */
const laneFactor = (factor: string | null | undefined) => (factor && isFactorId(factor) ? factor : 'other');

/** Ids the turns cite. */
const citedBy = (turns: ContextTurn[]) =>
  new Set(turns.flatMap((t) => citationsOf(t.output).map((c) => c.evidenceId)).filter((id): id is string => Boolean(id)));

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
  const against = (a: string | null | undefined, b: string | null | undefined) =>
    (a === 'favorable' && b === 'adverse') || (a === 'adverse' && b === 'favorable');
  const backs = (e: EvidenceAsOf) =>
    !backedCites.has(e.id) && toBack.some((c) => laneFactor(c.factor) === laneFactor(e.factor) && !against(c.polarity, e.polarity));
  // Another item read the claim's way would back it, not test it.
  const checks = (e: EvidenceAsOf) => checkedCites.has(e.id) || toCheck.some((c) => laneFactor(c.factor) === laneFactor(e.factor) && e.polarity !== c.polarity);
  const fresh = (e: EvidenceAsOf) => lane.adverse === true && e.polarity === 'adverse' && !allCites.has(e.id);
  // The dozen most material, as for a debate turn, but every item that checks a claim: the skeptic's
  // task is to test the trust agent's support, and the fresh risks are what it may leave.
  const lanes = pool.filter((e) => backs(e) || checks(e) || fresh(e));
  return mostMaterial(lanes, new Set(lanes.filter(checks).map((e) => e.id)), false);
}

export function visibleEvidence(
  step: Pick<StepDef, 'evidence' | 'team' | 'lane' | 'turnLane'>,
  all: EvidenceAsOf[],
  context: ContextTurn[],
  redFlags: ReadonlySet<string> = new Set(),
): EvidenceAsOf[] {
  if (step.evidence === 'none') return [];
  const lane = step.evidence === 'documents' || step.evidence === 'pool' ? step.lane : undefined;
  const turnLane = step.evidence === 'documents' ? step.turnLane : undefined;
  // A debater, and a FinDebate step reading a lane, is not shown a stale item Rule 5 forbids it
  // to cite (FinDebate's specialists were shown Tesla's 8-K index lines of 2018-2021 beside the
  // 2025 10-K on the same factor); the whole-pool steps still see everything.
  const pool = ['side', 'fresh-factors', 'context-factors'].includes(step.evidence) || lane || turnLane ? citable(all, redFlags) : all;
  if (lane) return pool.filter((e) => inLane(lane, e));
  // What the turns cite stays, whatever its date: the skeptic tests the trust agent's old items.
  if (turnLane) {
    const open = new Set(pool);
    const cited = citedBy(context);
    return inTurnLane(
      turnLane,
      all.filter((e) => open.has(e) || cited.has(e.id)),
      context,
    );
  }
  if (step.evidence === 'pool' || step.evidence === 'documents') return pool;
  const against = step.team === 'affirmative' ? 'adverse' : step.team === 'negative' ? 'favorable' : null;
  const ownSide = (e: EvidenceAsOf) => against === null || e.polarity !== against;
  if (step.evidence === 'side') return mostMaterial(pool.filter(ownSide));
  const factors = new Set(context.flatMap((t) => claimsOf(t.output).map((c) => c.factor)));
  const cited = citedBy(context);
  const factorOf = (e: EvidenceAsOf) => e.factor ?? 'other';
  // `other` is never a used factor: untagged items stay open to the answering constructive.
  if (step.evidence === 'fresh-factors')
    return mostMaterial(pool.filter((e) => ownSide(e) && !cited.has(e.id) && (!factors.has(factorOf(e)) || factorOf(e) === 'other')));
  // What the turns cite is shown whatever its date: the step answers it.
  const open = new Set(pool);
  return mostMaterial(
    all.filter((e) => cited.has(e.id) || (open.has(e) && factors.has(factorOf(e)) && ownSide(e))),
    cited,
  );
}
