// All five analysis systems end to end through the real `debate` command: first on the built-in
// offline analyst, then through the OpenAI-compatible provider against the fake model server,
// which answers each step with what the offline run wrote — so the second run exercises HTTP,
// streaming, structured output and the engine's rules, and must give the same debate.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOLS } from '@/lib/domain/vocabulary';
import { startFakeLlm, type FakeLlm } from '../fake-llm/server';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crosscheck-systems-cli-'));
const tsx = path.join(process.cwd(), 'node_modules', 'tsx', 'dist', 'cli.mjs');
let fake: FakeLlm;

function cli(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [tsx, 'scripts/cli.ts', ...args], {
      cwd: process.cwd(),
      env: { ...process.env, CROSSCHECK_DATA_DIR: dataDir, DATABASE_URL: '', OPENAI_API_KEY: '', OPENAI_BASE_URL: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

type View = {
  status: string;
  provider: string;
  turns: { step: string; text: string; output: unknown; citations: { verified?: boolean }[] }[];
  report: unknown;
  metrics: { citationGrounding: number | null };
};
const lastJson = (stdout: string): View => JSON.parse(stdout.trim().split('\n').at(-1)!);

beforeAll(async () => {
  fake = await startFakeLlm({ ttftMs: 1, tokensPerSecond: 0 });
});
afterAll(async () => {
  await fake?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run cli -- debate, every system', () => {
  it.each(PROTOCOLS.map((p) => [p]))(
    '%s runs on the offline analyst and, with the same answers, on the fake OpenAI-compatible server',
    async (protocol) => {
      const args = ['debate', '--company', 'travelers-companies', '--protocol', protocol, '--lang', 'en', '--as-of', '2025-06-30', '--json'];
      const offline = await cli([...args, '--provider', 'offline']);
      expect(offline.status, offline.stderr).toBe(0);
      const reference = lastJson(offline.stdout);
      expect(reference).toMatchObject({ status: 'succeeded', provider: 'offline' });
      expect(reference.report).not.toBeNull();

      fake.setScript(reference.turns.map((t) => ({ match: [`Step ${t.step} (`, 'Travelers'], reply: JSON.stringify(t.output) })));
      const before = fake.requests.length;
      const online = await cli([...args, '--provider', 'openai'], { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'gpt-4o-mini' });
      expect(online.status, online.stderr).toBe(0);
      const view = lastJson(online.stdout);
      expect(view).toMatchObject({ status: 'succeeded', provider: 'openai' });
      // Every step went over HTTP, and the debate is the same one.
      expect(fake.requests.length - before).toBeGreaterThanOrEqual(reference.turns.length);
      expect(view.turns.map((t) => [t.step, t.text])).toEqual(reference.turns.map((t) => [t.step, t.text]));
      expect(view.metrics.citationGrounding).toBe(reference.metrics.citationGrounding);
    },
    180_000,
  );
});
