// A study's ratings turned into the results table: per measure and system the
// median and IQR, and per measure a paired Wilcoxon test between two systems, where a pair is
// one evaluator's ratings of the same company's reports by the two systems. Pure: no database.
import { PROTOCOLS, type Protocol } from '@/lib/domain/vocabulary';
import { MEASURES, SUS_ITEMS, type Answers, type Measure } from '@/lib/domain/study';
import { medianIqr, susScore, wilcoxonPaired } from '@/lib/eval/study-stats';

/**
 * Below this many non-zero pairs a p-value says little (the exact test cannot even reach .05
 * below n = 6): the results page marks such tests as small samples (docs/protocols.md, "The Wilcoxon table").
 */
export const SMALL_SAMPLE_N = 10;

export type RatingRow = { evaluatorId: string; companyId: string; protocol: Protocol; answers: Answers };

export type MeasureSummary = { measure: Measure; protocol: Protocol; n: number; median: number | null; q1: number | null; q3: number | null };
export type MeasureTest = {
  measure: Measure;
  a: Protocol;
  b: Protocol;
  pairs: number;
  n: number;
  W: number;
  z: number | null;
  /** Normal approximation. */
  p: number | null;
  /** Exact p for n ≤ 25 (lib/eval/stats.ts), null above. */
  pExact: number | null;
  /** n below SMALL_SAMPLE_N: the page says a p-value here is descriptive only. */
  smallSample: boolean;
  r: number | null;
  /** Medians of the paired values, to read the direction of a difference. */
  medianA: number | null;
  medianB: number | null;
};

/** A rating's score on a measure, or null when (part of) it is unanswered. */
export function measureScore(answers: Answers, measure: Measure): number | null {
  if (measure !== 'sus') return answers[measure] ?? null;
  const items = SUS_ITEMS.map((i) => answers[i]);
  return items.every((v): v is number => v !== undefined) ? susScore(items) : null;
}

const byProtocolOrder = (a: Protocol, b: Protocol) => PROTOCOLS.indexOf(a) - PROTOCOLS.indexOf(b);
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

export function studyResults(rows: RatingRow[], opts: { tieCorrection?: boolean } = {}) {
  const protocols = [...new Set(rows.map((r) => r.protocol))].sort(byProtocolOrder);
  const summaries: MeasureSummary[] = [];
  const tests: MeasureTest[] = [];
  for (const measure of MEASURES) {
    for (const protocol of protocols) {
      const values = rows
        .filter((r) => r.protocol === protocol)
        .map((r) => measureScore(r.answers, measure))
        .filter((v): v is number => v !== null);
      const stats = medianIqr(values);
      summaries.push({ measure, protocol, n: values.length, median: stats?.median ?? null, q1: stats?.q1 ?? null, q3: stats?.q3 ?? null });
    }
    // evaluator × company → protocol → scores (several reports of one system for one company
    // by one evaluator are averaged, so each pair counts once).
    const cells = new Map<string, Map<Protocol, number[]>>();
    for (const row of rows) {
      const score = measureScore(row.answers, measure);
      if (score === null) continue;
      const key = JSON.stringify([row.evaluatorId, row.companyId]);
      const cell = cells.get(key) ?? new Map<Protocol, number[]>();
      cell.set(row.protocol, [...(cell.get(row.protocol) ?? []), score]);
      cells.set(key, cell);
    }
    for (let i = 0; i < protocols.length; i++) {
      for (let j = i + 1; j < protocols.length; j++) {
        const [a, b] = [protocols[i], protocols[j]];
        const x: number[] = [];
        const y: number[] = [];
        for (const cell of cells.values()) {
          const xa = cell.get(a);
          const yb = cell.get(b);
          if (xa && yb) {
            x.push(mean(xa));
            y.push(mean(yb));
          }
        }
        const w = wilcoxonPaired(x, y, opts);
        tests.push({
          measure,
          a,
          b,
          pairs: x.length,
          ...w,
          smallSample: w.n < SMALL_SAMPLE_N,
          medianA: medianIqr(x)?.median ?? null,
          medianB: medianIqr(y)?.median ?? null,
        });
      }
    }
  }
  return { protocols, summaries, tests };
}

export type StudyResults = ReturnType<typeof studyResults>;
