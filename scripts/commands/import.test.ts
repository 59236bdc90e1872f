// The CLI contract: one JSON object on the last line of stdout, non-zero exit when rows were
// rejected and nothing written. Runs the real command in a child process on its own data folder.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crosscheck-cli-'));
const tsx = path.join(process.cwd(), 'node_modules', 'tsx', 'dist', 'cli.mjs');

function cli(...args: string[]) {
  const run = spawnSync(process.execPath, [tsx, 'scripts/cli.ts', ...args], {
    cwd: process.cwd(),
    env: { ...process.env, CROSSCHECK_DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const lines = run.stdout.trim().split('\n');
  return { status: run.status, last: JSON.parse(lines[lines.length - 1]), stderr: run.stderr };
}

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('npm run cli -- import --json', () => {
  it('reports rejected rows and exits non-zero without writing, then imports the fixed file', () => {
    const file = path.join(dataDir, 'evidence.csv');
    const header = 'company_id,category,title,text,published_date,source_name,source_url';
    fs.writeFileSync(file, `${header}\ntesla,news,Recall,Text,2024-02-30,Reuters,https://example.com/a\n`);
    const bad = cli('import', file, '--json');
    expect(bad.status).not.toBe(0);
    expect(bad.last).toEqual({
      imported: { companies: 0, evidence: 0, documents: 0, chunks: 0 },
      skippedDuplicates: 0,
      rejected: [{ file: 'evidence.csv', row: 2, field: 'published_date', message: '"2024-02-30" is not a real date written YYYY-MM-DD' }],
    });

    fs.writeFileSync(file, `${header}\ntesla,news,Recall,Text,2024-02-29,Reuters,https://example.com/a\n`);
    const good = cli('import', file, '--json');
    expect(good.status).toBe(0);
    expect(good.last).toMatchObject({ imported: { evidence: 1 }, skippedDuplicates: 0, rejected: [] });
  }, 120_000);
});

describe('npm run cli -- import of a document with code for front matter', () => {
  it('a document with ---js front matter is refused by name and its code never runs', () => {
    const folder = path.join(dataDir, 'js-front-matter');
    const marker = path.join(dataDir, 'front-matter-ran');
    fs.mkdirSync(path.join(folder, 'documents'), { recursive: true });
    const code = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran'); ({ title: 'x' })`;
    fs.writeFileSync(path.join(folder, 'documents', 'tesla--evil.md'), `---js\n${code}\n---\nBody.\n`);
    const run = cli('import', folder, '--json');
    expect(run.status).not.toBe(0);
    expect(fs.existsSync(marker)).toBe(false);
    expect(run.last.rejected).toEqual([
      {
        file: 'documents/tesla--evil.md',
        row: 1,
        field: null,
        message: 'The front matter is marked "js"; only YAML front matter is read, and it is never run as code.',
      },
    ]);
  }, 120_000);
});
