// A production build that matches the source, and `next start` on a throwaway embedded database
// (the app migrates it and loads the demo seed on first access), for benchmarks that measure the
// app as a user meets it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const NEXT_BIN = path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next');
// What a build is made of (as scripts/start.mjs checks): newer than .next/BUILD_ID → rebuild.
const SOURCES = [
  'app',
  'components',
  'lib',
  'public',
  'proxy.ts',
  'instrumentation.ts',
  'next.config.mjs',
  'package.json',
  'postcss.config.mjs',
  'tsconfig.json',
];

function newestMtime(entry: string): number {
  const full = path.join(ROOT, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(full).map((child) => newestMtime(path.join(entry, child))));
}

/** Builds with `next build` when there is no build or the source changed since; a benchmark of a stale build measures code that is gone. */
export function ensureBuild(log: (message: string) => void) {
  const buildId = path.join(ROOT, '.next', 'BUILD_ID');
  const built = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
  if (built && !SOURCES.some((entry) => newestMtime(entry) > built)) return;
  log(built ? 'the source changed since the last build: next build…' : 'no production build: next build…');
  const result = spawnSync(process.execPath, [NEXT_BIN, 'build'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`next build failed (exit code ${result.status})`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export type NextServer = { baseURL: string; close: () => Promise<void> };

/** `next start` on a fresh PGlite folder with the demo seed; `env` adds e.g. the OpenAI provider. */
export async function startNextServer(env: Record<string, string> = {}): Promise<NextServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crosscheck-bench-ui-'));
  const port = await freePort();
  // localhost, as the browser tests use: Auth.js cookies and redirects follow the host name.
  const baseURL = `http://localhost:${port}`;
  let stderr = '';
  const child: ChildProcess = spawn(process.execPath, [NEXT_BIN, 'start', '-p', String(port), '-H', 'localhost'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      CROSSCHECK_DATA_DIR: dir,
      // Empty, not unset: Next reads .env files only for unset variables.
      DATABASE_URL: '',
      OPENAI_API_KEY: '',
      OPENAI_BASE_URL: '',
      AUTH_SECRET: randomBytes(32).toString('base64'),
      AUTH_TRUST_HOST: 'true',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const close = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        fs.rmSync(dir, { recursive: true, force: true });
        resolve();
      };
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', done);
      child.kill('SIGTERM');
    });
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) {
      await close();
      throw new Error(`next start exited (${child.exitCode}): ${stderr}`);
    }
    // The first health check also migrates and seeds the database.
    const ok = await fetch(`${baseURL}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { baseURL, close };
    await new Promise((r) => setTimeout(r, 250));
  }
  await close();
  throw new Error(`next start did not become healthy in 120 s: ${stderr}`);
}
