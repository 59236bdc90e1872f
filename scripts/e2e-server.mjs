// A production server for the browser tests, with data of its own that is thrown away after:
//   E2E_BACKEND=pglite (default)  embedded database in a temp folder; the app migrates and
//                                 seeds the demo data itself on first access.
//   E2E_BACKEND=postgres          a new database on TEST_DATABASE_URL's server, migrated and
//                                 seeded by scripts/db.ts, dropped on exit.
// Unless E2E_FAKE_LLM=0, it also starts the fake OpenAI-compatible server (scripts/fake-llm, a
// test utility) with a slow latency model and points OPENAI_BASE_URL at it, so the browser tests
// can run an analysis on the "OpenAI-compatible" provider and watch it stream.
// Started by playwright.config.ts (webServer), which sends SIGTERM to the process group at the end.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NEXT_BIN = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const TSX_CLI = path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const log = (/** @type {string} */ msg) => console.log(`[e2e-server] ${msg}`);

/** @type {import('node:child_process').ChildProcess | null} */
let child = null;
/** @type {string | null} */
let tempDir = null;
/** @type {{ adminUrl: string, name: string } | null} */
let database = null;
/** @type {Promise<void> | null} */
let cleaning = null;
/** @type {import('node:child_process').ChildProcess | null} */
let fakeLlm = null;
/** @type {import('node:child_process').ChildProcess | null} */
let filings = null;

/**
 * Starts the stand-in for OpenDART and EDGAR (scripts/fixtures/filing-server.ts, a test utility)
 * on FILINGS_PORT and resolves with its origin once it answers. Quiet until a test serves a filing.
 */
async function startFilings(/** @type {NodeJS.ProcessEnv} */ env, /** @type {string} */ dartKey) {
  const port = process.env.FILINGS_PORT || String(await freePort());
  filings = spawn(process.execPath, [TSX_CLI, 'scripts/fixtures/filing-server.ts', '--port', port, '--dart-key', dartKey], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (filings.exitCode !== null) throw new Error(`the filing server exited with code ${filings.exitCode}`);
    const up = await fetch(`${origin}/api/list.json`).then(
      () => true,
      () => false,
    );
    if (up) return origin;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the filing server did not start within 10 s');
}

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/** Starts the fake model server and resolves with its /v1 URL once it answers. */
async function startFakeLlm(/** @type {NodeJS.ProcessEnv} */ env) {
  const port = await freePort();
  // Slow on purpose: a run takes seconds, so tests can reload or join it while it streams.
  // Scripted answers for the runs whose evidence carries a test's marker (e2e/fake-llm-script.json);
  // every other request gets the fake's generated answer. Entries there with a `pace` answer
  // quicker where nothing watches the stream: the judges' prompts (after 1.5 s, time for a test to
  // see the button say it is judging; at 30 tokens/s one judgment took a minute) and the quota
  // probe's run once its 429 wait is over.
  const args = [
    TSX_CLI,
    'scripts/fake-llm/server.ts',
    '--port',
    String(port),
    '--ttft',
    '300',
    '--tps',
    '30',
    '--model',
    'fake-llm',
    '--script',
    'e2e/fake-llm-script.json',
  ];
  fakeLlm = spawn(process.execPath, args, { cwd: root, env, stdio: 'inherit' });
  const url = `http://127.0.0.1:${port}/v1`;
  for (let i = 0; i < 100; i++) {
    if (fakeLlm.exitCode !== null) throw new Error(`the fake model server exited with code ${fakeLlm.exitCode}`);
    const ok = await fetch(`${url}/models`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return url;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the fake model server did not start within 10 s');
}

/** Quotes an identifier for SQL (our names are [a-z0-9_], but never trust that silently). */
const ident = (/** @type {string} */ name) => `"${name.replaceAll('"', '""')}"`;

/** Runs one statement on TEST_DATABASE_URL's database (CREATE/DROP DATABASE need another one). */
async function adminQuery(/** @type {string} */ adminUrl, /** @type {string} */ sql) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Spawns `node <args>` and resolves with its exit code; the child is `child` while it runs. */
function runNode(/** @type {string[]} */ args, /** @type {NodeJS.ProcessEnv} */ env) {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, args, { cwd: root, env, stdio: 'inherit' });
    child = proc;
    proc.on('error', (err) => {
      console.error(`[e2e-server] ${err.message}`);
      resolve(1);
    });
    proc.on('exit', (code, signal) => {
      if (child === proc) child = null;
      resolve(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1));
    });
  });
}

