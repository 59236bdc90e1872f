// Import of generated evidence through the real pipeline (parse, validate, dedupe, tag,
// write in one transaction) into a scratch PGlite. Target: ≤ 60 s per 100k items.
import { importPool, type ImportSource } from '@/lib/pool/import';
import { evidenceBatches, makeCompanies, toJsonl } from './corpus';
import { round, timed } from './stats';
import type { Benchmark } from './types';

const ROWS_PER_FILE = 25_000;

function sources(total: number): ImportSource[] {
  const companies = makeCompanies(50);
  const encoder = new TextEncoder();
  const files: ImportSource[] = [
    { name: 'companies.json', bytes: encoder.encode(JSON.stringify(companies.map((c) => ({ id: c.id, name: c.name, country: c.country })))) },
  ];
  let n = 0;
  for (const batch of evidenceBatches(companies, total, ROWS_PER_FILE)) {
    files.push({ name: `evidence-${++n}.jsonl`, bytes: encoder.encode(toJsonl(batch)) });
  }
  return files;
}

export const importBenchmark: Benchmark = {
  name: 'import',
  description: 'pool import of generated evidence items (JSONL) into PGlite',
  async run(ctx) {
    const total = ctx.quick ? 10_000 : 100_000;
    const files = sources(total);
    const megabytes = files.reduce((n, f) => n + f.bytes.byteLength, 0) / 1024 / 1024;
    const handle = await ctx.scratchDatabase();
    try {
      ctx.log(`importing ${total.toLocaleString('en')} items (${round(megabytes)} MB) …`);
      const first = await timed(() => importPool({ db: handle.db, sources: files, actorId: null, label: 'bench' }));
      if (first.result.rejected.length || first.result.imported.evidence !== total) {
        throw new Error(`import bench: expected ${total} imported, got ${first.result.imported.evidence} with ${first.result.rejected.length} rejected`);
      }
      ctx.log('importing the same files again (all duplicates) …');
      const again = await timed(() => importPool({ db: handle.db, sources: files, actorId: null, label: 'bench' }));
      const name = `import ${total / 1000}k`;
      return [
        { name, metric: 'wall time', value: round(first.ms / 1000, 2), unit: 's', target: ctx.quick ? undefined : { atMost: 60 } },
        { name, metric: 'rate', value: Math.round(total / (first.ms / 1000)), unit: 'items/s' },
        { name, metric: 're-import (all duplicates)', value: round(again.ms / 1000, 2), unit: 's' },
      ];
    } finally {
      await handle.close();
    }
  },
};
