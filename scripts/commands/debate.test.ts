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
    // The offline analyst has no prompt cache: the JSON says 0 cached tokens, on the run and on every turn.
    expect(view.metrics.tokens.cached).toBe(0);
    expect(view.turns.map((t: { usage: { cachedTokens: number } }) => t.usage.cachedTokens)).toEqual(Array(11).fill(0));
  }, 120_000);

  it('ends a run on a one-item pool with a red flag as a red-flag screening: exit code 0, status and shortfall in --json, no step run', () => {
    // Taeyoung E&C's only item is the creditor-bank management filing of 2025-02-17, a decisive red flag.
    const run = cli('debate', '--company', 'taeyoung-engineering-construction', '--protocol', 'kpd-mads', '--lang', 'en', '--as-of', '2025-03-31', '--json');
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    const view = JSON.parse(lines[lines.length - 1]);
    expect(view.status).toBe('red_flag_screening');
    expect(view.shortfall).toEqual({
      items: 1,
      factors: 1,
      minItems: 3,
      minFactors: 2,
      missingFactors: [
        'industry_growth_outlook',
        'industry_competition_intensity',
        'technological_disruption_risk',
        'economic_sensitivity',
        'government_support_programs',
        'management_continuity',
        'employment_stability',
        'certifications',
        'public_interest_trend',
      ],
    });
    expect(view.turns.every((t: { status: string }) => t.status === 'pending')).toBe(true);
    expect(view.report).toBeNull();
    expect(view.metrics.tokens.total).toBe(0);
  }, 120_000);

  it('prints the screening without --json: what it is, what the pool held, and each event', () => {
    const run = cli('debate', '--company', 'taeyoung-engineering-construction', '--protocol', 'sas', '--lang', 'en', '--as-of', '2025-03-31');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^red_flag_screening in /m);
    expect(run.stdout).toContain(
      'Red-flag screening, not a full analysis: As of 2025-03-31 the knowledge pool held 1 evidence item on 1 of the ten guideline factors',
    );
    expect(run.stdout).toContain('- Creditor-bank workout · 2024-01-11 · 채권은행 등의 관리절차 개시');
    expect(run.stdout).toContain('(OpenDART API — 태영건설 주요사항보고서(채권은행 등의 관리절차 개시))');
  }, 120_000);

  it('says what the pool holds and where to add evidence, without --json', () => {
    const run = cli('debate', '--company', 'monro-inc', '--protocol', 'nas', '--lang', 'en', '--as-of', '2025-06-30');
    expect(run.status, run.stderr).toBe(3);
    expect(run.stdout).toMatch(/^insufficient_evidence in /m);
    expect(run.stdout).toContain(
      'as of 2025-06-30 the pool holds 2 evidence items on 1 of the ten guideline factors; an analysis needs at least 3 items on at least 2 factors. No model was called.',
    );
    expect(run.stdout).toMatch(/No evidence on: Industry growth outlook;/);
    expect(run.stdout).not.toMatch(/No evidence on: [^\n]*Economic/);
    expect(run.stdout).toMatch(/npm run cli -- import/);
  }, 120_000);

  it('names an unknown company and exits non-zero', () => {
    const run = cli('debate', '--company', 'no-such-borrower', '--json');
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/No company "no-such-borrower"/);
  }, 60_000);
});

describe('npm run cli -- debate, temperatures', () => {
  it("takes --temperature and --judge-temperature into the run's params, and refuses a temperature out of range", () => {
    const bad = cli('debate', '--company', 'tesla', '--protocol', 'three-round', '--judge-temperature', '3', '--json');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('Use a number from 0 to 2.');
    const run = cli(
      'debate',
      '--company',
      'tesla',
      '--protocol',
      'three-round',
      '--lang',
      'en',
      '--as-of',
      '2025-06-30',
      '--temperature',
      '0.6',
      '--judge-temperature',
      '0.1',
      '--json',
    );
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    const view = JSON.parse(lines[lines.length - 1]);
    expect(view).toMatchObject({ protocol: 'three-round', status: 'succeeded', params: { temperature: 0.6, judgeTemperature: 0.1 } });
  }, 120_000);
});
