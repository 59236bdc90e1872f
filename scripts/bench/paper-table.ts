// The arithmetic and the tables of `npm run bench -- --paper` (scripts/bench/paper.ts): means and
// the KPD-MADS/NAS latency ratio over the cases that ran, and the paper's Wilcoxon rows
// recomputed with and without the tie correction, each published figure matched to the mode it
// follows at the precision it was printed to. Pure: no database, no model, no clock.
import { median, wilcoxonSignedRank, erfc, type WilcoxonResult } from '@/lib/eval/stats';
import { FACTORS, GUIDELINE_FACTORS } from '@/lib/domain/factors';
import type { EvidenceShortfall } from '@/lib/domain/red-flags';
import { PAPER, PAPER_WILCOXON, type PaperMeasure, type PaperWilcoxonRow, type PublishedWilcoxon } from './paper-published';

/** One system on one case: wall time one step at a time and with independent steps at once, and its reasoning tree. */
export type SystemCase = {
  sequentialMs: number;
  dagMs: number;
  rei: number;
  breadth: number;
  depths: number[];
  /** What the model wrote in the sequential run, and in how many calls: what the latency follows from. */
  completionTokens?: number;
  calls?: number;
};

export type PaperCase = {
  companyId: string;
  name: string;
  kpd?: SystemCase;
  nas?: SystemCase;
  /** Set when the case could not be compared: the run's status (e.g. `insufficient_evidence`) and why, in words. */
  excluded?: { status: string; reason: string };
};

export type SystemMeans = { sequentialS: number; dagS: number; rei: number; breadth: number; completionTokens: number | null };

export type PaperSummary = {
  /** Cases with both systems measured: the means and ratios are over these alone. */
  included: string[];
  excluded: { companyId: string; name: string; status: string; reason: string }[];
  mean: { kpd: SystemMeans; nas: SystemMeans } | null;
  /** Mean KPD-MADS latency / mean NAS latency, as the paper's 91.97 s / 11.55 s. */
  ratio: { sequential: number | null; dag: number | null };
  /** Mean KPD-MADS REI / mean NAS REI. */
  reiRatio: number | null;
  paper: { kpdS: number; nasS: number; ratio: number; kpdRei: number; nasRei: number; reiRatio: number };
};

export function mean(values: readonly number[]): number | null {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
}

/** Ratio of the mean latencies (the paper's comparison), null when either side has no case or NAS took no time. */
export function latencyRatio(kpdMs: readonly number[], nasMs: readonly number[]): number | null {
  const k = mean(kpdMs);
  const n = mean(nasMs);
  return k === null || n === null || n === 0 ? null : k / n;
}

const isMeasured = (c: PaperCase): c is PaperCase & { kpd: SystemCase; nas: SystemCase } => !c.excluded && Boolean(c.kpd && c.nas);

export function summarisePaperCases(cases: readonly PaperCase[]): PaperSummary {
  const measured = cases.filter(isMeasured);
  const excluded = cases
    .filter((c) => !isMeasured(c))
    .map((c) => ({
      companyId: c.companyId,
      name: c.name,
      status: c.excluded?.status ?? 'not_measured',
      reason: c.excluded?.reason ?? 'one of the two systems has no measurement',
    }));
  const means = (pick: (c: (typeof measured)[number]) => SystemCase): SystemMeans => ({
    sequentialS: mean(measured.map((c) => pick(c).sequentialMs))! / 1000,
    dagS: mean(measured.map((c) => pick(c).dagMs))! / 1000,
    rei: mean(measured.map((c) => pick(c).rei))!,
    breadth: mean(measured.map((c) => pick(c).breadth))!,
    completionTokens: measured.every((c) => pick(c).completionTokens !== undefined) ? mean(measured.map((c) => pick(c).completionTokens!)) : null,
  });
  const mean_ = measured.length ? { kpd: means((c) => c.kpd), nas: means((c) => c.nas) } : null;
  const kpdRei = mean(measured.map((c) => c.kpd.rei));
  const nasRei = mean(measured.map((c) => c.nas.rei));
  return {
    included: measured.map((c) => c.companyId),
    excluded,
    mean: mean_,
    ratio: {
      sequential: latencyRatio(
        measured.map((c) => c.kpd.sequentialMs),
        measured.map((c) => c.nas.sequentialMs),
      ),
      dag: latencyRatio(
        measured.map((c) => c.kpd.dagMs),
        measured.map((c) => c.nas.dagMs),
      ),
    },
    reiRatio: kpdRei === null || nasRei === null || nasRei === 0 ? null : kpdRei / nasRei,
    paper: {
      kpdS: PAPER.latencySeconds.kpd,
      nasS: PAPER.latencySeconds.nas,
      ratio: PAPER.latencySeconds.kpd / PAPER.latencySeconds.nas,
      kpdRei: PAPER.tree.kpd.meanRei,
      nasRei: PAPER.tree.nas.meanRei,
      reiRatio: PAPER.tree.kpd.meanRei / PAPER.tree.nas.meanRei,
    },
  };
}

