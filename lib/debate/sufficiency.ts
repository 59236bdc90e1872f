// Whether a run has enough to debate (docs/protocols.md, "Evidence sufficiency"). Before any step
// runs, the engine counts the pool items the run may see at its as-of date — the items every
// prompt's evidence block is drawn from, stale ones included — and the distinct guideline factors
// they are tagged with (items filed under `other` or untagged count as items, not as factors).
// Document passages do not count: they carry no factor or reading, and every system argues from
// the items (FinDebate's and SAS's document readers get items merged into their passages too).
// Below the threshold the run ends as `insufficient_evidence` with the shortfall, and no model
// is called: a debate over one filing is hollow, and it would still "succeed".
import { GUIDELINE_FACTORS } from '@/lib/domain/factors';
import type { EvidenceShortfall } from '@/lib/domain/red-flags';

export type EvidenceThreshold = { minItems: number; minFactors: number };

/** At least this many pool items at the as-of date… */
export const MIN_EVIDENCE_ITEMS = 3;
/** …tagged with at least this many distinct guideline factors (not `other`). */
export const MIN_EVIDENCE_FACTORS = 2;

export const EVIDENCE_THRESHOLD: EvidenceThreshold = { minItems: MIN_EVIDENCE_ITEMS, minFactors: MIN_EVIDENCE_FACTORS };

const GUIDELINE_IDS: string[] = GUIDELINE_FACTORS.map((f) => f.id);

/**
 * What the pool holds against the threshold; null when it is enough. `missingFactors` are the
 * guideline factors no item is tagged with, in the guideline's order.
 */
export function evidenceShortfall(pool: { factor: string | null }[], threshold: EvidenceThreshold = EVIDENCE_THRESHOLD): EvidenceShortfall | null {
  const present = new Set(pool.map((e) => e.factor).filter((f): f is string => f !== null && GUIDELINE_IDS.includes(f)));
  if (pool.length >= threshold.minItems && present.size >= threshold.minFactors) return null;
  return {
    items: pool.length,
    factors: present.size,
    minItems: threshold.minItems,
    minFactors: threshold.minFactors,
    missingFactors: GUIDELINE_IDS.filter((f) => !present.has(f)),
  };
}

/**
 * What a run over this pool will end as, known before it starts (the launcher says so before
 * *Start*, and the engine decides by the same rule):
 * - `debate`: enough evidence; the protocol's steps run.
 * - `screening`: below the threshold but holding decisive red flags; no step runs, and the run
 *   ends `red_flag_screening` with a screening report that leads with each event. A borrower in
 *   default or in court rehabilitation often has a thin public record, and it is the borrower a
 *   bank most needs screened, so a thin pool with red flags still gets an outcome.
 * - `insufficient`: below the threshold with no red flag; the run ends `insufficient_evidence`.
 * Neither of the last two calls a model.
 */
export type RunOutlook =
  { kind: 'debate' } | { kind: 'screening'; shortfall: EvidenceShortfall; redFlags: number } | { kind: 'insufficient'; shortfall: EvidenceShortfall };

export function runOutlook(pool: { factor: string | null }[], redFlagCount: number, threshold: EvidenceThreshold = EVIDENCE_THRESHOLD): RunOutlook {
  const shortfall = evidenceShortfall(pool, threshold);
  if (!shortfall) return { kind: 'debate' };
  return redFlagCount > 0 ? { kind: 'screening', shortfall, redFlags: redFlagCount } : { kind: 'insufficient', shortfall };
}
