// The automated judges from the workspace, against the fake OpenAI-compatible server that
// scripts/e2e-server.mjs starts. Its default replies are schema-valid JSON built from the
// requested schema, with the first value of every enum: the pairwise judge therefore always
// answers "A" — a valid verdict that follows the position, which the page must show as a split.
// The rubric judge on a single-report run (NAS) may number the arguments itself, so the fake's
// answer is valid and stored; on a debate it must score the transcript's own argument ids, which
// the fake invents, so it fails after one repair: the page must say why and store nothing. (A
// debate's success path, with a scripted judge that scores every argument, is
// lib/eval/judge-actions.test.ts.)
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEMO_IDS } from '../lib/domain/demo-ids';
import { acknowledgeFailedChecks, signInAs } from './fixtures';

async function createCase(page: Page, title: string) {
  await page.goto('/cases/new');
  await page.getByLabel('Borrower').selectOption('tesla');
  await page.getByLabel('Case title').fill(title);
  await page.getByLabel('Loan amount').fill('25,000,000');
  await page.getByLabel('Currency').selectOption('USD');
  await page.getByLabel('Purpose of the loan').fill('Capital expenditure for a new battery line');
  await page.getByLabel('As-of date').fill('2025-06-30');
  await page.getByTestId('case-submit').click();
  await expect(page).toHaveURL(/\/cases\/[0-9a-f-]{36}$/);
  return page.url();
}

/** An offline NAS run in English, waited for until it succeeded; returns its id. */
async function offlineRun(page: Page, caseUrl: string) {
  await page.goto(caseUrl);
  const launcher = page.getByTestId('run-launcher');
  await launcher.locator('input[name="protocol"][value="nas"]').check();
  await launcher.locator('input[name="provider"][value="offline"]').check();
  await launcher.getByLabel('Output language').selectOption('en');
  await page.getByTestId('start-run').click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
  return new URL(page.url()).pathname.split('/').pop()!;
}

async function expectNoViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    label,
  ).toEqual([]);
}

async function pageAs(browser: Browser, role: 'rm' | 'committee', colorScheme: 'light' | 'dark' = 'light') {
  const page = await (await browser.newContext({ colorScheme })).newPage();
  await signInAs(page, role);
  return page;
}

