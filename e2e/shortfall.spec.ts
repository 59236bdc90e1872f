// A run on too little evidence (docs/protocols.md, "Evidence sufficiency"): as of 2025-02-16,
// the day before Taeyoung E&C's one filing (a creditor-bank workout) was published, its pool is
// empty and holds no red flag, so a run ends before any step as insufficient evidence (with the
// filing, it is a red-flag screening: e2e/screening.spec.ts). The launcher says so before Start;
// the run page says what the pool holds, which factors have nothing and where to add evidence, in
// English and Korean, with no steps and no retry; the case page's list says it too; the case is
// not "analyzing".
import { expect, test } from '@playwright/test';
import { signInAs } from './fixtures';

test('a run on an empty pool ends as insufficient evidence and says what is missing', async ({ page }) => {
  test.setTimeout(90_000);
  await signInAs(page, 'rm');
  await page.goto('/cases/new');
  await page.getByLabel('Borrower').selectOption('taeyoung-engineering-construction');
  await page.getByLabel('Case title').fill(`Taeyoung bridge loan ${Date.now()}`);
  await page.getByLabel('Loan amount').fill('2,000,000,000');
  await page.getByLabel('Currency').selectOption('KRW');
  await page.getByLabel('Purpose of the loan').fill('Bridge financing during the creditor-bank procedure');
  await page.getByLabel('Tenor (months)').fill('6');
  await page.getByLabel('As-of date').fill('2025-02-16');
  await page.getByTestId('case-submit').click();
  await expect(page).toHaveURL(/\/cases\/[0-9a-f-]{36}$/);
  const caseUrl = new URL(page.url()).pathname;

  const launcher = page.getByTestId('run-launcher');
  await expect(launcher.getByTestId('run-outlook')).toHaveAttribute('data-outlook', 'insufficient');
  await launcher.locator('input[name="protocol"][value="kpd-mads"]').check();
  await launcher.locator('input[name="provider"][value="offline"]').check();
  await launcher.getByLabel('Output language').selectOption('en');
  await page.getByTestId('start-run').click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);

  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'insufficient_evidence', { timeout: 30_000 });
  await expect(page.getByTestId('run-status')).toHaveText('Insufficient evidence');
  const notice = page.getByTestId('run-insufficient-evidence');
  await expect(notice).toContainText('Not enough evidence to analyse');
  await expect(notice.getByTestId('shortfall-held')).toContainText(
    'As of 2025-02-16, the knowledge pool holds 0 evidence items on 0 of the ten guideline factors.',
  );
  await expect(notice.getByTestId('shortfall-held')).toContainText('at least 3 items on at least 2 factors');
  await expect(notice.getByTestId('shortfall-missing')).toContainText('Industry growth outlook');
  await expect(notice.getByTestId('shortfall-missing')).toContainText('Internal control risk');
  await expect(notice.getByTestId('shortfall-import')).toHaveAttribute('href', '/import');
  await expect(notice.getByTestId('shortfall-connectors')).toHaveAttribute('href', '/companies/taeyoung-engineering-construction');
  // Not a failure, and nothing ran: no steps waiting, nothing to retry.
  await expect(page.getByTestId('run-error')).toHaveCount(0);
  await expect(page.locator('#transcript')).toHaveCount(0);
  await expect(page.getByTestId('retry-run')).toHaveCount(0);
  await expect(page.getByTestId('progress-count')).toHaveCount(0);

  // The same after a reload, and in Korean.
  await page.getByTestId('language-switch').selectOption('ko');
  await expect(page.getByTestId('run-status')).toHaveText('근거 부족');
  await expect(page.getByTestId('run-insufficient-evidence')).toContainText('분석할 근거가 부족합니다');
  await expect(page.getByTestId('shortfall-missing')).toContainText('산업 성장 전망');
  await page.getByTestId('language-switch').selectOption('en');

  // The case page's list says it too, and the case is a draft again.
  await page.goto(caseUrl);
  const row = page.getByTestId('case-run-row').first();
  await expect(row.getByTestId('run-status')).toHaveAttribute('data-status', 'insufficient_evidence');
  await expect(row.getByTestId('run-shortfall')).toHaveText('Pool: 0 items; factors covered: 0. Needs 3 items on 2 factors.');
  await expect(page.getByTestId('case-facts')).toContainText('Draft');
});
