// The red-flag screening end to end (docs/protocols.md, "Red-flag screening"): Taeyoung E&C as of
// 2025-03-31 holds one filing, a creditor-bank workout. The launcher says before Start that the run
// will be a screening with no time or cost to estimate; the run ends as one, with no steps and no
// retry; its report leads with the event, its source and why it decides, what the pool lacks and
// what to weigh, in English and Korean; the RM submits the case with it; a committee member finds
// it in the queue, reads it as a screening and records a decision.
import { expect, test, type Browser } from '@playwright/test';
import { signInAs } from './fixtures';

async function newSignedInPage(browser: Browser, role: 'rm' | 'committee') {
  const page = await (await browser.newContext()).newPage();
  await signInAs(page, role);
  return page;
}

test.describe.serial('a distressed borrower with a thin record', () => {
  const title = `Taeyoung screening ${Date.now().toString(36)}`;
  let caseUrl = '';
  let runUrl = '';

  test('the RM is told before Start, gets a red-flag screening on SAS and submits the case with it', async ({ page }) => {
    test.setTimeout(120_000);
    await signInAs(page, 'rm');
    await page.goto('/cases/new');
    await page.getByLabel('Borrower').selectOption('taeyoung-engineering-construction');
    await page.getByLabel('Case title').fill(title);
    await page.getByLabel('Loan amount').fill('2,000,000,000');
    await page.getByLabel('Currency').selectOption('KRW');
    await page.getByLabel('Purpose of the loan').fill('Bridge financing during the creditor-bank procedure');
    await page.getByLabel('Tenor (months)').fill('6');
    await page.getByLabel('As-of date').fill('2025-03-31');
    await page.getByTestId('case-submit').click();
    await expect(page).toHaveURL(/\/cases\/[0-9a-f-]{36}$/);
    caseUrl = page.url();

    const launcher = page.getByTestId('run-launcher');
    await expect(launcher.getByTestId('run-outlook')).toHaveAttribute('data-outlook', 'screening');
    await launcher.locator('input[name="protocol"][value="sas"]').check();
    await launcher.locator('input[name="provider"][value="offline"]').check();
    await launcher.getByLabel('Output language').selectOption('en');
    await page.getByTestId('start-run').click();
    await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
    runUrl = page.url();

    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'red_flag_screening', { timeout: 30_000 });
    await expect(page.getByTestId('run-status')).toHaveText('Red-flag screening');
    await expect(page.getByTestId('run-red-flag-screening')).toContainText('This run ended with a red-flag screening instead of a debate');
    await expect(page.getByTestId('red-flags').getByTestId('red-flag-kind')).toHaveText(['Creditor-bank workout']);
    // Nothing waits and nothing is retried: no step ran.
    await expect(page.locator('#transcript')).toHaveCount(0);
    await expect(page.getByTestId('retry-run')).toHaveCount(0);
    await expect(page.getByTestId('progress-count')).toHaveCount(0);

    await page.getByTestId('screening-link').click();
    await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}\/report$/);
    await expect(page.getByTestId('report-notice')).toContainText('Red-flag screening, not a full analysis');
    await expect(page.getByTestId('report-notice')).toContainText('As of 2025-03-31 the knowledge pool held 1 evidence item on 1 of the ten guideline factors');
    const events = page.getByTestId('report-section-screening-events');
    await expect(events).toContainText('Creditor-bank workout — 2024-01-11');
    await expect(events).toContainText('채권은행 등의 관리절차 개시');
    await expect(events).toContainText('The borrower’s creditor banks took over the management of its debts (a workout).');
    await expect(events.getByRole('link', { name: /채권은행 등의 관리절차 개시/ })).toHaveAttribute(
      'href',
      'https://dart.fss.or.kr/dsaf001/main.do?rcpNo=20250217001661',
    );
    await expect(page.getByTestId('report-section-screening-gaps')).toContainText('Industry growth outlook');
    await expect(page.getByTestId('report-section-screening-weigh')).toContainText('The workout’s terms and end date');
    await expect(page.getByTestId('report-transcript')).toHaveCount(0);
    await page.getByTestId('language-switch').selectOption('ko');
    await expect(page.getByTestId('report-notice')).toContainText('위험 신호 점검 (전체 분석 아님)');
    await expect(page.getByTestId('report-section-screening-events')).toContainText('채권은행이 차주의 채무 관리에 들어갔습니다(워크아웃).');
    await page.getByTestId('language-switch').selectOption('en');

    await page.goto(caseUrl);
    const row = page.getByTestId('case-run-row').first();
    await expect(row.getByTestId('run-status')).toHaveAttribute('data-status', 'red_flag_screening');
    await page.getByTestId('submit-case').click();
    await page.getByTestId('submit-case-confirm').click();
    await expect(page.getByText('This case is with the credit committee; runs can no longer be started.')).toBeVisible();
  });

  test('a committee member reads it as a screening and declines', async ({ browser }) => {
    test.setTimeout(90_000);
    const committee = await newSignedInPage(browser, 'committee');
    await committee.goto('/review');
    await committee.getByTestId('waiting-row').filter({ hasText: title }).getByRole('link', { name: title }).click();
    await expect(committee).toHaveURL(caseUrl);
    const row = committee.getByTestId('case-run-row').first();
    await expect(row.getByTestId('run-status')).toHaveText('Red-flag screening');

    await committee.goto(`${runUrl}/report`);
    await expect(committee.getByTestId('report-notice')).toContainText('Red-flag screening, not a full analysis');
    await expect(committee.getByTestId('report-section-screening-events')).toContainText('Creditor-bank workout — 2024-01-11');

    await committee.goto(caseUrl);
    const decision = committee.getByTestId('decision-form');
    await decision.getByTestId('outcome-decline').check();
    await decision.getByLabel('Rationale').fill('The borrower is in a creditor-bank workout until 2027; no new exposure.');
    // The member confirms reading the report and any failed checks (docs/oversight.md).
    await decision.getByTestId('confirm-read-report').check();
    if (await decision.getByTestId('confirm-read-checks').count()) await decision.getByTestId('confirm-read-checks').check();
    await decision.getByTestId('record-decision').click();
    await expect(committee.getByTestId('confirm-decision-outcome')).toHaveText('Outcome: Decline');
    await committee.getByTestId('record-decision-confirm').click();
    await expect(committee.getByTestId('decision').getByTestId('decision-outcome')).toHaveText('Decline');
    await committee.context().close();
  });
});
