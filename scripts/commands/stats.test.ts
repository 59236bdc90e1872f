// The documented `stats wilcoxon --json` contract (README.md), through the real command.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { wilcoxonSignedRank } from '@/lib/eval/stats';

const tsx = path.join(process.cwd(), 'node_modules', 'tsx', 'dist', 'cli.mjs');

function cli(...args: string[]) {
  const run = spawnSync(process.execPath, [tsx, 'scripts/cli.ts', ...args], {
    cwd: process.cwd(),
    env: { ...process.env, DATABASE_URL: '', OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const lastLine = (out: string) => out.trim().split('\n').at(-1)!;

// Twelve paired ratings where the second system always scores higher: the paper's W = 0, n = 12.
const X = '3,3,2,3,3,2,3,3,2,3,3,3';
const Y = '4,5,4,4,5,4,4,5,4,4,4,5';

describe('npm run cli -- stats wilcoxon', () => {
  it("prints {n, W, z, p, r} as JSON and reproduces the paper's uncorrected Z with --no-tie-correction", () => {
    const plain = cli('stats', 'wilcoxon', '--x', X, '--y', Y, '--no-tie-correction', '--json');
    expect(plain.status, plain.stderr).toBe(0);
    const out = JSON.parse(lastLine(plain.stdout));
    expect(out).toMatchObject({ n: 12, W: 0, tieCorrection: false });
    expect(out.z.toFixed(3)).toBe('-3.059');
    expect(out.p.toFixed(3)).toBe('0.002');
    expect(out.r.toFixed(3)).toBe('-0.883');

    const corrected = cli('stats', 'wilcoxon', '--x', X, '--y', Y, '--json');
    const res = JSON.parse(lastLine(corrected.stdout));
    const expected = wilcoxonSignedRank(X.split(',').map(Number), Y.split(',').map(Number));
    expect(res).toEqual({ n: 12, W: 0, z: expected.z, p: expected.p, r: expected.r, tieCorrection: true });
    expect(res.z).not.toBeCloseTo(out.z, 2);
  }, 60_000);

  it('prints a readable table without --json, and names a bad value or unpaired samples', () => {
    const table = cli('stats', 'wilcoxon', '--x', '-1,2,4', '--y', '1,1,4');
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/non-zero pairs n\s+2/);
    expect(table.stdout).toMatch(/W \(smaller sum\)\s+1\b/);

    const bad = cli('stats', 'wilcoxon', '--x', '1,x,3', '--y', '1,2,3', '--json');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/Value 2 \("x"\) is not a number/);

    const unpaired = cli('stats', 'wilcoxon', '--x', '1,2,3', '--y', '1,2', '--json');
    expect(unpaired.status).not.toBe(0);
    expect(unpaired.stderr).toMatch(/same length/);

    const zeros = cli('stats', 'wilcoxon', '--x', '2,3', '--y', '2,3', '--json');
    expect(zeros.status, zeros.stderr).toBe(0);
    expect(JSON.parse(lastLine(zeros.stdout))).toMatchObject({ n: 0, z: null, p: null, r: null, reason: expect.stringMatching(/zero difference/) });
  }, 60_000);
});
