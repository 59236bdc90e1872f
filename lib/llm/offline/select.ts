// Choosing what to argue with. The guideline's rules, in order of preference: fresh evidence
// before stale, the most material first (lib/pool/materiality.ts), then the newest; one factor
// per claim, a factor reused only with clearly different evidence. When the pool cannot give a side enough, the fallbacks are explicit
// modes the phrasing says out loud — nothing is padded and nothing is invented.
import type { Claim } from '@/lib/domain/outputs';
import { isGuideline } from './lexicon';
import { cmp, differentEvidence, itemsOf, rank, type Item, type Pool } from './material';

export type Side = 'favorable' | 'adverse';

export type PickMode =
  /** The item reads for the side on a factor not yet used. */
  | 'direct'
  /** A context-dependent item read for the side, on a new factor. */
  | 'context'
  /** The side's factor again, with different evidence (another date, value or event). */
  | 'reuse'
  /** A factor the other side already argued (only when no fresh factor is left). */
  | 'crossed'
  /**
   * An item read against its reading. No longer chosen by the analyst (an item is read by its own
   * words); kept so phrases for older transcripts still type-check.
   */
  | 'reread';

export type Pick = { item: Item; mode: PickMode };

export type Selection = { picks: Pick[]; wanted: number; thin: boolean };

export type SelectOptions = {
  side: Side;
  count: number;
  /** Factors the step may not use (KPD-MADS D3 against D1). */
  exclude?: Set<string>;
  /** Whether excluded factors may be used as a last resort, said so. */
  allowCrossed?: boolean;
  /** Item keys already argued in this turn or that must not be repeated. */
  avoid?: Set<string>;
};

/** How many decisive items a selection adds past its count. */
const MAX_DECISIVE_EXTRA = 2;

export function otherSide(side: Side): Side {
  return side === 'favorable' ? 'adverse' : 'favorable';
}

/**
 * Factor groups ordered by their best item: fresh first, most material (lib/pool/materiality.ts),
 * guideline before `other`, newest, largest.
 */
export function factorGroups(items: Item[]): Item[][] {
  const groups = new Map<string, Item[]>();
  for (const item of [...items].sort(rank)) {
    const list = groups.get(item.factor) ?? [];
    list.push(item);
    groups.set(item.factor, list);
  }
  return [...groups.values()].sort(
    (a, b) =>
      cmp(Number(a[0].stale), Number(b[0].stale)) ||
      cmp(b[0].materiality, a[0].materiality) ||
      cmp(Number(!isGuideline(a[0].factor)), Number(!isGuideline(b[0].factor))) ||
      cmp(b[0].date, a[0].date) ||
      cmp(b.length, a.length) ||
      cmp(a[0].key, b[0].key),
  );
}

