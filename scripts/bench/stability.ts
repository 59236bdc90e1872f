// Run-to-run stability (docs/stability.md) on the realistic fake model (scripts/fake-llm/
// realistic.ts, at its default quirk rates): sets of N runs of one system on one company, at
// temperature 0 with a seed (decision-grade) and at 0.7, through the real engine and the
// OpenAI-compatible provider. Each set's agreement is measured as the stability view measures it
// (lib/report/stability.ts) over its succeeded runs; the table gives the mean over the sets.
// The fake answers the same request alike at temperature 0 and draws afresh at any other, so the
// 0 row is what perfect determinism gives; a real endpoint at temperature 0 varies somewhat.
import { createRun, executeRun } from '@/lib/debate/engine';
import { seedDemo } from '@/lib/demo/seed';
import type { ProtocolId } from '@/lib/domain/protocol';
import { createOpenAiProvider } from '@/lib/llm/openai';
import { loadRunView } from '@/lib/report/run-view';
import { measureStability, MIN_STABILITY_RUNS, type Stability } from '@/lib/report/stability';
import { startFakeLlmProcess, type FakeProcess } from './fake-process';
import { laterDemoItems, REALISTIC_AS_OF } from './realistic';
import { round } from './stats';
import type { Benchmark, BenchRow } from './types';

const COMPANIES = ['samsung-electronics', 'tesla', 'travelers-companies'];
export const STABILITY_SETTINGS = [
  { label: 'T=0, seed 1', temperature: 0, seed: 1 },
  { label: 'T=0.7', temperature: 0.7 },
] as const;

export type StabilitySetResult = { temperature: number; protocol: ProtocolId; companyId: string; runs: number; succeeded: number; stability: Stability | null };

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
const sharesOf = (sets: Stability[], pick: (s: Stability) => number | null) => sets.map(pick).filter((x): x is number => x !== null);

/** The table's rows for one setting: runs that succeeded, sets compared, and the mean agreement of the sets. */
export function stabilityRows(label: string, results: StabilitySetResult[]): BenchRow[] {
  const name = `stability (${label})`;
  const sets = results.map((r) => r.stability).filter((s): s is Stability => s !== null);
  const pct = (pick: (s: Stability) => number | null) => round(100 * mean(sharesOf(sets, pick)), 1);
  const key = label.replace(/[^a-z0-9]+/gi, '_').toLowerCase();
  return [
    { name, metric: 'runs succeeded', value: results.reduce((n, r) => n + r.succeeded, 0), unit: `of ${results.reduce((n, r) => n + r.runs, 0)}` },
    { name, metric: `sets compared (≥ ${MIN_STABILITY_RUNS} runs succeeded)`, value: sets.length, unit: `of ${results.length}` },
    { name, metric: 'factors read the same in every run, mean', value: pct((s) => s.readings.share), unit: '%', key: `${key}_readings_pct` },
    { name, metric: 'evidence cited by every run of all cited, mean', value: pct((s) => s.evidence.share), unit: '%', key: `${key}_evidence_pct` },
    { name, metric: 'report topics in common by factor, mean', value: pct((s) => s.topics.byFactor.share), unit: '%', key: `${key}_topics_factor_pct` },
    { name, metric: 'report topics in common by title, mean', value: pct((s) => s.topics.byTitle.share), unit: '%', key: `${key}_topics_title_pct` },
    {
      name,
      metric: 'REI range (max − min) within a set, mean',
      value: round(mean(sets.map((s) => s.rei.max - s.rei.min)), 2),
      unit: 'REI',
      key: `${key}_rei_range`,
    },
    { name, metric: 'deepest-branch range within a set, mean', value: round(mean(sets.map((s) => s.depth.max - s.depth.min)), 2), unit: 'levels' },
  ];
}

export const stabilityBenchmark: Benchmark = {
  name: 'stability',
  description: 'how much N runs of one system agree on the realistic fake model, at temperature 0 (seeded) and 0.7',
  async run(ctx) {
    const protocols: ProtocolId[] = ctx.quick ? ['nas'] : ['nas', 'kpd-mads'];
    const companies = ctx.quick ? COMPANIES.slice(0, 1) : COMPANIES;
    const n = ctx.quick ? 2 : 3;
    const handle = await ctx.scratchDatabase();
    let fake: FakeProcess | undefined;
    try {
      await seedDemo(handle.db, { accounts: false });
      // Fast pace: stability is about what the runs say, not how soon.
      fake = await startFakeLlmProcess({ ttftMs: 20, tokensPerSecond: 2000, mode: 'realistic', laterItems: laterDemoItems(REALISTIC_AS_OF), seed: 29 });
      const provider = createOpenAiProvider({ apiKey: 'bench', baseURL: fake.url, model: 'gpt-4o' });
      const rows: BenchRow[] = [];
      for (const setting of STABILITY_SETTINGS) {
        const results: StabilitySetResult[] = [];
        for (const protocol of protocols) {
          for (const companyId of companies) {
            // One set: its runs at once, as the case page starts them.
            const runs = await Promise.all(
              Array.from({ length: n }, () =>
                createRun({
                  db: handle.db,
                  protocolId: protocol,
                  companyId,
                  provider,
                  params: { asOf: REALISTIC_AS_OF, language: 'en', temperature: setting.temperature, ...('seed' in setting ? { seed: setting.seed } : {}) },
                }),
              ),
            );
            await Promise.all(runs.map((run) => executeRun({ db: handle.db, runId: run.id, provider })));
            const views = await Promise.all(runs.map((run) => loadRunView({ db: handle.db, runId: run.id })));
            const ok = views.filter((v) => v.status === 'succeeded');
            const stability = ok.length >= MIN_STABILITY_RUNS ? measureStability(ok) : null;
            results.push({ temperature: setting.temperature, protocol, companyId, runs: n, succeeded: ok.length, stability });
            ctx.log(
              `${setting.label} ${protocol} ${companyId}: ${ok.length}/${n} succeeded${
                stability
                  ? `, readings ${round(100 * (stability.readings.share ?? 0), 0)}%, evidence ${round(100 * (stability.evidence.share ?? 0), 0)}%, REI ${stability.rei.min}-${stability.rei.max}`
                  : ''
              }`,
            );
          }
        }
        rows.push(...stabilityRows(setting.label, results));
      }
      return rows;
    } finally {
      await fake?.close();
      await handle.close();
    }
  },
};
