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
// the lanes together show every item (docs/protocols.md, FinDebate).
import { isFactorId } from '@/lib/domain/factors';
import { citationsOf, claimsOf } from '@/lib/domain/output-parts';
import type { PoolLane, StepDef } from '@/lib/domain/protocol';
import type { ContextTurn } from '@/lib/llm/types';
import type { EvidenceAsOf } from '@/lib/pool/as-of';

/** Whether the item is in the lane: on one of its factors (outside the ten or untagged: `other`), or read adverse when the lane takes those. */
export function inLane(lane: PoolLane, e: Pick<EvidenceAsOf, 'factor' | 'polarity'>): boolean {
  const factor = e.factor && isFactorId(e.factor) ? e.factor : 'other';
  return lane.factors.includes(factor) || (lane.adverse === true && e.polarity === 'adverse');
}

export function visibleEvidence(step: Pick<StepDef, 'evidence' | 'team' | 'lane'>, pool: EvidenceAsOf[], context: ContextTurn[]): EvidenceAsOf[] {
  if (step.evidence === 'none') return [];
  const lane = step.evidence === 'documents' ? step.lane : undefined;
  if (lane) return pool.filter((e) => inLane(lane, e));
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
