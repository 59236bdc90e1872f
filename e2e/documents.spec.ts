// Filings in, end to end: an RM uploads an EDGAR 10-K page (data/fixtures/documents/) from the
// company's page, reviews its candidate items beside the highlighted passage, accepts one, and
// finds it in the pool with its passage one click away. A file Crosscheck does not read is
// refused by name. The rules themselves are lib/pool/documents/*.test.ts.
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { auditEntry, signInAs } from './fixtures';

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const tenK = fs.readFileSync('data/fixtures/documents/tesla-10k-fy2024-legal-proceedings.htm');

async function upload(page: Page, file: { name: string; mimeType: string; buffer: Buffer }, title: string) {
  await page.goto('/companies/tesla');
  await page.getByTestId('upload-document-toggle').click();
  const form = page.getByTestId('upload-document');
  await form.getByLabel('File').setInputFiles(file);
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Kind').selectOption('annual_report');
  await form.getByLabel('Published on').fill('2025-01-30');
  await form.getByLabel('Source', { exact: true }).fill('SEC EDGAR — Tesla, Inc. Form 10-K (FY2024)');
  await form
    .getByLabel('Source address (where the document is published)')
    .fill(`https://www.sec.gov/Archives/edgar/data/1318605/tsla-20241231.htm?e2e=${unique()}`);
  await form.getByTestId('upload-document-submit').click();
}

test.describe('filings in', () => {
  test('an RM uploads a 10-K page, accepts one candidate beside its passage, and opens the passage from the pool', async ({ page }) => {
    await signInAs(page, 'rm');
    const tag = unique();
    // A comment of its own makes the file new to the pool on every run (the id is the file's hash).
    const buffer = Buffer.concat([tenK, Buffer.from(`<!-- ${tag} -->`)]);
    await upload(page, { name: 'tsla-20241231.htm', mimeType: 'text/html', buffer }, `Tesla 10-K FY2024 legal proceedings ${tag}`);

    await expect(page).toHaveURL(/\/companies\/tesla\/documents\/tesla--upload-[0-9a-f]{16}$/);
    const documentUrl = new URL(page.url()).pathname;
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Tesla 10-K FY2024 legal proceedings ${tag}`);
    // The script and hidden XBRL facts of the page are not its text.
    await expect(page.getByTestId('document-body')).toContainText('On June 4, 2018, a purported Tesla stockholder');
    await expect(page.getByTestId('document-body')).not.toContainText('injected script text');
    const candidates = page.getByTestId('candidates');
    await expect(candidates.getByRole('heading', { level: 2 })).toHaveText('Candidate evidence (46 waiting)');
    // The tests' fake model is configured, and slow: it reads after the upload has answered.
    await expect(page.getByTestId('model-reading')).toHaveAttribute('data-state', 'reading');
    await expect(page.getByTestId('model-reading')).toContainText('The model (fake-llm) is still reading this document');

    const first = candidates.getByTestId('candidate').first();
    await expect(first).toContainText('2018-06-04');
    await expect(first).toContainText('legal proceedings');
    await first.getByTestId('show-passage').click();
    await expect(page.getByTestId('passage')).toHaveText(/^On June 4, 2018, a purported Tesla stockholder filed a putative class and derivative action/);

    await first.getByTestId('accept-candidate').click();
    await expect(candidates.getByRole('heading', { level: 2 })).toHaveText('Candidate evidence (45 waiting)');

    // In the pool: tagged, sourced, and its passage one click away.
    await page.goto('/companies/tesla?factor=internal_control_risk');
    const link = page.locator(`a[data-testid="evidence-passage"][href^="${documentUrl}?at="]`);
    await expect(link).toHaveCount(1);
    const item = page.getByTestId('evidence-item').filter({ has: link });
    await expect(item).toContainText('On June 4, 2018, a purported Tesla stockholder');
    await expect(item).toContainText('event 2018-06-04 · SEC EDGAR — Tesla, Inc. Form 10-K (FY2024) · Open the passage · added by Demo RM');
    await link.click();
    await expect(page).toHaveURL(new RegExp(`${documentUrl}\\?at=\\d+-\\d+#passage$`));
    await expect(page.getByTestId('passage')).toHaveText(/^On June 4, 2018, a purported Tesla stockholder/);
    await expect(page.getByTestId('candidate').filter({ hasText: '2018-06-04' }).first()).toHaveAttribute('data-status', 'accepted');
  });

  test('a reading the model failed is read again on request, and the request is audited', async ({ page, browser }, testInfo) => {
    test.setTimeout(120_000);
    await signInAs(page, 'rm');
    const tag = unique();
    // The marker makes the fake model refuse the passage's first request (e2e/fake-llm-script.json);
    // the same passage asked again is answered.
    const html = `<html><body><h1>Notice ${tag}</h1><p>REREAD-FAIL-PROBE ${tag}.</p><p>On January 10, 2025, the chief financial officer resigned.</p></body></html>`;
    await upload(page, { name: `notice-${tag}.htm`, mimeType: 'text/html', buffer: Buffer.from(html) }, `Notice ${tag}`);
    await expect(page).toHaveURL(/\/companies\/tesla\/documents\/tesla--upload-[0-9a-f]{16}$/);
    const reading = page.getByTestId('model-reading');
    await expect(async () => {
      await page.reload();
      await expect(reading).toHaveAttribute('data-state', 'failed', { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(reading).toContainText(
      "The model (fake-llm) could not read this document, so only the rule candidates are shown: The model endpoint answered 400 The model refused this passage (a test's fault).",
    );

    // The page shows the new reading at once (the action refreshes it).
    await reading.getByTestId('reread-document').click();
    await expect(reading).toHaveAttribute('data-state', /^(reading|done)$/);
    await expect(async () => {
      await page.reload();
      await expect(reading).toHaveAttribute('data-state', 'done', { timeout: 1_000 });
    }).toPass({ timeout: 60_000 });
    await expect(reading).toContainText('The model (fake-llm) read 1 passage');
    await expect(reading.getByTestId('reread-document')).toHaveCount(0);

    const documentId = new URL(page.url()).pathname.split('/').pop()!;
    const admin = await (await browser.newContext({ baseURL: testInfo.project.use.baseURL })).newPage();
    await signInAs(admin, 'admin');
    const { valueOf } = await auditEntry(admin, 'document.model_reread', documentId, 'Model asked to read the document again');
    await expect(valueOf('Last reading')).toHaveText('Failed');
    await expect(valueOf('Model')).toHaveText('fake-llm');
  });

  test('a file Crosscheck does not read is refused by name, and nothing is added', async ({ page }) => {
    await signInAs(page, 'rm');
    const name = `scan-${unique()}.png`;
    await upload(page, { name, mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]) }, 'A scan');
    await expect(page.getByTestId('upload-document')).toContainText(
      `${name}: not a document Crosscheck reads. Upload HTML, a DART original document (.zip or .xml) or a PDF.`,
    );
    await expect(page).toHaveURL(/\/companies\/tesla$/);
  });
});
