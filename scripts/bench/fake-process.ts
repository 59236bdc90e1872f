// The fake model server in a process of its own, as a real model endpoint would be: the
// benchmark's memory and CPU figures are then the engine's alone.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ScriptEntry } from '../fake-llm/server';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export type FakeProcess = { url: string; close: () => Promise<void> };

export async function startFakeLlmProcess(options: { ttftMs: number; tokensPerSecond: number; script: ScriptEntry[] }): Promise<FakeProcess> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crosscheck-fake-'));
  const scriptFile = path.join(dir, 'script.json');
  fs.writeFileSync(scriptFile, JSON.stringify(options.script));
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(ROOT, 'scripts', 'fake-llm', 'server.ts'), '--port', '0', '--ttft', String(options.ttftMs), '--tps', String(options.tokensPerSecond), '--script', scriptFile],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
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
