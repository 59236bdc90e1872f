// The benchmark registry. To add one (e.g. an import benchmark), write a module exporting a
// `Benchmark` (scripts/bench/types.ts) and append it here; `npm run bench -- --only <name>` runs it.
import { companyPageBenchmark } from './company-page';
import { documentsBenchmark } from './documents';
import { engineBenchmark } from './engine';
import { eventLoopBenchmark } from './event-loop';
import { importBenchmark } from './import';
import { loadBenchmark } from './load';
import { realisticBenchmark } from './realistic';
import { retrievalBenchmark } from './retrieval';
import { stabilityBenchmark } from './stability';
import type { Benchmark } from './types';
import { uiBenchmark } from './ui';

export type { Benchmark, BenchContext, BenchRow } from './types';

export const benchmarks: Benchmark[] = [
  importBenchmark,
  retrievalBenchmark,
  companyPageBenchmark,
  engineBenchmark,
  realisticBenchmark,
  eventLoopBenchmark,
  uiBenchmark,
  documentsBenchmark,
  stabilityBenchmark,
];

/** Minutes of worker processes on a private PostgreSQL server: only with `--load`. */
export const loadBenchmarks: Benchmark[] = [loadBenchmark];
