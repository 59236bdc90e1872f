// Two runs of one case side by side (docs/protocols.md, Metrics): cost and speed, the tree's
// breadth, depths and REI, citation grounding and factor coverage. Pure: it reads two
// loadRunView documents, so the numbers are the ones each run's own page shows.
import type { RunView } from '@/lib/report/run-view';
import { buildFactorPanels, isCovered, panelCounts, type PanelCounts } from '@/lib/eval/panels';
import { FACTOR_IDS, type FactorId } from '@/lib/domain/factors';

export type ComparableRun = Pick<RunView, 'id' | 'protocol' | 'status' | 'provider' | 'model' | 'mode' | 'turns' | 'tree' | 'metrics'>;

export type RunSummary = {
  id: string;
  protocol: string;
  status: string;
  provider: string;
  model: string;
  mode: string;
  steps: { done: number; total: number };
  latencyMs: number | null;
  tokens: { prompt: number; completion: number; total: number };
  costUsd: number;
  breadth: number;
  rei: number;
  /** The deepest branch; 1 means nothing was ever challenged. */
  maxDepth: number;
  meanDepth: number | null;
  citations: { total: number; verified: number; grounding: number | null };
  /** Guideline factors (of the ten, `other` aside) with at least one argument. */
  factorsCovered: number;
};

export type FactorRow = {
  factor: FactorId;
  a: PanelCounts & { covered: boolean; depth: number | null };
  b: PanelCounts & { covered: boolean; depth: number | null };
  /** Which run says anything about it: the gaps a reader should look at. */
  coveredBy: 'both' | 'a' | 'b' | 'neither';
};

export type RunComparison = {
  a: RunSummary;
  b: RunSummary;
  factors: FactorRow[];
  /** b − a, null when either side has no value (a run with no finished turn has no latency). */
  delta: { latencyMs: number | null; tokens: number; costUsd: number; breadth: number; rei: number; grounding: number | null };
};

function summarise(run: ComparableRun, panels: ReturnType<typeof buildFactorPanels>): RunSummary {
  const done = run.turns.filter((t) => t.status === 'done');
  const cites = done.flatMap((t) => t.citations);
  const verified = cites.filter((c) => c.verified).length;
  const { depths } = run.tree;
  return {
    id: run.id,
    protocol: run.protocol,
    status: run.status,
    provider: run.provider,
    model: run.model,
    mode: run.mode,
    steps: { done: done.length, total: run.turns.length },
    latencyMs: run.metrics.latencyMs,
    tokens: run.metrics.tokens,
    costUsd: run.metrics.costUsd,
    breadth: run.tree.breadth,
    rei: run.tree.rei,
    maxDepth: depths.length ? Math.max(...depths) : 0,
    meanDepth: depths.length ? depths.reduce((s, d) => s + d, 0) / depths.length : null,
    citations: { total: cites.length, verified, grounding: run.metrics.citationGrounding },
    factorsCovered: panels.filter((p) => p.factor !== 'other' && isCovered(p)).length,
  };
}

const minus = (b: number | null, a: number | null) => (a === null || b === null ? null : b - a);

export function compareRuns(runA: ComparableRun, runB: ComparableRun): RunComparison {
  const panelsA = buildFactorPanels(runA.turns);
  const panelsB = buildFactorPanels(runB.turns);
  const a = summarise(runA, panelsA);
  const b = summarise(runB, panelsB);
  const side = (run: ComparableRun, panels: typeof panelsA, factor: FactorId) => {
    const panel = panels.find((p) => p.factor === factor)!;
    const branch = run.tree.branches.find((br) => br.factor === factor);
    return { ...panelCounts(panel), covered: isCovered(panel), depth: branch?.depth ?? null };
  };
  const factors = FACTOR_IDS.map((factor): FactorRow => {
    const fa = side(runA, panelsA, factor);
    const fb = side(runB, panelsB, factor);
    const coveredBy = fa.covered && fb.covered ? 'both' : fa.covered ? 'a' : fb.covered ? 'b' : 'neither';
    return { factor, a: fa, b: fb, coveredBy };
  });
  return {
    a,
    b,
    factors,
    delta: {
      latencyMs: minus(b.latencyMs, a.latencyMs),
      tokens: b.tokens.total - a.tokens.total,
      costUsd: b.costUsd - a.costUsd,
      breadth: b.breadth - a.breadth,
      rei: b.rei - a.rei,
      grounding: minus(b.citations.grounding, a.citations.grounding),
    },
  };
}
