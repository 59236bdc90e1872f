// The separate OS processes of a small Crosscheck deployment, for the fault tests and the load
// benchmark: the fake model server (a test utility), app instances (`next start` on a build)
// and queue workers (`scripts/worker.ts`). Each keeps its output for the failure message.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Language } from '@/lib/domain/protocol';
import { freePort } from './pg-cluster';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const TSX = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const NEXT = path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next');

export type Proc = {
  name: string;
  child: ChildProcess;
  /** Everything it printed so far (last 200 kB). */
  output: () => string;
  /** SIGTERM, then SIGKILL after the grace period; resolves when it has exited. */
  stop: (graceMs?: number) => Promise<void>;
  kill: () => Promise<void>;
};

function track(name: string, child: ChildProcess, echo: boolean): Proc {
  let out = '';
  const keep = (d: Buffer) => {
    out = (out + d.toString()).slice(-200_000);
    if (echo) process.stdout.write(d.toString().replace(/^(?=.)/gm, `[${name}] `));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    name,
    child,
    output: () => out,
    stop: async (graceMs = 15_000) => {
      if (!running()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => running() && child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
    kill: async () => {
      if (!running()) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

async function waitFor(proc: Proc, ready: () => Promise<boolean> | boolean, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited (${proc.child.exitCode}) before ${what}:\n${proc.output().slice(-4000)}`);
    if (await ready()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  // A process that never became ready is nobody's to stop later: it goes now, not on with the machine.
  await proc.kill();
  throw new Error(`${proc.name}: no ${what} within ${timeoutMs / 1000} s:\n${proc.output().slice(-4000)}`);
}

/**
 * Starts several processes at once and hands back all of them, or, when one fails to start, stops
 * the ones that did before passing the failure on (a Promise.all would leave them running).
 */
export async function startAll<T extends Proc>(starts: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(starts);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (!failed) return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
  await Promise.allSettled(settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value.stop(5_000)] : [])));
  throw failed.reason;
}

const baseEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  TMPDIR: process.env.TMPDIR,
  NODE_ENV: 'production',
  NEXT_TELEMETRY_DISABLED: '1',
  ...extra,
});

/** `script`: a file of scripted answers (scripts/cluster/reference-script.ts writes one). */
export async function startFakeModel(options: {
  ttftMs: number;
  tokensPerSecond: number;
  faultRate?: number;
  faultKinds?: string[];
  script?: string;
  stamp?: boolean;
  echo?: boolean;
}) {
  const port = await freePort();
  const args = [
    '--import',
    'tsx',
    'scripts/fake-llm/server.ts',
    '--port',
    String(port),
    '--ttft',
    String(options.ttftMs),
    '--tps',
    String(options.tokensPerSecond),
  ];
  if (options.script) args.push('--script', options.script);
  if (options.stamp) args.push('--stamp');
  if (options.faultRate) args.push('--fault-rate', String(options.faultRate), '--fault-kinds', (options.faultKinds ?? ['429', '500']).join(','));
  const proc = track('fake-model', spawn(process.execPath, args, { cwd: ROOT, env: baseEnv({}) }), options.echo ?? false);
  const url = `http://127.0.0.1:${port}/v1`;
  await waitFor(
    proc,
    () =>
      fetch(`${url}/models`).then(
        (r) => r.ok,
        () => false,
      ),
    'answer on /v1/models',
  );
  return { ...proc, url };
}

/**
 * Writes the fake model's answers for one company's runs (see reference-script.ts) to `out`. Its
 * offline run writes audit entries (a run's calls are sealed in the chain), so `env` carries the
 * deployment's AUTH_SECRET: the chain is keyed with it, as every other process's entries are.
 */
export function writeReferenceScript(options: {
  databaseUrl: string;
  companyId: string;
  asOf: string;
  language: Language;
  protocol?: string;
  out: string;
  env: { AUTH_SECRET: string } & Record<string, string>;
}) {
  const args = [
    '--import',
    'tsx',
    'scripts/cluster/reference-script.ts',
    '--database-url',
    options.databaseUrl,
    '--company',
    options.companyId,
    '--as-of',
    options.asOf,
  ];
  args.push('--language', options.language, '--protocol', options.protocol ?? 'kpd-mads', '--out', options.out);
  const result = spawnSync(process.execPath, args, { cwd: ROOT, env: baseEnv(options.env), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`reference script failed: ${result.stderr || result.stdout}`);
}

/** Migrates and seeds the demo data on a PostgreSQL database, as an operator would. */
export function migrateAndSeed(databaseUrl: string, env: Record<string, string> = {}) {
  for (const command of ['migrate', 'seed']) {
    const result = spawnSync(process.execPath, [TSX, 'scripts/db.ts', command], {
      cwd: ROOT,
      env: baseEnv({ DATABASE_URL: databaseUrl, DEMO: '1', ...env }),
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`db ${command} failed: ${result.stderr || result.stdout}`);
  }
}

/** `preload`: modules loaded into the worker before it starts (`--import`), e.g. a benchmark's probe. */
export async function startWorker(name: string, env: Record<string, string>, options: { echo?: boolean; preload?: string[] } = {}) {
  // One process (node with tsx's loader, not the tsx launcher, which would run it in a child):
  // a SIGKILL must hit the worker itself.
  const preload = (options.preload ?? []).flatMap((module) => ['--import', module]);
  const proc = track(
    name,
    spawn(process.execPath, ['--import', 'tsx', ...preload, 'scripts/worker.ts'], { cwd: ROOT, env: baseEnv(env) }),
    options.echo ?? false,
  );
  await waitFor(proc, () => /worker.*(ready|started|listening)/i.test(proc.output()), 'ready line');
  return proc;
}

/**
 * `next start` on the existing production build (run `npm run build` first), with the signal
 * handling `npm start` gives it (NEXT_MANUAL_SIG_HANDLE: lib/shutdown.ts stops the app).
 */
export async function startAppInstance(name: string, env: Record<string, string>, options: { echo?: boolean } = {}) {
  const port = await freePort();
  const proc = track(
    name,
    spawn(process.execPath, [NEXT, 'start', '-p', String(port)], { cwd: ROOT, env: baseEnv({ PORT: String(port), NEXT_MANUAL_SIG_HANDLE: '1', ...env }) }),
    options.echo ?? false,
  );
  const url = `http://localhost:${port}`;
  await waitFor(
    proc,
    () =>
      fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      ),
    'healthy /api/health',
    120_000,
  );
  return { ...proc, url };
}