/** Why a run did not succeed, in words: the evidence it lacked, or its error. */
export function whyNotMeasured(status: string, shortfall: EvidenceShortfall | null | undefined, error: string | null | undefined): string {
  if (shortfall) {
    const label = (id: string) => FACTORS.find((f) => f.id === id)?.label.toLowerCase() ?? id;
    const gaps = shortfall.missingFactors;
    const missing = !gaps.length
      ? ''
      : gaps.length <= 3
        ? `; no evidence on ${gaps.map(label).join(', ')}`
        : `; no evidence on ${gaps.length} of the ${GUIDELINE_FACTORS.length} guideline factors`;
    return `${shortfall.items} item${shortfall.items === 1 ? '' : 's'} over ${shortfall.factors} factor${shortfall.factors === 1 ? '' : 's'} at the as-of date, below the ${shortfall.minItems} items over ${shortfall.minFactors} factors a debate needs${missing}`;
  }
  return error?.trim() || `the run ended ${status.replace(/_/g, ' ')}`;
}

// ---------------------------------------------------------------------------------------------
// The Wilcoxon table

/** Which variance a published figure follows; `unknown` when the mode it would need cannot be computed. */
export type ModeMatch = 'uncorrected' | 'tie-corrected' | 'either' | 'neither' | 'unknown';

/** Whether `value`, printed to `decimals` places, reads as `published` (half-up, as a table is rounded). */
export function roundsTo(value: number | null | undefined, published: number, decimals: number): boolean {
  if (value === null || value === undefined || !Number.isFinite(value)) return false;
  // Compare in units of the last printed digit, with a hair of slack for binary fractions.
  const scale = 10 ** decimals;
  return Math.abs(Math.round(value * scale + 1e-9) - Math.round(published * scale)) === 0;
}

/**
 * Which of the two modes reproduces a published figure at its printed precision. `undefined` for a
 * mode means it could not be computed: a figure that matches the other mode is then put down to
 * that mode, and one that matches neither is `unknown` rather than `neither`.
 */
export function whichMode(published: number, decimals: number, corrected: number | null | undefined, uncorrected: number | null | undefined): ModeMatch {
  const c = roundsTo(corrected, published, decimals);
  const u = roundsTo(uncorrected, published, decimals);
  if (c && u) return 'either';
  if (u) return 'uncorrected';
  if (c) return 'tie-corrected';
  return corrected === undefined || uncorrected === undefined ? 'unknown' : 'neither';
}

/**
 * Z, p and r without the tie correction from W and n alone: with no tie term the variance is
 * n(n+1)(2n+1)/24 whatever the ratings were, so a published W and n fix these three figures.
 */
export function uncorrectedFromWn(W: number, n: number): { z: number; p: number; r: number } {
  if (!(n >= 1) || !Number.isInteger(n)) throw new RangeError(`n must be a whole number ≥ 1; got ${n}.`);
  const max = (n * (n + 1)) / 2;
  if (!(W >= 0 && W <= max / 2)) throw new RangeError(`W must lie between 0 and n(n+1)/4 = ${max / 2}; got ${W}.`);
  const z = -Math.abs((W - (n * (n + 1)) / 4) / Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24));
  return { z, p: Math.min(1, erfc(-z / Math.SQRT2)), r: z / Math.sqrt(n) };
}

type Figures = { z: number | null; p: number | null; r: number | null };

export type WilcoxonTableRow = {
  label: string;
  measure: PaperMeasure | null;
  published: PublishedWilcoxon | null;
  /** Recomputed from the row's ratings; absent when the repository holds none. */
  corrected?: WilcoxonResult;
  uncorrected?: WilcoxonResult;
  /** Without ratings but with a published W and n: the uncorrected figures those fix. */
  fromWn?: Figures;
  medians?: { nas: number; kpd: number };
  ratingsSource?: string;
  follows?: { z: ModeMatch; p: ModeMatch; r: ModeMatch };
  /** One line: which mode each published figure follows, or why that cannot be said. */
  note: string;
};

const MODE_WORDS: Record<ModeMatch, string> = {
  uncorrected: 'without tie correction',
  'tie-corrected': 'tie-corrected',
  either: 'either mode',
  neither: 'neither mode',
  unknown: 'undecided without the ratings',
};

