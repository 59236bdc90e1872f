// How long an offline run holds up the server it executes in: the built-in analyst runs on the
// web server's own thread, so every stretch of synchronous work in a run (reading the pool,
// building prompts, building the analyst's material) delays every request that arrives meanwhile,
// health checks included. Measured as the longest gap between ticks of a 5 ms timer during
// offline KPD-MADS runs on the demo pool and on one borrower with a large synthetic pool
// (20,000 evidence items and 2,000 document passages; --quick: 2,000 and 200).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Db } from '@/lib/db/client';
import { analyzeDatabase, insertCompanyRows, insertDocumentWithChunks, insertEvidenceRows } from '@/lib/db/queries/bulk-load';
import { seedDemo } from '@/lib/demo/seed';
import { createRun, executeRun } from '@/lib/debate/engine';
import type { Language } from '@/lib/domain/protocol';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { tagByCategory } from '@/lib/pool/factors';
import { documentBatches, evidenceBatches, makeCompanies } from './corpus';
import { round } from './stats';
import type { Benchmark, BenchRow } from './types';

const TICK_MS = 5;

/** The longest gap between timer ticks (less the tick) and the loop-delay histogram's p99, while `work` runs. */
async function blocking(work: () => Promise<unknown>) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  let longest = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - TICK_MS);
    last = now;
  }, TICK_MS);
  histogram.enable();
  try {
    await work();
    // The last slice of work ends before the next tick: wait for that tick to count it.
    await new Promise((r) => setTimeout(r, TICK_MS * 2));
  } finally {
    histogram.disable();
    clearInterval(timer);
  }
  return { longestMs: longest, p99Ms: histogram.percentile(99) / 1e6 };
}

async function offlineRun(db: Db, companyId: string, language: Language) {
  const provider = createOfflineAnalyst();
  const run = await createRun({ db, protocolId: 'kpd-mads', companyId, provider, mode: 'dag', params: { asOf: '2025-12-31', language } });
  const result = await executeRun({ db, runId: run.id, provider });
  if (result.status !== 'succeeded') throw new Error(`offline KPD-MADS on ${companyId} ${result.status}: ${result.error}`);
}

export const eventLoopBenchmark: Benchmark = {
  name: 'event-loop',
  description: 'longest event-loop block during offline KPD-MADS runs (demo pool, and one borrower with a large pool)',
  async run(ctx) {
    const items = ctx.quick ? 2_000 : 20_000;
    const handle = await ctx.scratchDatabase();
    try {
      const db = handle.db;
      await seedDemo(db, { accounts: false });
      const [large] = makeCompanies(1);
      await insertCompanyRows({ db, rows: [{ id: large.id, name: large.name, country: large.country }] });
      // Tagged as an import tags them: a run over untagged items ends at the sufficiency check
      // (lib/debate/sufficiency.ts) before any step.
      for (const batch of evidenceBatches([large], items, 1_000)) {
        await insertEvidenceRows({ db, rows: batch.map((row) => ({ ...row, ...tagByCategory(row), factorSource: 'rule' as const })) });
      }
      for (const { document, chunks } of documentBatches([large], items / 10, 20)) {
        await insertDocumentWithChunks({ db, document, chunks });
      }
      await analyzeDatabase({ db });

      const rows: BenchRow[] = [];
      const cases = [
        { label: 'demo pool', companyId: 'samsung-electronics', language: 'ko' as const, key: 'demo' },
        { label: `${items.toLocaleString('en')} items`, companyId: large.id, language: large.korean ? ('ko' as const) : ('en' as const), key: 'large' },
      ];
      for (const c of cases) {
        ctx.log(`offline KPD-MADS on ${c.label} …`);
        await offlineRun(db, c.companyId, c.language); // warm-up: the first run also compiles the code
        const worst = { longestMs: 0, p99Ms: 0 };
        for (let i = 0; i < 3; i++) {
          const m = await blocking(() => offlineRun(db, c.companyId, c.language));
          worst.longestMs = Math.max(worst.longestMs, m.longestMs);
          worst.p99Ms = Math.max(worst.p99Ms, m.p99Ms);
        }
        const name = `event loop, offline KPD-MADS (${c.label}, ${handle.kind})`;
        rows.push(
          { name, metric: 'longest block', value: round(worst.longestMs, 0), unit: 'ms', target: { atMost: 200 }, key: `${c.key}_longest_block_ms` },
          { name, metric: 'loop delay p99', value: round(worst.p99Ms, 0), unit: 'ms' },
        );
      }
      return rows;
    } finally {
      await handle.close();
    }
  },
};
