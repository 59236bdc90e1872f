// The Import page against hostile and large files (docs/security.md): front matter marked as
// code is refused by name, an upload over 10 MB but within IMPORT_MAX_FILE_MB goes in (Next.js's
// proxy used to cut it at 10 MB), one over the limit is stopped with a clear message before it is
// sent, and an RM's companies.json cannot rename an existing company. The rules themselves are
// lib/pool/import/security.test.ts and lib/pool/import/upload.test.ts.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { signInAs } from '../fixtures';

const MB = 1024 * 1024;
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** One valid evidence row for Tesla, padded with blank lines (which the import skips) to `bytes`. */
function paddedJsonl(tag: string, bytes: number) {
  const row = JSON.stringify({
    company_id: 'tesla',
    category: 'news',
    title: `Large upload ${tag}`,
    text: 'A row in a large file.',
    published_date: '2024-03-01',
    source_name: 'Probe',
    source_url: `https://example.org/large/${tag}`,
  });
  return Buffer.concat([Buffer.from(`${row}\n`), Buffer.alloc(bytes - row.length - 1, '\n')]);
}

test.describe('import hardening', () => {
  test('a document with ---js front matter is refused as a named row, and nothing is imported', async ({ page }) => {
    await signInAs(page, 'rm');
    await page.goto('/import');
    const markdown = "---js\n({ title: (globalThis.pwned = 'yes'), company_id: 'tesla' })\n---\nBody.\n";
    await page.getByTestId('import-file').setInputFiles({ name: `tesla--evil-${unique()}.md`, mimeType: 'text/markdown', buffer: Buffer.from(markdown) });
    await page.getByTestId('import-submit').click();
    const report = page.getByTestId('import-report');
    await expect(report).toContainText('Nothing was imported');
    const row = report.getByTestId('rejected-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('The front matter is marked "js"; only YAML front matter is read, and it is never run as code.');
    await expect(row.getByRole('cell').nth(1)).toHaveText('1');
  });

  test('an upload over 10 MB within the limit is imported, and one over the limit is stopped before it is sent', async ({ page }) => {
    const tag = unique();
    await signInAs(page, 'rm');
    await page.goto('/import');
    await expect(page.getByText('Files up to 50 MB each, and 100 MB in one import.')).toBeVisible();
    await page.getByTestId('import-file').setInputFiles({ name: `large-${tag}.jsonl`, mimeType: 'application/jsonl', buffer: paddedJsonl(tag, 12 * MB) });
    await page.getByTestId('import-submit').click();
    await expect(page.getByTestId('import-report')).toContainText('Imported 0 companies, 1 evidence item and', { timeout: 60_000 });

    const uploads: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/import')) uploads.push(r.url());
    });
    // Playwright takes a buffer of at most 50 MB; a file on disk has no such limit.
    const tooLarge = test.info().outputPath(`too-large-${tag}.jsonl`);
    fs.writeFileSync(tooLarge, paddedJsonl(`${tag}-2`, 50 * MB + 1));
    await page.getByTestId('import-file').setInputFiles(tooLarge);
    await expect(page.getByTestId('import-too-large')).toHaveText(
      `too-large-${tag}.jsonl is 50.1 MB; the limit is 50 MB per file (IMPORT_MAX_FILE_MB). Split it into smaller files.`,
    );
    await expect(page.getByTestId('import-submit')).toBeDisabled();
    expect(uploads).toEqual([]);
  });

  test("an RM's companies.json that renames an existing company leaves its profile as it was and says so", async ({ page }) => {
    await signInAs(page, 'rm');
    await page.goto('/import');
    const companies = JSON.stringify([{ id: 'tesla', name: `Not Tesla ${unique()}`, country: 'US' }]);
    await page.getByTestId('import-file').setInputFiles({ name: 'companies.json', mimeType: 'application/json', buffer: Buffer.from(companies) });
    await page.getByTestId('import-submit').click();
    const skipped = page.getByTestId('skipped-profile-change');
    await expect(skipped).toHaveCount(1);
    await expect(skipped).toContainText(`Left the profile of "tesla" as it was (name): only an administrator can change an existing company's profile.`);
    await page.goto('/companies/tesla');
    await expect(page.getByRole('heading', { level: 1 })).not.toContainText('Not Tesla');
  });
});
