// The system card (issue 29, item 4): /about opens for every role from the link at the foot of
// each page and shows the model this server is configured with (the browser tests' server points
// OPENAI_BASE_URL at the fake model, "fake-llm": scripts/e2e-server.mjs), the offline analyst as
// what it is, and the owner once an admin has named one in the settings. Serial: the owner is one
// setting of the server, named once here and then read by every role.
import { expect, test, type Page } from '@playwright/test';
import { ROLES, type Role } from '../lib/domain/vocabulary';
import { signInAs } from './fixtures';

test.describe.configure({ mode: 'serial' });

const owner = { name: `Owner ${Date.now().toString(36)}`, title: 'Head of Credit Model Risk', contact: 'model-risk@bank.example' };

async function openAbout(page: Page, role: Role) {
  await signInAs(page, role);
  await page.getByTestId('about-link').click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole('heading', { level: 1, name: 'About this system' })).toBeVisible();
}

test('an admin names the system owner in the settings, and the change is in the audit log', async ({ page }) => {
  await signInAs(page, 'admin');
  await page.goto('/admin/settings');
  const form = page.getByTestId('owner-form');
  // Nothing typed: the form names what is missing and saves nothing.
  await form.getByLabel('Name').fill('');
  await form.getByLabel('Role in the bank').fill('');
  await form.getByTestId('owner-save').click();
  await expect(form.getByText('Give the owner’s name (at most 200 characters).')).toBeVisible();

  await form.getByLabel('Name').fill(owner.name);
  await form.getByLabel('Role in the bank').fill(owner.title);
  await form.getByLabel('Contact').fill(owner.contact);
  await form.getByTestId('owner-save').click();
  await expect(form.getByText('Owner saved.')).toBeVisible();

  await page.goto('/admin/audit?action=settings.owner');
  const row = page.getByTestId('audit-row').first();
  await expect(row.getByTestId('audit-action-label')).toHaveText('System owner named');
  await expect(row.getByTestId('audit-detail')).toContainText(owner.name);
});

for (const role of ROLES) {
  test(`the ${role} opens the system card: intended use, the configured model, the offline analyst, limits, evaluation so far and the owner`, async ({
    page,
  }) => {
    await openAbout(page, role);
    await expect(page.getByTestId('about-not-for-persons')).toContainText('never be used to decide anything about a natural person');
    // The model this server runs, and the protocols.
    await expect(page.getByTestId('about-model')).toHaveAttribute('data-kind', 'openai');
    await expect(page.getByTestId('about-model')).toHaveAttribute('data-model', 'fake-llm');
    await expect(page.getByTestId('about-model')).toContainText('model fake-llm');
    await expect(page.getByTestId('about-offline-is')).toContainText('The offline analyst is not a language model.');
    await expect(page.getByTestId('about-protocol-kpd-mads')).toBeVisible();
    await expect(page.getByTestId('about-protocol-findebate')).toBeVisible();
    await expect(page.getByTestId('about-threshold')).toContainText('at least 3 evidence items on at least 2 guideline factors');
    // The test server sets up its stand-ins for OpenDART and EDGAR.
    await expect(page.getByTestId('about-section-sources')).toContainText('OpenDART (Korean filings)');
    await expect(page.getByTestId('about-section-evaluation')).toBeVisible();
    const shown = page.getByTestId('about-owner');
    await expect(shown).toContainText(`${owner.name} · ${owner.title}`);
    await expect(shown).toContainText(`Contact: ${owner.contact}`);
    await expect(shown).toContainText('by Demo Admin');
  });
}

test('the system card reads in Korean too', async ({ page }) => {
  await signInAs(page, 'evaluator');
  await page.goto('/about');
  await page.getByTestId('language-switch').selectOption('ko');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
  await expect(page.getByRole('heading', { level: 1, name: '시스템 안내' })).toBeVisible();
  await expect(page.getByTestId('about-offline-is')).toContainText('오프라인 분석기는 언어 모델이 아닙니다.');
  await expect(page.getByTestId('about-owner')).toContainText(owner.name);
});
