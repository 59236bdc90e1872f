// `npm run test:e2e`: build the app as it is now, then run Playwright against production
// servers on free ports. Extra arguments go to `playwright test` (e.g. `-- e2e/login.spec.ts`).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium } from './find-browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NEXT_BIN = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const PLAYWRIGHT_CLI = path.join(root, 'node_modules', '@playwright', 'test', 'cli.js');

/** @type {import('node:child_process').ChildProcess | null} */
let current = null;
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => {
    if (current && current.exitCode === null && current.signalCode === null) current.kill(signal);
    else process.exit(130);
  });
}

/** Runs `node <args>` with inherited stdio; resolves to its exit code (1 if killed). */
function node(/** @type {string[]} */ args, /** @type {NodeJS.ProcessEnv} */ env) {
  return new Promise((resolve) => {
    current = spawn(process.execPath, args, { cwd: root, env, stdio: 'inherit' });
    current.on('error', (err) => {
      console.error(err.message);
      resolve(1);
    });
    current.on('exit', (code) => resolve(code ?? 1));
  });
}

/** A TCP port nothing listens on right now (the OS picks it when binding port 0). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

// (a) A missing browser is a failure, never a silent skip.
let chromium;
try {
  chromium = findChromium();
} catch (err) {
  console.error(/** @type {Error} */ (err).message);
  process.exit(1);
}
if (!chromium) {
  console.error(
    'No Chromium found for the browser tests. Install one: `sudo apt-get install -y chromium-headless-shell` (Debian/Ubuntu), ' +
      'or set PLAYWRIGHT_CHROMIUM_PATH to a Chromium/Chrome binary.',
  );
  process.exit(1);
}
for (const file of [NEXT_BIN, PLAYWRIGHT_CLI]) {
  if (!fs.existsSync(file)) {
    console.error(`${path.relative(root, file)} is missing: run \`npm install\` first.`);
    process.exit(1);
  }
}

// (b) Always build: testing a stale .next would pass or fail for code that no longer exists.
// Telemetry off, or the build waits on a host it cannot reach.
const baseEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
console.log('Building the app for the browser tests (next build)…');
const buildCode = await node([NEXT_BIN, 'build'], { ...baseEnv, NODE_ENV: 'production' });
if (buildCode !== 0) {
  console.error(`next build failed (exit code ${buildCode}); not running the browser tests.`);
  process.exit(buildCode);
}

// (c) Fresh ports per run, so a dev server on :3000 or a parallel run never collides.
const env = { ...baseEnv, CROSSCHECK_CHROMIUM: chromium, E2E_PORT: String(await freePort()) };
if (process.env.TEST_DATABASE_URL) {
  let pgPort = await freePort();
  while (String(pgPort) === env.E2E_PORT) pgPort = await freePort();
  env.E2E_PG_PORT = String(pgPort);
}
// The stand-ins for OpenDART and EDGAR (one per server; e2e-server.mjs starts them).
const taken = new Set([env.E2E_PORT, env.E2E_PG_PORT]);
for (const key of ['E2E_FILINGS_PORT', ...(env.E2E_PG_PORT ? ['E2E_PG_FILINGS_PORT'] : [])]) {
  let p = String(await freePort());
  while (taken.has(p)) p = String(await freePort());
  taken.add(p);
  env[key] = p;
}
console.log(
  `Browser tests with ${chromium} on port ${env.E2E_PORT}` +
    (env.E2E_PG_PORT ? ` (PGlite) and ${env.E2E_PG_PORT} (PostgreSQL)` : ' (PGlite; set TEST_DATABASE_URL to add PostgreSQL)'),
);
process.exit(await node([PLAYWRIGHT_CLI, 'test', ...process.argv.slice(2)], env));
