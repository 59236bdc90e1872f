// axe-core on the sign-in page and every page each role can reach, in light and dark mode.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { NAV } from '../lib/auth/permissions';
import { ROLES } from '../lib/domain/vocabulary';
import { DEMO_IDS } from '../lib/domain/demo-ids';
import { signInAs } from './fixtures';

const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
// What the colour scheme changes: the page's colours and nothing else (globals.css follows the
// system setting through prefers-color-scheme), so the other rules are not run twice.
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * Every WCAG 2.1 A and AA rule on the page as it is, in light mode; then the same page switched to
 * dark mode in place (no reload, so a dialog or popover stays open) for the colour rules; then back.
 */
async function expectNoViolations(page: Page, label: string) {
  const summary = (results: Awaited<ReturnType<AxeBuilder['analyze']>>) =>
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  await page.emulateMedia({ colorScheme: 'light' });
  expect(summary(await new AxeBuilder({ page }).withTags(WCAG_AA).analyze()), `${label} (light)`).toEqual([]);
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), `${label}: dark mode on`).toBe(true);
  expect(summary(await new AxeBuilder({ page }).withRules(COLOUR_RULES).analyze()), `${label} (dark)`).toEqual([]);
  await page.emulateMedia({ colorScheme: 'light' });
}

test.describe('accessibility', () => {
  test('sign-in page, also with an error shown', async ({ page }) => {
    await page.goto('/login');
    await expectNoViolations(page, 'login');
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('login-error')).toBeVisible();
    await expectNoViolations(page, 'login with errors');
  });

  test('a case page and a finished run page, with a citation popover open', async ({ page }) => {
    test.setTimeout(90_000);
    await signInAs(page, 'rm');
    await page.goto('/cases/new');
    await page.getByTestId('case-submit').click();
    await expect(page.getByText('Choose a borrower from the pool.')).toBeVisible();
    await expectNoViolations(page, 'new case with errors');
    await page.getByLabel('Borrower').selectOption('samsung-electronics');
    await page.getByLabel('Case title').fill('Accessibility');
    await page.getByLabel('Loan amount').fill('1000000000');
    await page.getByLabel('Purpose of the loan').fill('Working capital');
    await page.getByTestId('case-submit').click();
    await expect(page).toHaveURL(/\/cases\/[0-9a-f-]{36}$/);
    await expectNoViolations(page, 'case page');
    await page.getByTestId('start-run').click();
    await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
    await expect(page.getByTestId('progress-count')).toHaveText('11 of 11 steps', { timeout: 60_000 });
    await page.getByTestId('turn-D1').getByTestId('citation-chip').first().focus();
    await expectNoViolations(page, 'finished run page');
  });

  test("the committee's comment form on a turn and the decision form", async ({ page }) => {
    // Four passes of axe, one over a whole finished run: 30 s ran out on a busy two-core machine.
    test.setTimeout(90_000);
    await signInAs(page, 'committee');
    await page.goto(`/runs/${DEMO_IDS.run}`);
    await page.getByTestId('turn-D1').getByTestId('turn-comments-toggle').click();
    await expect(page.getByTestId('turn-D1').getByTestId('turn-comment-form')).toBeVisible();
    await expectNoViolations(page, "committee run page with a turn's comments open");
    await page.goto(`/cases/${DEMO_IDS.submittedCase}`);
    await page.getByTestId('record-decision').click();
    // The confirmation is a modal dialog, named by its title; axe checks it open.
    await expect(page.getByRole('dialog', { name: 'Record this decision?' })).toBeVisible();
    await expectNoViolations(page, 'committee decision confirmation dialog');
    await page.getByTestId('record-decision-confirm').click();
    // Nothing was chosen (no outcome is picked for the member): the form says so at the outcome.
    await expect(page.getByTestId('outcome-error')).toHaveText('Choose a decision.');
    await expectNoViolations(page, 'committee decision form with errors');
  });

  // One test per page: a role's pages in one test ran past 90 s on a loaded CI machine (axe alone
  // takes about 9 s on the audit log's table, and the admin role has it twice).
  for (const role of ROLES) {
    const extra =
      role === 'rm'
        ? [
            '/companies/taeyoung-engineering-construction',
            '/companies/tesla/documents/tesla--10k-fy2024-item-1c-cybersecurity',
            '/import',
            '/cases/new',
            '/inbox',
          ]
        : role === 'admin'
          ? ['/admin/audit?verify=1', '/admin/studies/new']
          : [];
    for (const href of ['/', ...NAV[role].map((item) => item.href), ...extra]) {
      test(`${role}: ${href === '/' ? 'home' : href}`, async ({ page }) => {
        test.setTimeout(60_000);
        await signInAs(page, role);
        if (href !== '/') {
          await page.goto(href);
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        }
        await expectNoViolations(page, `${role} ${href}`);
      });
    }
  }

  test('a study: its admin page and results, and the evaluator’s blinded rating page', async ({ browser }) => {
    test.setTimeout(90_000);
    const admin = await (await browser.newContext()).newPage();
    await signInAs(admin, 'admin');
    await admin.goto('/admin/studies/new');
    await admin.getByLabel('Study name').fill(`Accessibility ${Date.now()}`);
    await admin.locator(`tr[data-run-id="${DEMO_IDS.run}"] input[type="checkbox"]`).check();
    await admin.getByLabel(/Demo Evaluator/).check();
    // One report has no report of another system to pair with: created only with the explicit tick.
    await admin.getByTestId('create-anyway').check();
    await admin.getByTestId('create-study').click();
    await expect(admin).toHaveURL(/\/admin\/studies\/[0-9a-f-]{36}$/);
    await admin.getByTestId('open-study').click();
    await expect(admin.getByTestId('study-status').first()).toHaveAttribute('data-status', 'open');
    await expectNoViolations(admin, 'admin study page');
    await admin.goto(`${new URL(admin.url()).pathname}/results`);
    await expect(admin.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoViolations(admin, 'admin study results');

    const evaluator = await (await browser.newContext()).newPage();
    await signInAs(evaluator, 'evaluator');
    await evaluator.goto('/ratings');
    await evaluator
      .getByTestId('ratings-study')
      .filter({ hasText: /Accessibility/ })
      .first()
      .getByRole('link', { name: 'Report 1' })
      .click();
    await expect(evaluator.getByRole('heading', { level: 1 })).toBeVisible();
    await evaluator.getByTestId('item-trustworthiness').locator('input[value="4"]').check();
    await expect(evaluator.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
    await expectNoViolations(evaluator, 'evaluator rating page');
  });

  // The demo RM's submitted case, its run and report (lib/demo/seed.ts): the RM and the committee
  // read them. One test each: a finished run page is a large document for axe.
  for (const href of [`/cases/${DEMO_IDS.submittedCase}`, `/runs/${DEMO_IDS.run}`, `/runs/${DEMO_IDS.run}/report`]) {
    for (const role of ['rm', 'committee'] as const) {
      test(`${href} as ${role}`, async ({ page }) => {
        test.setTimeout(60_000);
        await signInAs(page, role);
        await page.goto(href);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expectNoViolations(page, `${role} ${href}`);
      });
    }
  }
});
