// The contract between the bench runner (scripts/bench.ts) and each benchmark module.
import type { DatabaseHandle } from '@/lib/db/client';

/** One measured figure. `target` is what we promise; the runner marks misses. */
export type BenchRow = {
  name: string;
  metric: string;
  value: number;
  unit: string;
  target?: { atMost?: number; atLeast?: number };
  /** Name of the figure in `npm run bench -- --json` (under the benchmark's name). */
  key?: string;
};

export type BenchContext = {
  /** `--quick`: a tenth of the data, for a fast check that the benchmark still runs. */
  quick: boolean;
  /**
   * A migrated, empty database that nothing else uses: PGlite in a fresh temp folder, or a new
   * database on the server given with --postgres. Closing it deletes it.
   */
  scratchDatabase(): Promise<DatabaseHandle>;
  /** Progress for the person waiting (stderr, so the table stays clean). */
  log(message: string): void;
};

export type Benchmark = {
  /** Short and unique: what `--only` matches. */
  name: string;
  description: string;
  run(ctx: BenchContext): Promise<BenchRow[]>;
};
