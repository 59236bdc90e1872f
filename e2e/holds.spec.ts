// Legal holds (docs/retention.md): an admin places a hold on a case from /admin/holds, the case
// page shows "On legal hold" with the reason to those who read the case, the admin lifts it and
// the notice goes; both are in the audit log. The case is this test's own, so other specs' cases
// never carry its hold.
import { expect, test } from '@playwright/test';
import { auditEntry, createCase, signInAs } from './fixtures';

test('an admin places a legal hold on a case, the case page shows it, and lifting it takes it away', async ({ browser }) => {
  test.setTimeout(120_000);
  const title = `Held case ${Date.now().toString(36)}`;
  const reason = 'Litigation 2026-117: keep every record of this file.';

  const rm = await (await browser.newContext()).newPage();
  await signInAs(rm, 'rm');
  const caseUrl = await createCase(rm, 'tesla', title);
  const caseId = caseUrl.split('/').pop()!;
  await expect(rm.getByTestId('legal-hold')).toHaveCount(0);

  // The admin's page, at a phone's width: no wider than the home page is there.
  const admin = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await signInAs(admin, 'admin');
  const pageWidth = () => admin.evaluate(() => document.documentElement.scrollWidth);
  const homeWidth = await pageWidth();
  await admin.goto('/admin/holds');
  await expect(admin.getByRole('heading', { name: 'Legal holds', level: 1 })).toBeVisible();
  const form = admin.getByTestId('place-hold-form');
  await form.getByLabel('Hold', { exact: true }).selectOption('case');
  await form.getByLabel('Case', { exact: true }).selectOption(caseId);
  await form.getByLabel('Reason', { exact: true }).fill(reason);
  await form.getByRole('button', { name: 'Place hold' }).click();
  await expect(form.getByRole('status')).toContainText('Hold placed.');
  const row = admin.getByTestId('active-holds').getByRole('row').filter({ hasText: title });
  await expect(row).toContainText(reason);
  // A long case title in the form and the table of holds scroll inside their own boxes.
  expect(await pageWidth()).toBeLessThanOrEqual(homeWidth);

  // Placing it again is refused, in words.
  await form.getByLabel('Case', { exact: true }).selectOption(caseId);
  await form.getByLabel('Reason', { exact: true }).fill('Twice');
  await form.getByRole('button', { name: 'Place hold' }).click();
  await expect(form.getByRole('alert')).toContainText('It is already on hold.');

  await rm.goto(caseUrl);
  await expect(rm.getByTestId('legal-hold')).toContainText('On legal hold');
  await expect(rm.getByTestId('legal-hold')).toContainText(reason);

  await row.getByLabel('Why it is lifted (optional)').fill('Settled out of court');
  await row.getByRole('button', { name: 'Lift hold' }).click();
  await expect(admin.getByRole('row').filter({ hasText: title }).filter({ hasText: 'Settled out of court' })).toBeVisible();
  await expect(admin.getByTestId('active-holds').getByRole('row').filter({ hasText: title }).getByRole('button', { name: 'Lift hold' })).toHaveCount(0);

  await rm.goto(caseUrl);
  await expect(rm.getByRole('heading', { name: title })).toBeVisible();
  await expect(rm.getByTestId('legal-hold')).toHaveCount(0);

  // Both are in the audit log, about this case.
  await admin.setViewportSize({ width: 1280, height: 900 });
  const placed = await auditEntry(admin, 'hold.place', caseId, 'Legal hold placed');
  await expect(placed.valueOf('Reason')).toHaveText(reason);
  await auditEntry(admin, 'hold.lift', caseId, 'Legal hold lifted');
});
