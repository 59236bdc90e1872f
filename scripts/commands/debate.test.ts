// The documented `debate --json` contract (docs/run-export.md), through the real command.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crosscheck-debate-cli-'));
const tsx = path.join(process.cwd(), 'node_modules', 'tsx', 'dist', 'cli.mjs');

function cli(...args: string[]) {
  const run = spawnSync(process.execPath, [tsx, 'scripts/cli.ts', ...args], {
    cwd: process.cwd(),
    env: { ...process.env, CROSSCHECK_DATA_DIR: dataDir, DATABASE_URL: '', OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('npm run cli -- debate', () => {
  it('prints a KPD-MADS run on the offline analyst as one JSON object in the documented shape', () => {
    const run = cli('debate', '--company', 'Tesla, Inc.', '--protocol', 'kpd-mads', '--lang', 'en', '--as-of', '2025-06-30', '--json');
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    const view = JSON.parse(lines[lines.length - 1]);
    expect(view).toMatchObject({ protocol: 'kpd-mads', status: 'succeeded', company: { id: 'tesla' }, params: { asOf: '2025-06-30', language: 'en' } });
    expect(view.turns.map((t: { step: string }) => t.step)).toEqual(['D1', 'D2', 'D3', 'D4', 'D5', 'D6', 'D7', 'D8', 'D9', 'D10', 'AG']);
    const d9 = view.turns.find((t: { step: string }) => t.step === 'D9');
    expect(d9).toMatchObject({ agent: 'A3', team: 'affirmative', act: 'closing', context: ['D1', 'D2', 'D5', 'D8'] });
    for (const t of view.turns) {
      expect(Object.keys(t)).toEqual(expect.arrayContaining(['text', 'claims', 'questions', 'citations', 'toolCalls', 'startedAt', 'finishedAt', 'usage']));
      for (const c of t.citations) expect(c).toMatchObject({ source: expect.any(String), date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), verified: true });
    }
    expect(view.report.content).toMatchObject({ objective: expect.any(String), topics: expect.any(Array) });
    expect(view.metrics).toMatchObject({ breadth: expect.any(Number), rei: expect.any(Number), citationGrounding: 1, tokens: { total: expect.any(Number) } });
    expect(view.metrics.rei).toBeGreaterThan(view.metrics.breadth);
  }, 120_000);

  it('names an unknown company and exits non-zero', () => {
    const run = cli('debate', '--company', 'no-such-borrower', '--json');
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/No company "no-such-borrower"/);
  }, 60_000);
});
