import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@': path.dirname(fileURLToPath(import.meta.url)),
      // Outside Next, `server-only` is an empty module (lib/server-only.ts; tsconfig paths do the
      // same for tsx): the check that matters is the build's and the dependency check's.
      'server-only': path.join(path.dirname(fileURLToPath(import.meta.url)), 'lib/server-only.ts'),
    },
  },
  test: {
    // Explicit: the default glob would also pick up Playwright's e2e/*.spec.ts.
    include: ['lib/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    // PGlite runs PostgreSQL compiled to WebAssembly: each open (and its migration) takes seconds.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Forks, not threads: PGlite's WebAssembly memory and the data-folder lock are per process.
    pool: 'forks',
    // Vitest's default is one fewer than the cores: a single worker on a two-core CI machine, where
    // two finished the unit tests in 9.5 minutes instead of 16.5 (most tests wait on a database).
    maxWorkers: Math.max(os.availableParallelism() - 1, 2),
    // One migrated database per backend, which each test's throwaway database copies.
    globalSetup: ['lib/db/test-templates.ts'],
  },
});