test.describe.serial('automated judges', () => {
  let caseUrl = '';
  let a = '';
  let b = '';
  const compareUrl = () => `${caseUrl}/compare?a=${a}&b=${b}`;

  test('the RM runs the pairwise judge on two runs and sees both orders, win rates and the disagreement', async ({ page }) => {
    test.setTimeout(150_000);
    await signInAs(page, 'rm');
    caseUrl = await createCase(page, `Judges ${Date.now().toString(36)}`);
    a = await offlineRun(page, caseUrl);
    b = await offlineRun(page, caseUrl);

    await page.goto(compareUrl());
    const card = page.getByTestId('pairwise-card');
    await expect(card.getByTestId('pairwise-none')).toHaveText('No judgments yet.');
    await expect(card.getByTestId('judge-pairwise-note')).toHaveText('Judge: OpenAI-compatible model fake-llm');
    const button = card.getByTestId('judge-pairwise');
    await expect(button).toBeEnabled();
    await button.click();
    // Two model calls at 300 ms to first token and 30 tokens/s: the pending state is visible.
    await expect(button).toHaveText('Judging… a few model calls, this can take a minute.');
    await expect(button).toBeDisabled();
    await expect(card.getByRole('status')).toHaveText('The pairwise judge has answered; the verdict is stored.', { timeout: 30_000 });

    const verdict = card.getByTestId('pairwise-judgment');
    await expect(verdict).toHaveCount(1);
    // "A" both times: run A wins when shown first, run B when shown first.
    const cells = (order: string) => verdict.getByTestId(`pairwise-${order}`).locator('td');
    await expect(cells('a-first')).toHaveText(['Run A shown as Report A', 'Run A is better', /\S/]);
    await expect(cells('b-first')).toHaveText(['Run B shown as Report A', 'Run B is better', /\S/]);
    await expect(verdict.getByTestId('pairwise-win-rates')).toHaveText('Win rate: run A 0.50 · run B 0.50 (2 comparisons)');
    await expect(verdict.getByTestId('pairwise-agreement')).toHaveText('The two orders disagree: the verdict may follow the position rather than the content.');
    await expect(verdict).toContainText('by Demo RM');
    await expectNoViolations(page, 'compare page with a pairwise judgment');

    // Stored: a reload shows it; the pair asked the other way round shows it from B's side.
    await page.goto(`${caseUrl}/compare?a=${b}&b=${a}`);
    const swapped = page.getByTestId('pairwise-judgment');
    await expect(swapped).toHaveCount(1);
    await expect(swapped.getByTestId('pairwise-a-first').locator('td').nth(1)).toHaveText('Run A is better');
    await expect(swapped.getByTestId('pairwise-b-first').locator('td').nth(1)).toHaveText('Run B is better');
    await expect(page.getByTestId('pairwise-card').getByTestId('pairwise-none')).toHaveCount(0);
  });

  test('the rubric judge scores a single-report run through the fake model; readability and grounding show for an English report', async ({ page }) => {
    test.setTimeout(120_000);
    await signInAs(page, 'rm');
    await page.goto(`/runs/${a}/report`);
    const card = page.getByTestId('evaluation-card');
    for (const key of ['fkgl', 'cli', 'ari']) await expect(card.getByTestId(`readability-${key}`).locator('td').nth(1)).toHaveText(/^-?\d+\.\d$/);
    await expect(card.getByTestId('readability')).toContainText(/From [\d,]+ words? in [\d,]+ sentences?\./);
    await expect(card.getByTestId('grounding')).toHaveText(/^\d+ % of citations resolve to evidence \([\d,]+ of [\d,]+\)\.$/);
    await expect(card.getByTestId('rubric-none')).toHaveText('No judgments yet.');

    await card.getByTestId('judge-rubric').click();
    await expect(card.getByTestId('judge-rubric')).toHaveText('Judging… a few model calls, this can take a minute.');
    await expect(card.getByRole('status')).toHaveText('The rubric judge has answered; the judgment is stored.', { timeout: 90_000 });
    const judgment = card.getByTestId('rubric-judgment');
    await expect(judgment).toHaveCount(1);
    // A single-report run names no arguments, so the judge numbered its own; every score row's
    // weighted column is our 30/30/25/15 weighting of its criteria, whatever the model added up.
    const rows = judgment.getByTestId('rubric-score-row');
    expect(await rows.count()).toBeGreaterThan(0);
    for (const row of await rows.all()) {
      const [logic, evidence, responsiveness, honesty, weighted] = (await row.locator('td').allTextContents()).slice(2).map(Number);
      expect(weighted).toBeCloseTo(0.3 * logic + 0.3 * evidence + 0.25 * responsiveness + 0.15 * honesty, 1);
    }
    expect(await judgment.getByTestId('rubric-trace-row').count()).toBeGreaterThan(0);
    await expect(judgment.getByTestId('rubric-overall')).toContainText(/Side totals: pro \d+\.\d\d · con \d+\.\d\d/);
    await expect(judgment.getByTestId('rubric-overall')).toContainText('Recommendation:');
    await expectNoViolations(page, 'report page with a rubric judgment');

    await page.reload();
    await expect(page.getByTestId('rubric-judgment')).toHaveCount(1);
    await expect(page.getByTestId('rubric-none')).toHaveCount(0);
  });

  test("on a debate, the fake model's invented argument ids fail the rubric judge clearly and nothing is stored", async ({ page }) => {
    test.setTimeout(180_000);
    await signInAs(page, 'rm');
    await page.goto(caseUrl);
    const launcher = page.getByTestId('run-launcher');
    await launcher.locator('input[name="protocol"][value="three-round"]').check();
    await launcher.locator('input[name="provider"][value="offline"]').check();
    await launcher.getByLabel('Output language').selectOption('en');
    await page.getByTestId('start-run').click();
    await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
    await page.goto(`${page.url()}/report`);

    const card = page.getByTestId('evaluation-card');
    await card.getByTestId('judge-rubric').click();
    await expect(card.getByTestId('judge-rubric')).toBeDisabled();
    const alert = card.getByTestId('judge-rubric-form').getByRole('alert');
    await expect(alert).toContainText("The judge's answer was not valid after one repair:", { timeout: 100_000 });
    await expect(alert).toContainText('not arguments of the transcript');
    await expect(card.getByTestId('judge-rubric')).toHaveText('Run the rubric judge');
    await expect(card.getByTestId('rubric-none')).toHaveText('No judgments yet.');
    await expectNoViolations(page, 'report page with a judge error');

    await page.reload();
    await expect(page.getByTestId('evaluation-card').getByTestId('rubric-none')).toHaveText('No judgments yet.');
    await expect(page.getByTestId('rubric-judgment')).toHaveCount(0);
  });

  test('after submission the committee reads the stored verdict without any judge button', async ({ page, browser }) => {
    test.setTimeout(60_000);
    await signInAs(page, 'rm');
    await page.goto(caseUrl);
    await acknowledgeFailedChecks(page);
    await page.getByTestId('submit-case').click();
    await page.getByTestId('submit-case-confirm').click();
    await expect(page.getByText('This case is with the credit committee; runs can no longer be started.')).toBeVisible();

    const committee = await pageAs(browser, 'committee', 'dark');
    await committee.goto(compareUrl());
    const card = committee.getByTestId('pairwise-card');
    await expect(card.getByTestId('pairwise-judgment')).toHaveCount(1);
    await expect(card.getByTestId('pairwise-win-rates')).toHaveText('Win rate: run A 0.50 · run B 0.50 (2 comparisons)');
    await expect(card).toContainText('Stored judgments, read-only.');
    await expect(card.getByTestId('judge-pairwise')).toHaveCount(0);
    await expectNoViolations(committee, 'committee compare page with a judgment (dark)');

    await committee.goto(`/runs/${a}/report`);
    await expect(committee.getByTestId('evaluation-card')).toContainText('Stored judgments, read-only.');
    await expect(committee.getByTestId('rubric-judgment')).toHaveCount(1);
    await expect(committee.getByTestId('judge-rubric')).toHaveCount(0);
    await committee.context().close();
  });

  test('a Korean report says readability is for English reports only', async ({ page }) => {
    await signInAs(page, 'rm');
    await page.goto(`/runs/${DEMO_IDS.run}/report`);
    await expect(page.getByTestId('readability')).toContainText(
      'The readability formulas (FKGL, CLI, ARI) apply to English reports only; this report is in Korean.',
    );
  });
});
