// `judge` and `eval` through the real CLI, on runs the CLI itself made, with the judge's model
// behind the fake OpenAI-compatible server. Children are spawned asynchronously: the fake
// server lives in this process and must keep answering while they run.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunView } from '@/lib/report/run-view';
import { NEEDS_MODEL } from '@/lib/eval/judges';
import { readabilityOfRun } from '@/lib/eval/readability';
import { startFakeLlm, type FakeLlm } from '../fake-llm/server';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crosscheck-judge-cli-'));
const tsx = path.join(process.cwd(), 'node_modules', 'tsx', 'dist', 'cli.mjs');
const NO_MODEL = { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };

function cli(args: string[], env: Record<string, string> = NO_MODEL): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsx, 'scripts/cli.ts', ...args], {
      cwd: process.cwd(),
      env: { ...process.env, CROSSCHECK_DATA_DIR: dataDir, DATABASE_URL: '', OPENAI_MODEL: '', OPENAI_MODEL_JUDGE: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const lastJson = (out: string) => JSON.parse(out.trim().split('\n').at(-1)!);

let fake: FakeLlm;
let first: RunView;
let second: RunView;

beforeAll(async () => {
  fake = await startFakeLlm();
  const debate = ['debate', '--company', 'tesla', '--protocol', 'nas', '--lang', 'en', '--as-of', '2025-06-30', '--provider', 'offline', '--json'];
  const one = await cli(debate);
  expect(one.status, one.stderr).toBe(0);
  first = lastJson(one.stdout);
  const two = await cli([...debate.slice(0, 4), 'kpd-mads', ...debate.slice(5)]);
  expect(two.status, two.stderr).toBe(0);
  second = lastJson(two.stdout);
}, 180_000);

afterAll(async () => {
  await fake?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run cli -- eval readability', () => {
  it("prints the report's FKGL, Coleman–Liau and ARI as one JSON object", async () => {
    const run = await cli(['eval', 'readability', '--run', first.id, '--json']);
    expect(run.status, run.stderr).toBe(0);
    const out = lastJson(run.stdout);
    expect(out).toEqual({ run: first.id, ...readabilityOfRun(first) });
    expect(out.words).toBeGreaterThan(50);
  }, 60_000);
});

describe('npm run cli -- judge', () => {
  it('refuses with the offline analyst, saying it needs a model', async () => {
    const run = await cli(['judge', 'rubric', '--run', first.id]);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(NEEDS_MODEL);
  }, 60_000);

  it('names a malformed run id', async () => {
    const run = await cli(['judge', 'pairwise', '--a', 'nope', '--b', first.id]);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/"nope" is not a run id/);
  }, 60_000);

  it('judges two runs pairwise in both orders against an OpenAI-compatible endpoint', async () => {
    fake.requests.length = 0;
    fake.setScript([{ match: 'Report A', reply: { winner: 'A', reason: 'It comes first.' } }]);
    const run = await cli(['judge', 'pairwise', '--a', first.id, '--b', second.id, '--json'], {
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: '',
      OPENAI_MODEL_JUDGE: 'judge-model',
    });
    expect(run.status, run.stderr).toBe(0);
    const out = lastJson(run.stdout);
    expect(out).toMatchObject({ a: first.id, b: second.id, wins: { a: 1, b: 1 }, ties: 0, winRate: { a: 0.5, b: 0.5 }, consistent: false });
    const chats = fake.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(chats).toHaveLength(2);
    expect(chats.map((r) => r.body?.model)).toEqual(['judge-model', 'judge-model']);
    for (const r of chats) expect(JSON.stringify(r.body?.messages)).not.toMatch(new RegExp(`${first.id}|${second.id}|kpd-mads|offline-analyst`, 'i'));
  }, 60_000);
});