/** "Z and r: without tie correction; p: either mode at 3 decimals": figures that follow the same mode share a clause. */
export function followsNote(follows: { z: ModeMatch; p: ModeMatch; r: ModeMatch }, decimals: PublishedWilcoxon['decimals']): string {
  const order: ('z' | 'p' | 'r')[] = ['z', 'p', 'r'];
  const names = { z: 'Z', p: 'p', r: 'r' };
  const groups = new Map<ModeMatch, ('z' | 'p' | 'r')[]>();
  for (const k of order) groups.set(follows[k], [...(groups.get(follows[k]) ?? []), k]);
  return [...groups.entries()]
    .map(([mode, keys]) => {
      const who = keys.map((k) => names[k]).join(keys.length === 2 ? ' and ' : ', ');
      const places = [...new Set(keys.map((k) => decimals[k]))];
      const precision = mode === 'either' ? ` at ${places.join('/')} decimals` : '';
      return `${who}: ${MODE_WORDS[mode]}${precision}`;
    })
    .join('; ');
}

export function wilcoxonTableRow(row: PaperWilcoxonRow): WilcoxonTableRow {
  const base = { label: row.label, measure: row.measure, published: row.published };
  if (row.ratings) {
    const { nas, kpd, source } = row.ratings;
    // Differences KPD-MADS − NAS are what the test ranks; Z is reported as −|Z| either way.
    const corrected = wilcoxonSignedRank(kpd, nas, { tieCorrection: true });
    const uncorrected = wilcoxonSignedRank(kpd, nas, { tieCorrection: false });
    const medians = { nas: median(nas), kpd: median(kpd) };
    if (!row.published) return { ...base, corrected, uncorrected, medians, ratingsSource: source, note: 'no published figures to compare with' };
    const pub = row.published;
    const follows = {
      z: whichMode(pub.z, pub.decimals.z, corrected.z, uncorrected.z),
      p: whichMode(pub.p, pub.decimals.p, corrected.p, uncorrected.p),
      r: whichMode(pub.r, pub.decimals.r, corrected.r, uncorrected.r),
    };
    const sameShape = corrected.n === pub.n && corrected.W === pub.W;
    const note = `${followsNote(follows, pub.decimals)}${sameShape ? '' : ` (these ratings give W = ${corrected.W}, n = ${corrected.n}, not the published W = ${pub.W}, n = ${pub.n})`}`;
    return { ...base, corrected, uncorrected, medians, ratingsSource: source, follows, note };
  }
  if (row.published) {
    const pub = row.published;
    const fromWn = uncorrectedFromWn(pub.W, pub.n);
    const follows = {
      z: whichMode(pub.z, pub.decimals.z, undefined, fromWn.z),
      p: whichMode(pub.p, pub.decimals.p, undefined, fromWn.p),
      r: whichMode(pub.r, pub.decimals.r, undefined, fromWn.r),
    };
    return { ...base, fromWn, follows, note: `${followsNote(follows, pub.decimals)}; the tie-corrected figures need the ratings` };
  }
  return { ...base, note: `published Z / p / r and the ratings are not in the repository${row.remark ? `; ${row.remark}` : ''}` };
}

export function paperWilcoxonTable(rows: readonly PaperWilcoxonRow[] = PAPER_WILCOXON): WilcoxonTableRow[] {
  return rows.map(wilcoxonTableRow);
}

// ---------------------------------------------------------------------------------------------
// Printing

const fixed = (v: number | null | undefined, digits: number) => (v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(digits));
/** p without the leading zero, as APA tables print it: .0016. */
const pValue = (v: number | null | undefined, digits = 4) => (v === null || v === undefined ? '—' : v.toFixed(digits).replace(/^0\./, '.'));

/** Plain-text table: first column left-aligned, the rest right-aligned. */
export function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export type LatencyModel = { ttftMs: number; tokensPerSecond: number };

