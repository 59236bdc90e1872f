// `debate --json` carries the run's red flags as { kind, evidenceId, date, title }, through the
// real command on the demo pool (docs/run-export.md).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMSUNG_FLAGS } from '@/lib/pool/red-flags.fixtures';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crosscheck-debate-red-flags-'));
const tsx = path.join(process.cwd(), 'node_modules', 'tsx', 'dist', 'cli.mjs');

function debateJson(...args: string[]) {
  const run = spawnSync(process.execPath, [tsx, 'scripts/cli.ts', 'debate', ...args, '--json'], {
    cwd: process.cwd(),
    env: { ...process.env, CROSSCHECK_DATA_DIR: dataDir, DATABASE_URL: '', OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
    encoding: 'utf8',
    timeout: 90_000,
  });
  const lines = run.stdout.trim().split('\n');
  return { status: run.status, stderr: run.stderr, view: JSON.parse(lines[lines.length - 1]) };
}

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('npm run cli -- debate --json: red flags', () => {
  it('lists the four sanctions of Samsung Electronics and shows the report addressed each one', () => {
    const { status, stderr, view } = debateJson('--company', 'samsung-electronics', '--protocol', 'nas', '--lang', 'en', '--as-of', '2025-06-30');
    expect(status, stderr).toBe(0);
    expect(view.redFlags).toEqual(SAMSUNG_FLAGS);
    expect(view.report.checks[0]).toEqual({ id: 'red-flags-addressed', ok: true, message: expect.any(String), items: [] });
  }, 120_000);

  it('keeps the creditor-bank workout of a run that ended as a red-flag screening', () => {
    const { status, view } = debateJson('--company', 'taeyoung-engineering-construction', '--protocol', 'kpd-mads', '--as-of', '2025-03-31');
    expect(status).toBe(0);
    expect(view.status).toBe('red_flag_screening');
    expect(view.redFlags).toEqual([
      {
        kind: 'creditor_workout',
        evidenceId: 'taeyoung-engineering-construction-001',
        date: '2024-01-11',
        title: '채권은행 등의 관리절차 개시: 금융채권자협의회(주채권은행 한국산업은행), 2024.01.11~2027.05.30',
      },
    ]);
  }, 120_000);
});
