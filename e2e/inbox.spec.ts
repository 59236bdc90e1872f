// The inbox: a committee member comments on the demo's submitted case; the RM who owns it sees an
// unread count in the header, the item in the inbox naming who did what on which case, follows
// it to the case and marks it read. Other specs run beside this one and may add items to the
// demo RM's inbox too, so this one finds its item by its own words and counts at least one.
import { expect, test } from '@playwright/test';
import { DEMO_IDS } from '../lib/domain/demo-ids';
import { createCase, createUser, signIn, signInAs } from './fixtures';

test('a committee comment reaches the case owner’s inbox', async ({ browser }) => {
  const words = `Inbox check ${Date.now().toString(36)}: where is the 2024 supplier audit?`;

  const committeeContext = await browser.newContext();
  const committee = await committeeContext.newPage();
  await signInAs(committee, 'committee');
  await committee.goto(`/cases/${DEMO_IDS.submittedCase}`);
  const form = committee.getByTestId('case-comment-form');
  await form.getByLabel('Comment').fill(words);
  await form.getByTestId('case-comment-form-submit').click();
  await expect(committee.getByTestId('comment-body').filter({ hasText: words })).toBeVisible();
  // The author hears nothing of their own comment.
  await committee.goto('/inbox');
  await expect(committee.getByTestId('inbox-item').filter({ hasText: words })).toHaveCount(0);
  await committeeContext.close();

  const rmContext = await browser.newContext();
  const rm = await rmContext.newPage();
  await signInAs(rm, 'rm');
  const link = rm.getByTestId('inbox-link');
  await expect(link).toHaveAccessibleName(/^Inbox, (1 unread notification|\d+ unread notifications)$/);
  await expect(rm.getByTestId('inbox-unread-count')).toHaveText(/^([1-9]\d?|99\+)$/);
  await link.click();
  await expect(rm).toHaveURL(/\/inbox$/);
  await expect(rm.getByRole('heading', { level: 1, name: 'Inbox' })).toBeVisible();

  const item = rm.getByTestId('inbox-item').filter({ hasText: words });
  await expect(item).toHaveAttribute('data-kind', 'comment');
  await expect(item).toHaveAttribute('data-read', 'false');
  await expect(item.getByTestId('inbox-item-link')).toHaveText(
    'Demo Committee Member commented on Samsung Electronics — revolving credit facility renewal (Samsung Electronics Co., Ltd.)',
  );
  await expect(item.getByTestId('inbox-item-detail')).toHaveText(`“${words}”`);
  await expect(item.getByTestId('inbox-item-link')).toHaveAttribute('href', `/cases/${DEMO_IDS.submittedCase}`);

  await item.getByTestId('inbox-mark-read').click();
  await expect(item).toHaveAttribute('data-read', 'true');
  await expect(item.getByTestId('inbox-mark-read')).toHaveCount(0);

  await item.getByTestId('inbox-item-link').click();
  await expect(rm).toHaveURL(new RegExp(`/cases/${DEMO_IDS.submittedCase}$`));
  await rmContext.close();
});

test('two analyses of one case read apart in the inbox and the case’s runs: system, model, language and start on each line', async ({ page }) => {
  test.setTimeout(90_000);
  await signInAs(page, 'rm');
  const title = `Inbox runs ${Date.now().toString(36)}`;
  const caseUrl = await createCase(page, 'samsung-electronics', title);
  const runIds: string[] = [];
  for (const language of ['en', 'ko'] as const) {
    await page.goto(caseUrl);
    const launcher = page.getByTestId('run-launcher');
    await launcher.locator('input[name="protocol"][value="nas"]').check();
    await launcher.locator('input[name="provider"][value="offline"]').check();
    await launcher.getByLabel('Output language').selectOption(language);
    await page.getByTestId('start-run').click();
    await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
    runIds.push(page.url().split('/').pop()!);
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
  }

  // The case's table: each run's output language beside its mode.
  await page.goto(caseUrl);
  await expect(page.getByTestId('case-run-setup')).toHaveText(['Korean · concurrent', 'English · concurrent']);

  await page.goto('/inbox');
  for (const [i, language] of [
    [0, 'English'],
    [1, 'Korean'],
  ] as const) {
    const item = page.getByTestId('inbox-item').filter({ has: page.locator(`a[href="/runs/${runIds[i]}"]`) });
    await expect(item).toHaveCount(1);
    await expect(item.getByTestId('inbox-item-run')).toHaveText(
      new RegExp(`^NAS · Built-in offline analyst — not an LLM · ${language} · started \\d{2}/\\d{2}/\\d{4}, \\d{2}:\\d{2} UTC$`),
    );
  }
});