export function selectSignals(pool: Pool, options: SelectOptions): Selection {
  const { side, count } = options;
  const exclude = options.exclude ?? new Set<string>();
  const avoid = options.avoid ?? new Set<string>();
  const picks: Pick[] = [];
  const usedFactors = new Set<string>();
  // A red flag (lib/pool/red-flags.ts) is never material for the favorable side, whatever its tag.
  const open = (i: Item) => !avoid.has(i.key) && !picks.some((p) => p.item.key === i.key) && !(side === 'favorable' && i.redFlag);
  const distinctFromPicks = (i: Item) => picks.filter((p) => p.item.factor === i.factor).every((p) => differentEvidence(p.item, i));
  const push = (item: Item, mode: PickMode) => {
    picks.push({ item, mode });
    usedFactors.add(item.factor);
  };

  const same = pool.items.filter((i) => i.polarity === side && open(i));
  const context = pool.items.filter((i) => i.polarity === 'context' && open(i));

  for (const group of factorGroups(same.filter((i) => !exclude.has(i.factor)))) {
    if (picks.length >= count) break;
    push(group[0], 'direct');
  }
  for (const group of factorGroups(context.filter((i) => !exclude.has(i.factor) && !usedFactors.has(i.factor)))) {
    if (picks.length >= count) break;
    push(group[0], 'context');
  }
  // A factor again, only on clearly different evidence: the side's own items first, then context ones.
  for (const item of [...same, ...context]) {
    if (picks.length >= count) break;
    if (usedFactors.has(item.factor) && !exclude.has(item.factor) && open(item) && distinctFromPicks(item))
      push(item, item.polarity === 'context' ? 'context' : 'reuse');
  }
  if (options.allowCrossed && picks.length < count) {
    const crossed = [...same, ...context].filter((i) => exclude.has(i.factor));
    for (const group of factorGroups(crossed)) {
      if (picks.length >= count) break;
      const item = group.find((i) => open(i) && distinctFromPicks(i));
      if (item) push(item, 'crossed');
    }
    for (const item of crossed) {
      if (picks.length >= count) break;
      if (open(item) && distinctFromPicks(item)) push(item, 'crossed');
    }
  }
  // The side's decisive items (a red flag, an authority's action, a one-time charge: lib/pool/materiality.ts)
  // are argued even past the usual count, on the factors the step may use, as other evidence.
  let extra = 0;
  for (const item of same) {
    if (extra >= MAX_DECISIVE_EXTRA) break;
    // Rule 5: a stale item only where nothing newer on its factor is argued, or as a red flag.
    if (!item.decisive || exclude.has(item.factor) || !open(item) || !distinctFromPicks(item) || (item.stale && !item.redFlag)) continue;
    push(item, usedFactors.has(item.factor) ? 'reuse' : 'direct');
    extra++;
  }
  // Nothing reads for the side: it says so. An item that reads the other way is never argued
  // against its own words — least of all a red flag as a strength.
  // Thin: too few signals, or too few factors behind them, or only by crossing or rereading.
  const factors = new Set(picks.map((p) => p.item.factor)).size;
  const thin = picks.length < count || factors < Math.min(count, 3) || picks.some((p) => p.mode === 'crossed' || p.mode === 'reread');
  return { picks, wanted: count, thin };
}

export type Counter = { item: Item; mode: 'counter' | 'context' | 'reinterpret' };

/**
 * What a rebuttal can set against a claim: an item on the same factor that reads the other way
 * (newest first), else a context-dependent item on it that qualifies the claim. Null when the
 * pool holds neither: with no counter-evidence the branch stops there — the claim's own evidence
 * is never read against its words to invent one. A red flag never qualifies an adverse claim.
 */
export function counterFor(pool: Pool, target: Claim, side: Side, avoid: Set<string>): Counter | null {
  const cited = itemsOf(pool, target);
  const citedKeys = new Set(cited.map((i) => i.key));
  const usable = (i: Item) => i.factor === target.factor && !citedKeys.has(i.key) && !avoid.has(i.key);
  const counter = pool.items.find((i) => usable(i) && i.polarity === side);
  if (counter) return { item: counter, mode: 'counter' };
  // A context item does not answer a red flag: the claim stands on a decisive event.
  if (cited.some((i) => i.redFlag)) return null;
  const context = pool.items.find((i) => usable(i) && i.polarity === 'context' && i.origin !== 'context');
  if (context) return { item: context, mode: 'context' };
  return null;
}

/**
 * A second counter to a claim: a decisive item (lib/pool/materiality.ts) of the side on the same
 * factor, not yet cited or used — a red flag, an authority's action or a one-time charge is not
 * left out of a rebuttal because another item on its factor came first.
 */
export function decisiveCounter(pool: Pool, target: Claim, side: Side, avoid: Set<string>): Item | undefined {
  const cited = new Set(itemsOf(pool, target).map((i) => i.key));
  // Rule 5: a second counter is never a stale item (a red flag excepted): the first one stands.
  return pool.items.find(
    (i) => i.decisive && (!i.stale || i.redFlag) && i.factor === target.factor && i.polarity === side && !cited.has(i.key) && !avoid.has(i.key),
  );
}

/** Most material item on the claim's factor that reads against it, for counterexample questions. */
export function counterexample(pool: Pool, target: Claim): Item | undefined {
  const against: Side = target.polarity === 'favorable' ? 'adverse' : 'favorable';
  const cited = new Set(itemsOf(pool, target).map((i) => i.key));
  return pool.items.find((i) => i.factor === target.factor && i.polarity === against && !cited.has(i.key));
}
