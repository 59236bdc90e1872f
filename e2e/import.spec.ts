// The Import page's help (issue 16): the CSV and JSONL templates it offers carry exactly the
// columns of the importer's schema, the page lists those columns and the accepted categories,
// and the downloaded CSV template, with one row filled in, imports as it is.
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { EVIDENCE_COLUMNS, IMPORT_CATEGORIES } from '../lib/pool/import/template';
import { signInAs } from './fixtures';

const COLUMNS = EVIDENCE_COLUMNS.map((c) => c.name);

async function download(page: Page, testId: string) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  return { name: file.suggestedFilename(), text: fs.readFileSync((await file.path())!, 'utf8') };
}

test.describe('import help', () => {
  test('the page lists the schema’s columns and categories; the templates carry exactly those columns', async ({ page }) => {
    await signInAs(page, 'rm');
    await page.goto('/import');
    const help = page.getByTestId('import-help');
    await expect(help.getByRole('heading', { name: `Accepted categories (${IMPORT_CATEGORIES.length})` })).toBeVisible();

    // The columns in the schema's order, the required ones marked.
    const rows = help.getByTestId('import-column');
    await expect(rows).toHaveCount(COLUMNS.length);
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-column')))).toEqual(COLUMNS);
    const required = await help
      .locator('[data-testid="import-column"][data-required="true"]')
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-column')));
    expect(required).toEqual(EVIDENCE_COLUMNS.filter((c) => c.required).map((c) => c.name));
    expect(required).toEqual(expect.arrayContaining(['company_id', 'category', 'title', 'text', 'published_date', 'source_name']));
    await expect(
      rows
        .filter({ has: page.locator('code', { hasText: /^company_id$/ }) })
        .getByRole('cell')
        .nth(1),
    ).toHaveText('Required');
    await expect(
      rows
        .filter({ has: page.locator('code', { hasText: /^value$/ }) })
        .getByRole('cell')
        .nth(1),
    ).toHaveText('Optional');

    // The categories: every one the schema accepts, real names among them.
    const categories = await help
      .getByTestId('import-categories')
      .locator('li')
      .evaluateAll((lis) => lis.map((li) => li.getAttribute('data-category')));
    expect(categories).toEqual([...IMPORT_CATEGORIES]);
    expect(categories).toEqual(expect.arrayContaining(['patent', 'legal_proceedings', 'certification', 'news']));

    // CSV: a header row of exactly the columns, then example rows of a demo borrower.
    const csv = await download(page, 'template-csv');
    expect(csv.name).toBe('evidence-template.csv');
    const [header, ...examples] = parse(csv.text, { bom: true }) as string[][];
    expect(header).toEqual(COLUMNS);
    expect(examples.length).toBeGreaterThan(0);
    for (const row of examples) {
      const item = Object.fromEntries(header.map((h, i) => [h, row[i]]));
      expect(item.company_id).toBe('samsung-electronics');
      expect(IMPORT_CATEGORIES).toContain(item.category);
      expect(item.published_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }

    // JSONL: one item a line, each with the required fields and no field outside the schema.
    const jsonl = await download(page, 'template-jsonl');
    expect(jsonl.name).toBe('evidence-template.jsonl');
    const items = jsonl.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, string>);
    expect(items).toHaveLength(examples.length);
    for (const item of items) {
      for (const key of Object.keys(item)) expect(COLUMNS).toContain(key);
      for (const key of EVIDENCE_COLUMNS.filter((c) => c.required).map((c) => c.name)) expect(item[key], key).toBeTruthy();
      expect(IMPORT_CATEGORIES).toContain(item.category);
    }
  });

  test('the downloaded CSV template, with one row filled in, imports as it is', async ({ page }) => {
    const tag = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    await signInAs(page, 'rm');
    await page.goto('/import');
    const csv = await download(page, 'template-csv');
    const [header, example] = parse(csv.text, { bom: true }) as string[][];
    // The template's first row as the RM would fill it: a new item, so not a duplicate, and
    // published yesterday, so the company page lists it among the newest of its factor.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const filled: Record<string, string> = {
      ...Object.fromEntries(header.map((h, i) => [h, example[i]])),
      id: '',
      title: `Template patent count ${tag}`,
      event_date: yesterday,
      published_date: yesterday,
      source_url: `https://example.org/template/${tag}`,
    };
    const file = `\uFEFF${stringify([header, header.map((h) => filled[h] ?? '')])}`;
    await page.getByTestId('import-file').setInputFiles({ name: 'evidence-template.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await page.getByTestId('import-submit').click();
    const report = page.getByTestId('import-report');
    await expect(report.getByRole('status')).toHaveText('Imported 0 companies, 1 evidence item and 0 documents (0 passages); skipped 0 duplicates.');
    await expect(report.getByTestId('rejected-row')).toHaveCount(0);

    await page.goto(`/companies/${filled.company_id}`);
    const item = page.getByTestId('evidence-item').filter({ hasText: filled.title });
    await expect(item).toHaveCount(1);
    await expect(item).toContainText(filled.source_name);
  });
});
