// Run-to-run stability (docs/stability.md): how much two to five finished runs of the same case
// and system agree. Per guideline factor, whether its reading is the same in every run; the
// evidence every run cites against the evidence any run cites; the report topics in common, by
// factor and by title; the spread of REI and of the reasoning tree's depth. Pure: it reads the
// run views (lib/report/run-view.ts), so the figures are built from what each run's page shows.
import { GUIDELINE_FACTORS, type FactorId } from '@/lib/domain/factors';
import { citationsOf } from '@/lib/domain/output-parts';
import type { Team } from '@/lib/domain/protocol';
import { buildFactorPanels, panelFactor, type FactorPanel } from '@/lib/eval/panels';
import { MAX_STABILITY_RUNS, MIN_STABILITY_RUNS } from '@/lib/domain/stability';

/** The fields of a run view the figures read. */
export type StabilityRun = {
  id: string;
  turns: { step: string; team: Team; act: string; status: string; output: unknown }[];
  tree: { rei: number; depths: number[] };
};

/**
 * A factor's reading in one run, from its pro/con panel (lib/eval/panels.ts): only favorable
 * arguments, only adverse ones, both (contested), or none either way (`none`: unargued, or
 * context-dependent points only).
 */
export type FactorReading = 'favorable' | 'adverse' | 'contested' | 'none';

export type FactorAgreement = { factor: FactorId; readings: FactorReading[]; same: boolean };

/** Items in every run against items in any run; `share` is null when no run has any. */
export type Overlap = { all: string[]; any: string[]; share: number | null };

export type Spread = { min: number; median: number; max: number };

export type Stability = {
  runIds: string[];
  factors: FactorAgreement[];
  /** Of the factors some run argued, how many read the same in every run. */
  readings: { same: number; argued: number; share: number | null };
  evidence: Overlap;
  topics: { byFactor: Overlap; byTitle: Overlap };
  rei: Spread;
  /** The deepest branch of each run's reasoning tree (1: nothing was challenged; 0: no tree). */
  depth: Spread;
};

export { MAX_STABILITY_RUNS, MIN_STABILITY_RUNS };

export function factorReading(panel: Pick<FactorPanel, 'favorable' | 'adverse'>): FactorReading {
  const fav = panel.favorable.length > 0;
  const adv = panel.adverse.length > 0;
  return fav && adv ? 'contested' : fav ? 'favorable' : adv ? 'adverse' : 'none';
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The evidence items a run's finished turns cite and that resolved (an unresolved id may be invented). */
export function citedEvidence(run: StabilityRun): Set<string> {
  const ids = new Set<string>();
  for (const turn of run.turns) {
    if (turn.status !== 'done') continue;
    for (const c of citationsOf(turn.output) as unknown[]) {
      if (isObj(c) && c.verified === true && typeof c.evidenceId === 'string' && c.evidenceId) ids.add(c.evidenceId);
    }
  }
  return ids;
}

/** A topic title as compared across runs: case, width, punctuation and spacing do not count. */
export function normaliseTitle(title: string): string {
  return title
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The report's topics: those of the last finished turn that has any. */
function reportTopics(run: StabilityRun): Obj[] {
  for (const turn of [...run.turns].reverse()) {
    if (turn.status !== 'done' || !isObj(turn.output) || !Array.isArray(turn.output.topics)) continue;
    const topics = turn.output.topics.filter(isObj);
    if (topics.length) return topics;
  }
  return [];
}

function overlap(sets: Set<string>[]): Overlap {
  const any = [...new Set(sets.flatMap((s) => [...s]))].sort();
  const all = any.filter((x) => sets.every((s) => s.has(x)));
  return { all, any, share: any.length ? all.length / any.length : null };
}

export function spread(values: number[]): Spread {
  if (!values.length) return { min: 0, median: 0, max: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { min: sorted[0], median, max: sorted[sorted.length - 1] };
}

export function measureStability(runs: StabilityRun[]): Stability {
  if (runs.length < MIN_STABILITY_RUNS || runs.length > MAX_STABILITY_RUNS) {
    throw new RangeError(`Stability compares ${MIN_STABILITY_RUNS} to ${MAX_STABILITY_RUNS} runs, not ${runs.length}.`);
  }
  const panels = runs.map((r) => buildFactorPanels(r.turns));
  const factors = GUIDELINE_FACTORS.map(({ id: factor }): FactorAgreement => {
    const readings = panels.map((p) => factorReading(p.find((x) => x.factor === factor)!));
    return { factor, readings, same: readings.every((r) => r === readings[0]) };
  });
  const argued = factors.filter((f) => f.readings.some((r) => r !== 'none'));
  const same = argued.filter((f) => f.same).length;
  const topics = runs.map(reportTopics);
  return {
    runIds: runs.map((r) => r.id),
    factors,
    readings: { same, argued: argued.length, share: argued.length ? same / argued.length : null },
    evidence: overlap(runs.map(citedEvidence)),
    topics: {
      byFactor: overlap(topics.map((ts) => new Set(ts.map((t) => panelFactor(String(t.factor ?? '') || String(t.topic ?? '')))))),
      byTitle: overlap(topics.map((ts) => new Set(ts.map((t) => normaliseTitle(String(t.topic ?? ''))).filter(Boolean)))),
    },
    rei: spread(runs.map((r) => r.tree.rei)),
    depth: spread(runs.map((r) => (r.tree.depths.length ? Math.max(...r.tree.depths) : 0))),
  };
}
