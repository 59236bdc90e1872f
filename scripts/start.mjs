#!/usr/bin/env node
// `npm start`: builds when the build is missing or older than the source, then serves it.
// The server migrates the database, seeds a new embedded one, creates the demo accounts on
// PostgreSQL with DEMO=1 (lib/startup.ts), and prints the demo sign-ins.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', CROSSCHECK_ENV: process.env.CROSSCHECK_ENV || 'start' };
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

function newestMtime(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

function needsBuild() {
  const buildId = path.join(root, '.next', 'BUILD_ID');
  if (!fs.existsSync(buildId)) return true;
  const built = fs.statSync(buildId).mtimeMs;
  return SOURCES.some((entry) => newestMtime(entry) > built);
}

if (needsBuild()) {
  console.log('Building Crosscheck (first start or changed source)…');
  const build = spawnSync(process.execPath, [nextBin, 'build'], { cwd: root, env, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const port = process.env.PORT || '3000';
// NEXT_MANUAL_SIG_HANDLE: the app stops itself on SIGTERM/SIGINT (lib/shutdown.ts), so the
// embedded worker can finish or hand over its runs instead of Next.js exiting at once.
const server = spawn(process.execPath, [nextBin, 'start', '-p', port], {
  cwd: root,
  env: { ...env, PORT: port, NEXT_MANUAL_SIG_HANDLE: '1' },
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
