// Run-to-run stability (docs/stability.md) in the browser: an RM runs NAS twice on the fake model
// ('openai' in the browser tests) from the case page's stability card, the set's view shows the
// agreement figures once both runs have ended, the case page links the set, and the compare page
// shows the agreement of the two runs. The RM is an account of its own, so its two run slots
// are not taken by the demo RM's runs in other specs.
import { expect, test, type Page } from '@playwright/test';
import { createUser, signIn, signInAs } from './fixtures';

const UUID = '[0-9a-f-]{36}';

/** A share as the figures write it: "100% (8 of 8)". */
const SHARE = /^\d{1,3}% \(\d+ of \d+\)$/;
/** Every item the runs have agrees, and they have at least one. */
const ALL = /^100% \(([1-9]\d*) of \1\)$/;

test.describe.serial('run-to-run stability', () => {
  let caseUrl = '';
  let setUrl = '';
  let runIds: string[] = [];
  const password = 'stability-rm-password';
  let email = '';

  async function asOurRm(page: Page) {
    await signIn(page, email, password);
    await expect(page.getByTestId('home-rm')).toBeVisible();
  }

  test('an RM runs a system twice on the model; the stability view shows the figures once both finish', async ({ browser, page }) => {
    test.setTimeout(240_000);
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await signInAs(admin, 'admin');
    email = await createUser(admin, { role: 'rm', name: 'Stability RM', password, prefix: 'stability' });
    await adminContext.close();

    await asOurRm(page);
    // As of 2025-06-30, where the fake model's NAS report has topics on guideline factors.
    await page.goto('/cases/new');
    await page.getByLabel('Borrower').selectOption('tesla');
    await page.getByLabel('Case title').fill(`Tesla stability ${Date.now().toString(36)}`);
    await page.getByLabel('Loan amount').fill('1000000000');
    await page.getByLabel('Purpose of the loan').fill('Working capital');
    await page.getByLabel('As-of date').fill('2025-06-30');
    await page.getByTestId('case-submit').click();
    await expect(page).toHaveURL(new RegExp(`/cases/${UUID}$`));
    caseUrl = page.url();
    const card = page.getByTestId('stability-card');
    await expect(card).toBeVisible();
    // A model is configured in the browser tests, so the card offers the runs, not the offline note.
    await expect(card.getByTestId('stability-offline')).toHaveCount(0);
    await expect(card).toContainText('2 to 5 runs on fake-llm');
    const launcher = card.getByTestId('stability-launcher');
    await launcher.getByLabel('System').selectOption('nas');
    await launcher.getByLabel('Output language').selectOption('en');
    await launcher.getByLabel('Runs').selectOption('2');
    await expect(launcher.getByTestId('start-stability')).toHaveText('Run 2 times');
    await launcher.getByTestId('start-stability').click();

    await expect(page).toHaveURL(new RegExp(`/cases/${UUID}/stability/${UUID}$`));
    setUrl = page.url();
    await expect(page.getByRole('heading', { level: 1, name: 'Stability of 2 runs' })).toBeVisible();
    const view = page.getByTestId('stability-view');
    await expect(page.getByTestId('stability-run')).toHaveCount(2);
    // The page updates itself until both runs have ended.
    await expect(view).toHaveAttribute('data-state', 'done', { timeout: 200_000 });
    await expect(page.getByTestId('stability-run').and(page.locator('[data-status="succeeded"]'))).toHaveCount(2);

    const value = (row: string) => page.getByTestId(`stability-${row}`).getByTestId('stability-value');
    // The fake's made-up citations resolve to no pool item: there may be no verified evidence to
    // count. Its report argues the factors each section's schema names (lib/domain/sections.ts), so
    // the runs have readings and topics to compare, and decision-grade runs (temperature 0, seed 1)
    // of a deterministic model agree on all of them.
    await expect(value('evidence')).toHaveText(new RegExp(`${SHARE.source}|^—$`));
    await expect(value('readings')).toHaveText(ALL);
    await expect(value('topics-factor')).toHaveText(ALL);
    await expect(value('rei')).toHaveText(/^(\d+) · \1 · \1$/);
    await expect(page.getByTestId('stability-factor')).toHaveCount(10);
    // Every factor argued reads the same in both runs: none differs.
    await expect(page.locator('[data-testid="stability-factor"][data-same="false"]')).toHaveCount(0);

    runIds = await page
      .getByTestId('stability-run')
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href.split('/').pop()!));
    expect(runIds).toHaveLength(2);

    // The case page lists the set and links back to this view.
    await page.goto(caseUrl);
    const link = page.getByTestId('stability-set-link');
    await expect(link).toHaveCount(1);
    await expect(link).toContainText('Single agent (NAS) × 2');
    await link.click();
    await expect(page).toHaveURL(setUrl);
  });

  test('the compare page shows the agreement figures of two runs', async ({ page }) => {
    await asOurRm(page);
    await page.goto(`${caseUrl}/compare?a=${runIds[0]}&b=${runIds[1]}`);
    const section = page.getByTestId('compare-agreement');
    await expect(section.getByRole('heading', { level: 2, name: 'Agreement' })).toBeVisible();
    const value = (row: string) => section.getByTestId(`stability-${row}`).getByTestId('stability-value');
    await expect(value('readings')).toHaveText(ALL);
    await expect(value('topics-factor')).toHaveText(ALL);
    await expect(value('rei')).toHaveText(/^(\d+) · \1 · \1$/);
    await expect(section.getByRole('columnheader', { name: 'Run A' })).toBeVisible();
    await expect(section.getByRole('columnheader', { name: 'Run B' })).toBeVisible();
  });

  test("a set id of another case, or none at all, is the not-found page; the committee cannot see a draft's set", async ({ browser, page }) => {
    await asOurRm(page);
    const caseId = caseUrl.split('/').pop()!;
    for (const url of [`/cases/${caseId}/stability/00000000-0000-4000-8000-000000000000`, `/cases/${caseId}/stability/not-a-uuid`]) {
      expect((await page.goto(url))?.status(), url).toBe(404);
    }
    const committeeContext = await browser.newContext();
    const committee = await committeeContext.newPage();
    await signInAs(committee, 'committee');
    expect((await committee.goto(setUrl))?.status()).toBe(404);
    await committeeContext.close();
  });
});
