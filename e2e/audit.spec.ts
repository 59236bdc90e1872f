// The audit log an administrator can read (issue 16): sign-in events (a failure, a success, a
// lockout) and a refused import are recorded, and the audit page filters them by action and
// actor and shows their details as labelled fields in words, never as raw JSON. The account is
// this test's own, so other specs' sign-ins and imports never match its filters.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createUser, signIn, signInAs } from './fixtures';

const REFUSED =
  'Wrong email or password, or the account is locked after 5 failed attempts. Wait 2 minutes and try again, or ask an administrator to unlock it.';

/** Applies the audit page's filters through its form: the action and the actor by their shown names. */
async function filterAudit(page: Page, { action, actor }: { action: string; actor?: string }) {
  await page.goto('/admin/audit');
  const form = page.getByTestId('audit-filters');
  await form.getByLabel('Action').selectOption({ label: action });
  if (actor) await form.getByLabel('Actor').selectOption({ label: actor });
  await form.getByTestId('audit-apply').click();
  await expect(page).toHaveURL(/\/admin\/audit\?/);
}

/** A row's detail as { label: value }, read off the page's labelled fields. */
async function detailOf(row: Locator) {
  const detail = row.getByTestId('audit-detail');
  // Words, not a JSON object.
  await expect(detail).not.toContainText('{');
  await expect(detail).not.toContainText('":');
  const labels = await detail.locator('dt').allTextContents();
  const values = await detail.locator('dd').allTextContents();
  return Object.fromEntries(labels.map((l, i) => [l, values[i]]));
}

test('sign-in events and a refused import reach the audit log as readable, filterable entries', async ({ browser }) => {
  // Eight sign-ins (each a deliberately slow password hash) and five filtered pages: a loaded
  // machine took 87 s to reach the last filters, so the budget is twice that, and the wait for a
  // fresh lock window below.
  test.setTimeout(240_000);
  const password = 'audit-trail-password';
  const name = `Audit trail ${Date.now().toString(36)}`;
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signInAs(admin, 'admin');
  const email = await createUser(admin, { role: 'rm', name, password, prefix: 'audit' });

  // A wrong password, then the right one.
  const userContext = await browser.newContext();
  const user = await userContext.newPage();
  await signIn(user, email, 'not-the-password');
  await expect(user.getByTestId('login-error')).toHaveText(REFUSED);
  await signIn(user, email, password);
  await expect(user.getByTestId('home-rm')).toBeVisible();

  // An import with a row the schema refuses (no published date): nothing written, the refusal recorded.
  const file = `refused-${Date.now().toString(36)}.csv`;
  const csv = [
    'company_id,category,title,text,published_date,source_name,source_url',
    'tesla,news,Undated item,No date,,NHTSA,https://example.org/undated',
  ].join('\n');
  await user.goto('/import');
  await user.getByTestId('import-file').setInputFiles({ name: file, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await user.getByTestId('import-submit').click();
  await expect(user.getByTestId('import-report')).toContainText('Nothing was imported: 1 row needs fixing.');

  // Five wrong passwords lock the account (the right one above reset the count). Failures are
  // counted in fixed windows of the lock's 2 minutes (lib/auth/credentials.ts): five that straddle
  // a window's end count as fewer in each and lock nothing, so they start early in a window.
  const LOCK_WINDOW_MS = 2 * 60_000;
  const intoWindow = Date.now() % LOCK_WINDOW_MS;
  if (intoWindow > LOCK_WINDOW_MS - 50_000) await new Promise((resolve) => setTimeout(resolve, LOCK_WINDOW_MS - intoWindow + 1_000));
  const visitor = await (await browser.newContext()).newPage();
  for (let attempt = 1; attempt <= 5; attempt++) {
    await signIn(visitor, email, `wrong-${attempt}`);
    await expect(visitor.getByTestId('login-error')).toHaveText(REFUSED);
  }

  const actor = `${name} (${email})`;
  const rows = admin.getByTestId('audit-row');

  // The failed sign-ins: no actor (nobody was signed in), found by the email as typed.
  await filterAudit(admin, { action: 'Sign-in failed' });
  expect(new URL(admin.url()).searchParams.get('action')).toBe('auth.sign_in_failed');
  expect(new Set(await admin.getByTestId('audit-action').allTextContents())).toEqual(new Set(['auth.sign_in_failed']));
  const failures = rows.filter({ hasText: email });
  await expect(failures).toHaveCount(6);
  for (const row of await failures.all()) {
    await expect(row.getByTestId('audit-action-label')).toHaveText('Sign-in failed');
    const detail = await detailOf(row);
    expect(detail['Email as typed']).toBe(email);
    expect(detail['Reason']).toBe('Wrong password');
    expect(detail['Client address']).toMatch(/\S/);
  }

  await filterAudit(admin, { action: 'Account locked' });
  const lock = rows.filter({ hasText: email });
  await expect(lock).toHaveCount(1);
  expect(await detailOf(lock)).toMatchObject({ 'Email as typed': email, 'Locked for (minutes)': '2' });

  // The successful sign-in, by its actor.
  await filterAudit(admin, { action: 'Signed in', actor });
  expect(new URL(admin.url()).searchParams.get('action')).toBe('auth.sign_in');
  await expect(rows).toHaveCount(1);
  await expect(rows.locator('td').nth(2)).toHaveText(name);
  const signedIn = await detailOf(rows);
  expect(signedIn['Provider']).toBe('Email and password');
  expect(signedIn['Session']).toMatch(/^\S{8}$/);

  // The refused import, by its actor: the file, the count and the reason, each in its field.
  await filterAudit(admin, { action: 'Import refused', actor });
  expect(new URL(admin.url()).searchParams.get('action')).toBe('pool.import_rejected');
  await expect(rows).toHaveCount(1);
  await expect(rows.getByTestId('audit-action-label')).toHaveText('Import refused');
  const refused = await detailOf(rows);
  expect(refused).toMatchObject({
    Source: file,
    Origin: 'File import',
    'Rejected rows': '1',
    'Duplicates skipped': '0',
    'Files with rejected rows': `${file} (1)`,
  });
  expect(refused['First reasons']).toContain('published_date');

  await userContext.close();
  await adminContext.close();
});
