// The fake model server in a process of its own, as a real model endpoint would be: the
// benchmark's memory and CPU figures are then the engine's alone.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LaterItem, RequestSummary, ScriptEntry } from '../fake-llm/server';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export type FakeProcess = {
  url: string;
  /** What the server did to each request (GET /fake/requests): faults, realistic quirks, planted citations. */
  requests: () => Promise<RequestSummary[]>;
  /** Empties the server's prompt cache (POST /fake/cache/clear): what follows starts cold. */
  clearCache: () => Promise<void>;
  close: () => Promise<void>;
};

export type FakeProcessOptions = {
  ttftMs: number;
  tokensPerSecond: number;
  script?: ScriptEntry[];
  /** `realistic`: answers like an imperfect model (scripts/fake-llm/realistic.ts). */
  mode?: 'replay' | 'realistic';
  /** Realistic rates over the defaults, as --rates takes them: `fence=0.3,empty=0`. */
  rates?: string;
  /** Pool items dated after the as-of date, for post-as-of citations that name real items. */
  laterItems?: LaterItem[];
  seed?: number;
  /** Prefix caching as `vllm` (the server's default), `openai` or `off` (scripts/fake-llm/prompt-cache.ts). */
  promptCache?: 'vllm' | 'openai' | 'off';
};

export async function startFakeLlmProcess(options: FakeProcessOptions): Promise<FakeProcess> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crosscheck-fake-'));
  const scriptFile = path.join(dir, 'script.json');
  fs.writeFileSync(scriptFile, JSON.stringify(options.script ?? []));
  const args = ['--port', '0', '--ttft', String(options.ttftMs), '--tps', String(options.tokensPerSecond), '--script', scriptFile];
  if (options.mode) args.push('--mode', options.mode);
  if (options.rates) args.push('--rates', options.rates);
  if (options.seed !== undefined) args.push('--seed', String(options.seed));
  if (options.promptCache) args.push('--prompt-cache', options.promptCache);
  if (options.laterItems) {
    const laterFile = path.join(dir, 'later-items.json');
    fs.writeFileSync(laterFile, JSON.stringify(options.laterItems));
    args.push('--later-items', laterFile);
  }
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(ROOT, 'scripts', 'fake-llm', 'server.ts'), ...args],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the fake model server did not start in 30 s: ${stderr}`)), 30_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /at (http:\/\/[^\s]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the fake model server exited (${code}): ${stderr}`));
    });
  });
  return {
    url,
    requests: async () => (await (await fetch(url.replace(/\/v1$/, '/fake/requests'))).json()) as RequestSummary[],
    clearCache: async () => {
      const res = await fetch(url.replace(/\/v1$/, '/fake/cache/clear'), { method: 'POST' });
      if (!res.ok) throw new Error(`the fake model server did not clear its cache: ${res.status}`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => {
          fs.rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