export function formatLatencyTable(cases: readonly PaperCase[], summary: PaperSummary, model: LatencyModel): string {
  const s = (ms: number) => (ms / 1000).toFixed(2);
  const rows = cases
    .filter(isMeasured)
    .map((c) => [
      c.name,
      s(c.kpd.sequentialMs),
      s(c.kpd.dagMs),
      s(c.nas.sequentialMs),
      s(c.nas.dagMs),
      fixed(c.kpd.sequentialMs / c.nas.sequentialMs, 2),
      `${c.kpd.rei} (${c.kpd.breadth})`,
      `${c.nas.rei} (${c.nas.breadth})`,
    ]);
  if (summary.mean) {
    const m = summary.mean;
    rows.push([
      `mean of ${summary.included.length}`,
      m.kpd.sequentialS.toFixed(2),
      m.kpd.dagS.toFixed(2),
      m.nas.sequentialS.toFixed(2),
      m.nas.dagS.toFixed(2),
      fixed(summary.ratio.sequential, 2),
      `${m.kpd.rei.toFixed(2)} (${m.kpd.breadth.toFixed(1)})`,
      `${m.nas.rei.toFixed(2)} (${m.nas.breadth.toFixed(1)})`,
    ]);
  }
  const p = summary.paper;
  rows.push([
    `paper (${PAPER.model}, ${PAPER.cases} cases)`,
    p.kpdS.toFixed(2),
    '—',
    p.nasS.toFixed(2),
    '—',
    p.ratio.toFixed(2),
    `${p.kpdRei.toFixed(2)} (${(PAPER.tree.kpd.breadth.reduce((a, b) => a + b, 0) / PAPER.cases).toFixed(1)})`,
    `${p.nasRei.toFixed(2)} (${(PAPER.tree.nas.breadth.reduce((a, b) => a + b, 0) / PAPER.cases).toFixed(1)})`,
  ]);
  const header = ['case', 'KPD seq s', 'KPD conc s', 'NAS seq s', 'NAS conc s', 'KPD/NAS seq', 'KPD REI (breadth)', 'NAS REI (breadth)'];
  const lines = [
    `Latency per case and REI, KPD-MADS against NAS. Model: the fake OpenAI-compatible server replaying the offline analyst's answers at ${model.ttftMs} ms to first token and ${model.tokensPerSecond} tokens/s; seq = one step at a time (the paper's mode), conc = independent steps at once (dag).`,
    textTable(header, rows),
    '',
    `KPD-MADS / NAS latency: ${fixed(summary.ratio.sequential, 2)}× sequential, ${fixed(summary.ratio.dag, 2)}× concurrent; the paper: ${p.ratio.toFixed(2)}× (${p.kpdS} s / ${p.nasS} s).`,
    `Mean REI: KPD-MADS ${fixed(summary.mean?.kpd.rei, 2)}, NAS ${fixed(summary.mean?.nas.rei, 2)} (${fixed(summary.reiRatio, 2)}×); the paper: ${p.kpdRei} and ${p.nasRei.toFixed(1)} (${p.reiRatio.toFixed(2)}×).`,
    'Seconds scale with the latency model (--ttft, --tps); the ratio depends on it far less, since both systems are paced alike.',
  ];
  const calls = (pick: (c: PaperCase) => SystemCase | undefined) => cases.map(pick).find((x) => x?.calls)?.calls;
  if (summary.mean?.kpd.completionTokens != null && summary.mean.nas.completionTokens != null) {
    const k = calls((c) => c.kpd);
    const n = calls((c) => c.nas);
    lines.push(
      `The ratio follows from what the model writes: here ${Math.round(summary.mean.kpd.completionTokens)} completion tokens per case for KPD-MADS${k ? ` over ${k} calls` : ''} against ${Math.round(summary.mean.nas.completionTokens)} for NAS${n ? ` in ${n} call${n === 1 ? '' : 's'}` : ''} (the offline analyst's answers, not GPT-4o's).`,
    );
  }
  if (summary.excluded.length) {
    lines.push('', 'Left out of the means:');
    for (const e of summary.excluded) lines.push(`- ${e.name}: ${e.status.replace(/_/g, ' ')}: ${e.reason}`);
  }
  return lines.join('\n');
}

export function formatWilcoxonTable(rows: readonly WilcoxonTableRow[]): string {
  const cells = rows.map((row) => {
    const c = row.corrected;
    const u = row.uncorrected;
    const pub = row.published;
    const n = c?.n ?? pub?.n;
    const W = c?.W ?? pub?.W;
    return [
      row.label,
      n === undefined ? '—' : String(n),
      W === undefined ? '—' : String(W),
      fixed(c?.z, 3),
      pValue(c?.p),
      fixed(c?.r, 3),
      fixed(u?.z ?? row.fromWn?.z, 3),
      pValue(u?.p ?? row.fromWn?.p),
      fixed(u?.r ?? row.fromWn?.r, 3),
      pub ? `${pub.z.toFixed(pub.decimals.z)} / ${pValue(pub.p, pub.decimals.p)} / ${pub.r.toFixed(pub.decimals.r)}` : '—',
    ];
  });
  const header = ['row', 'n', 'W', 'Z tie-corr', 'p tie-corr', 'r tie-corr', 'Z no-corr', 'p no-corr', 'r no-corr', 'published Z / p / r'];
  const sources = [...new Set(rows.flatMap((r) => (r.ratingsSource ? [r.ratingsSource] : [])))];
  return [
    'Wilcoxon signed-rank, KPD-MADS against NAS, in both tie modes (normal approximation, zero differences dropped, r = Z/√n).',
    textTable(header, cells),
    '',
    ...rows.map((r) => `- ${r.label}: ${r.note}${r.medians ? ` (medians of these ratings: KPD-MADS ${r.medians.kpd}, NAS ${r.medians.nas})` : ''}.`),
    ...sources.map((s) => `Ratings recomputed: ${s}. The paper's raw ratings were not published.`),
  ].join('\n');
}
