// `npm run cli -- stability` (docs/stability.md), through the real command: N runs of one system
// on the demo draft case as one set, and the agreement figures. The offline analyst is identical
// by design; the realistic fake model is identical at temperature 0 (decision-grade, the
// default on a case) and varies at 0.7.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '@/lib/domain/demo-ids';
import type { Stability } from '@/lib/report/stability';
import { NO_QUIRKS } from '../fake-llm/realistic';
import { startFakeLlm, type FakeLlm } from '../fake-llm/server';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crosscheck-stability-cli-'));
const tsx = path.join(process.cwd(), 'node_modules', 'tsx', 'dist', 'cli.mjs');
let fake: FakeLlm;

// Asynchronous, so the fake model server in this process keeps answering while the command runs.
function cli(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [tsx, 'scripts/cli.ts', ...args], {
      cwd: process.cwd(),
      env: { ...process.env, CROSSCHECK_DATA_DIR: dataDir, DATABASE_URL: '', OPENAI_API_KEY: '', OPENAI_BASE_URL: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill(), 150_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

type Out = {
  stabilitySetId: string;
  model: string;
  temperature: number | null;
  seed: number | null;
  runs: { id: string; status: string }[];
  stability: Stability;
};
const lastJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!) as Out;

beforeAll(async () => {
  fake = await startFakeLlm({ seed: 3, mode: 'realistic', realistic: { rates: NO_QUIRKS }, model: 'fake-realistic' });
});
afterAll(async () => {
  await fake?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run cli -- stability', () => {
  it('runs the offline analyst twice on a case as one set: full agreement, by design', async () => {
    const run = await cli(['stability', '--case', DEMO_IDS.draftCase, '--protocol', 'nas', '--runs', '2', '--lang', 'en', '--json']);
    expect(run.status, run.stderr).toBe(0);
    const out = lastJson(run.stdout);
    expect(out.stabilitySetId).toMatch(/^[0-9a-f-]{36}$/);
    expect(out.runs.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    // The offline analyst gets no sampling settings.
    expect(out).toMatchObject({ temperature: null, seed: null });
    const s = out.stability;
    expect(s.runIds).toEqual(out.runs.map((r) => r.id));
    expect(s.readings.share).toBe(1);
    expect(s.readings.argued).toBeGreaterThan(0);
    expect(s.evidence.share).toBe(1);
    expect(s.evidence.all.length).toBeGreaterThan(0);
    expect(s.topics.byFactor.share).toBe(1);
    expect(s.topics.byTitle.share).toBe(1);
    expect(s.rei.min).toBe(s.rei.max);
    expect(s.rei.min).toBeGreaterThan(0);
  }, 160_000);

  it('on the realistic fake model: decision-grade runs agree in full, runs at temperature 0.7 do not', async () => {
    const env = { OPENAI_BASE_URL: fake.url, OPENAI_MODEL: 'fake-realistic' };
    const graded = await cli(
      ['stability', '--case', DEMO_IDS.draftCase, '--protocol', 'nas', '--runs', '2', '--lang', 'en', '--provider', 'openai', '--json'],
      env,
    );
    expect(graded.status, graded.stderr).toBe(0);
    const g = lastJson(graded.stdout);
    expect(g).toMatchObject({ model: 'fake-realistic', temperature: 0, seed: 1 });
    expect(g.stability.evidence.share).toBe(1);
    expect(g.stability.topics.byTitle.share).toBe(1);
    expect(g.stability.readings.share).toBe(1);

    const warm = await cli(
      ['stability', '--case', DEMO_IDS.draftCase, '--protocol', 'nas', '--runs', '3', '--lang', 'en', '--provider', 'openai', '--temperature', '0.7', '--json'],
      env,
    );
    expect(warm.status, warm.stderr).toBe(0);
    const w = lastJson(warm.stdout);
    expect(w.temperature).toBe(0.7);
    expect(w.runs).toHaveLength(3);
    // Three differently drawn reports do not cite exactly the same items with the same titles.
    expect(w.stability.evidence.share).toBeLessThan(1);
    expect(w.stability.topics.byTitle.share).toBeLessThan(1);
  }, 300_000);

  it('refuses a run count outside 2-5 and an unknown case, saying why', async () => {
    const many = await cli(['stability', '--case', DEMO_IDS.draftCase, '--runs', '6']);
    expect(many.status).not.toBe(0);
    expect(many.stderr).toMatch(/Use a whole number from 2 to 5/);
    const unknown = await cli(['stability', '--case', '00000000-0000-4000-8000-0000000fffff', '--runs', '2']);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/No case "00000000-0000-4000-8000-0000000fffff"/);
  }, 160_000);
});