/** Stops the child, then drops the database and the temp folder. Safe to call repeatedly. */
function cleanup() {
  cleaning ??= (async () => {
    if (fakeLlm && fakeLlm.exitCode === null) fakeLlm.kill('SIGTERM');
    if (filings && filings.exitCode === null) filings.kill('SIGTERM');
    const proc = child;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    if (database) {
      const { adminUrl, name } = database;
      // FORCE (PostgreSQL 13+) ends sessions a lingering server might still hold.
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${ident(name)} WITH (FORCE)`)
        .then(() => log(`dropped database ${name}`))
        .catch((err) => console.error(`[e2e-server] could not drop database ${name}: ${err.message}`));
      database = null;
    }
    if (tempDir) {
      fs.rmSync(tempDir, { recursive: true, force: true });
      tempDir = null;
    }
  })();
  return cleaning;
}

for (const signal of /** @type {const} */ (['SIGTERM', 'SIGINT', 'SIGHUP'])) {
  process.on(signal, () => {
    cleanup().finally(() => process.exit(128 + os.constants.signals[signal]));
  });
}

// Last resort when the process exits without going through cleanup() (a thrown error, an
// explicit exit): only synchronous work is possible here, so drop the database from a child.
process.on('exit', () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  if (fakeLlm && fakeLlm.exitCode === null) fakeLlm.kill('SIGKILL');
  if (filings && filings.exitCode === null) filings.kill('SIGKILL');
  if (database) {
    const script =
      "const pg=require('pg');const c=new pg.Client({connectionString:process.argv[1]});" +
      'c.connect().then(()=>c.query(process.argv[2])).finally(()=>c.end()).catch(()=>{})';
    spawnSync(process.execPath, ['-e', script, database.adminUrl, `DROP DATABASE IF EXISTS ${ident(database.name)} WITH (FORCE)`], {
      cwd: root,
      stdio: 'ignore',
      timeout: 10_000,
    });
  }
  if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
});

async function main() {
  const backend = process.env.E2E_BACKEND || 'pglite';
  const port = process.env.PORT;
  if (backend !== 'pglite' && backend !== 'postgres') throw new Error(`E2E_BACKEND must be pglite or postgres, not ${backend}`);
  if (!port) throw new Error('PORT is not set');
  if (!fs.existsSync(NEXT_BIN)) throw new Error(`${NEXT_BIN} is missing: run \`npm install\` first`);

  // A folder of its own in both modes: PGlite's data, and anything else the app keeps on disk,
  // never touch the developer's .data/.
  tempDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), `crosscheck-e2e-${backend}-`));

  /** @type {NodeJS.ProcessEnv} */
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    PORT: port,
    AUTH_SECRET: crypto.randomBytes(32).toString('base64'),
    // `next start` rejects requests from an untrusted host unless told otherwise (Auth.js v5).
    AUTH_TRUST_HOST: 'true',
    // Every browser test signs in from this one machine's address, many times a minute; the
    // sign-in throttle itself is covered by lib/auth/credentials.test.ts.
    SIGN_IN_ATTEMPTS_PER_MINUTE: '100000',
    CROSSCHECK_DATA_DIR: tempDir,
    // Empty, not unset: Next loads .env files only for variables that are not already set, so
    // a developer's .env cannot point the tests at a real database or a real model provider.
    DATABASE_URL: '',
    OPENAI_API_KEY: '',
    OPENAI_BASE_URL: '',
  };

  if (process.env.E2E_FAKE_LLM !== '0') {
    env.OPENAI_BASE_URL = await startFakeLlm(env);
    env.OPENAI_API_KEY = 'fake-key-for-tests';
    env.OPENAI_MODEL = 'fake-llm';
    log(`fake model server at ${env.OPENAI_BASE_URL}`);
  }

  // OpenDART and EDGAR answer from data/fixtures through the stand-in; the watch's scheduled
  // passes are off, so a pass runs only when a test asks for one (an admin's "check now").
  const dartKey = `e2e-dart-key-${crypto.randomBytes(8).toString('hex')}`;
  const filingsOrigin = await startFilings(env, dartKey);
  Object.assign(env, {
    OPENDART_API_KEY: dartKey,
    OPENDART_BASE_URL: `${filingsOrigin}/api`,
    SEC_USER_AGENT: 'Crosscheck browser tests ops@example.org',
    SEC_EDGAR_BASE_URL: filingsOrigin,
    WATCH_PASS_MINUTES: '0',
  });
  log(`filing server at ${filingsOrigin}`);

  if (backend === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error('E2E_BACKEND=postgres needs TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)');
    const name = `crosscheck_e2e_${crypto.randomBytes(6).toString('hex')}`;
    await adminQuery(adminUrl, `CREATE DATABASE ${ident(name)}`);
    database = { adminUrl, name };
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    env.DEMO = '1';
    log(`created database ${name}`);
    for (const command of ['migrate', 'seed']) {
      const code = await runNode([TSX_CLI, 'scripts/db.ts', command], env);
      if (code !== 0) throw new Error(`scripts/db.ts ${command} failed (exit code ${code})`);
    }
  }

  log(`${backend}: next start on http://localhost:${port} (data in ${tempDir})`);
  // Playwright's request client (route.fetch, page.request) reuses idle sockets; Node closes them
  // after 5 s, and a request sent on one at that moment is reset (ECONNRESET) before the app sees
  // it. A longer keep-alive than the client's keeps that race out of the tests.
  const code = await runNode([NEXT_BIN, 'start', '-p', port, '-H', 'localhost', '--keepAliveTimeout', '75000'], env);
  // Unless we are shutting down, reaching here means the server stopped on its own (a crash).
  if (!cleaning) log(`next start exited with code ${code}`);
  await cleanup();
  process.exit(code || 1);
}

main().catch(async (err) => {
  console.error(`[e2e-server] ${err instanceof Error ? err.message : err}`);
  await cleanup();
  process.exit(1);
});