test('reading an item in one tab lowers the count in another at once: header badge, page title and inbox list agree, in both languages', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // An RM of its own, so no other spec adds to this inbox while the counts are compared.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signInAs(admin, 'admin');
  const password = 'inbox-tabs-password-1';
  const email = await createUser(admin, { role: 'rm', name: 'Inbox Tabs RM', password, prefix: 'inbox-tabs' });
  await adminContext.close();

  const context = await browser.newContext();
  const first = await context.newPage();
  await signIn(first, email, password);
  await expect(first.getByTestId('home-rm')).toBeVisible();
  const caseUrl = await createCase(first, 'samsung-electronics', `Inbox tabs ${Date.now().toString(36)}`);
  for (let i = 0; i < 2; i++) {
    await first.goto(caseUrl);
    const launcher = first.getByTestId('run-launcher');
    await launcher.locator('input[name="protocol"][value="nas"]').check();
    await launcher.locator('input[name="provider"][value="offline"]').check();
    await first.getByTestId('start-run').click();
    await expect(first.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 60_000 });
  }

  // The starter hears of a run just after it is shown finished: look again until both are in.
  await expect(async () => {
    await first.goto('/cases');
    await expect(first.getByTestId('inbox-unread-count')).toHaveText('2', { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(first).toHaveTitle(/^\(2\) /);
  const second = await context.newPage();
  await second.goto('/inbox');
  await expect(second).toHaveTitle('(2) Inbox · Crosscheck');
  await expect(second.getByTestId('inbox-item').and(second.locator('[data-read="false"]'))).toHaveCount(2);

  // Read in the second tab: the first, left alone, follows without a reload.
  await second.getByTestId('inbox-mark-read').first().click();
  await expect(second.getByTestId('inbox-unread-count')).toHaveText('1');
  await expect(second).toHaveTitle('(1) Inbox · Crosscheck');
  await expect(second.getByTestId('inbox-item').and(second.locator('[data-read="false"]'))).toHaveCount(1);
  await expect(first.getByTestId('inbox-unread-count')).toHaveText('1');
  await expect(first).toHaveTitle(/^\(1\) /);
  await expect(first.getByTestId('inbox-link')).toHaveAccessibleName('Inbox, 1 unread notification');

  // In Korean the same count, in Korean words; reading the rest in the first tab clears the second.
  await first.getByTestId('language-switch').selectOption('ko');
  await expect(first.locator('html')).toHaveAttribute('lang', 'ko');
  await expect(first.getByTestId('inbox-link')).toHaveAccessibleName('알림함, 읽지 않은 알림 1건');
  await first.goto('/inbox');
  await expect(first).toHaveTitle('(1) 알림함 · Crosscheck');
  await first.getByTestId('inbox-mark-all').click();
  await expect(first.getByTestId('inbox-unread-count')).toHaveCount(0);
  await expect(first).toHaveTitle('알림함 · Crosscheck');
  await expect(second.getByTestId('inbox-unread-count')).toHaveCount(0);
  // The second tab refreshed into the language the first one chose (one cookie for both): no count either way.
  await expect(second).toHaveTitle(/^(Inbox|알림함) · Crosscheck$/);
  await expect(second.getByTestId('inbox-item').and(second.locator('[data-read="false"]'))).toHaveCount(0);
  await context.close();
});
