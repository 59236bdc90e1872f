// Browser tests against production servers (`next start`), one per database backend.
// `npm run test:e2e` (scripts/e2e.mjs) builds first and passes the browser and free ports in
// the environment; a bare `npx playwright test` falls back to port 3100 and a found Chromium
// (and then tests whatever `.next` holds, so build first).
import { randomBytes } from 'node:crypto';
import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './scripts/find-browser.mjs';

const chromium = process.env.CROSSCHECK_CHROMIUM || findChromium() || undefined;
const port = Number(process.env.E2E_PORT || 3100);
const pgPort = process.env.E2E_PG_PORT ? Number(process.env.E2E_PG_PORT) : undefined;

type Backend = 'pglite' | 'postgres';

// The stand-in for OpenDART and EDGAR each server starts (scripts/e2e-server.mjs); the tests
// tell it what to serve (e2e/watch.spec.ts), so its port is fixed here, where both sides read it.
process.env.E2E_FILINGS_PORT ||= String(port + 90);
if (pgPort) process.env.E2E_PG_FILINGS_PORT ||= String(pgPort + 90);

// The servers' audit secret, known to the tests as well, so e2e/case-file.spec.ts can check a
// case file's keyed MACs as an examiner holding the key would (docs/case-file.md).
process.env.E2E_AUDIT_SECRET ||= randomBytes(32).toString('base64');

// Specs of what a page shows and how (accessibility, layout at two widths, the interface language,
// the citation popover, static files): the database engine does not change a page's markup, and
// every query behind these pages runs on PostgreSQL in the other specs, so they run on PGlite only.
// They were a third of the PostgreSQL project's time.
const PRESENTATION = ['a11y.spec.ts', 'layout.spec.ts', 'i18n.spec.ts', 'citations.spec.ts', 'static.spec.ts', 'phone.spec.ts'];
const CLUSTER = 'cluster/**';

type WebServer = Exclude<NonNullable<PlaywrightTestConfig['webServer']>, unknown[]>;
const backends: { name: Backend; port: number }[] = [{ name: 'pglite', port }];
if (pgPort) backends.push({ name: 'postgres', port: pgPort });

// `localhost`, not 127.0.0.1: Next reports request URLs as localhost, and Auth.js cookies
// and redirects only line up when the browser uses the same host name.
const baseURL = (p: number) => `http://localhost:${p}`;

function webServer(backend: Backend, p: number): WebServer {
  const env: Record<string, string> = {
    PORT: String(p),
    E2E_BACKEND: backend,
    NEXT_TELEMETRY_DISABLED: '1',
    FILINGS_PORT: (backend === 'postgres' ? process.env.E2E_PG_FILINGS_PORT : process.env.E2E_FILINGS_PORT) ?? '',
  };
  if (process.env.TEST_DATABASE_URL) env.TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
  env.AUDIT_SECRET = process.env.E2E_AUDIT_SECRET!;
  return {
    name: backend,
    command: 'node scripts/e2e-server.mjs',
    env,
    url: `${baseURL(p)}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
    // SIGTERM first so e2e-server.mjs can drop its database / temp folder before exiting.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
  };
}

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: chromium, args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
  },
  projects: [
    ...backends.map((b) => ({ name: b.name, testIgnore: b.name === 'pglite' ? CLUSTER : [CLUSTER, ...PRESENTATION], use: { baseURL: baseURL(b.port) } })),
    // Fault tests of a multi-process deployment (e2e/cluster): they start their own PostgreSQL
    // server, app instances and workers, so they run once, with the PostgreSQL backend.
    // After the others, so its load does not slow their servers down.
    ...(pgPort ? [{ name: 'cluster', testMatch: 'cluster/**/*.spec.ts', timeout: 420_000, dependencies: backends.map((b) => b.name) }] : []),
  ],
  webServer: backends.map((b) => webServer(b.name, b.port)),
});
