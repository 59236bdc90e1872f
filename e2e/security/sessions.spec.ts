// Sessions end on the server, not only in the browser (lib/auth/sessions.ts): a copy of the
// session cookie, taken while it worked, is refused by /api/me once its browser signs out, once
// the user signs out everywhere, and once an administrator resets the password.
import { expect, request as apiRequest, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { signIn, signInAs, uniqueEmail } from '../fixtures';

/** A separate HTTP client holding a copy of the context's cookies, as a thief would. */
async function copyCookies(context: BrowserContext, baseURL: string) {
  const { cookies } = await context.storageState();
  return apiRequest.newContext({ baseURL, storageState: { cookies, origins: [] } });
}

/** As the demo admin in `admin`, creates an RM account and returns its email. */
async function createUser(admin: Page, password: string) {
  const email = uniqueEmail('session');
  await signInAs(admin, 'admin');
  await admin.goto('/admin/users');
  const form = admin.getByTestId('create-user-form');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Name').fill('Session Test User');
  await form.getByLabel('Role').selectOption('rm');
  await form.getByLabel('Initial password').fill(password);
  await form.getByRole('button', { name: 'Create user' }).click();
  await expect(form.getByRole('status')).toContainText(`Created ${email}`);
  return email;
}

/** A fresh browser context signed in as `email`. */
async function signedIn(browser: Browser, email: string, password: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email, password);
  await expect(page.getByTestId('home-rm')).toBeVisible();
  return { context, page };
}

test.describe('sessions end on the server', () => {
  test('a copied session cookie answers 401 on /api/me once its browser signs out', async ({ browser, baseURL }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInAs(page, 'rm');
    const copy = await copyCookies(context, baseURL!);
    expect((await copy.get('/api/me')).status(), 'the copy works while the session does').toBe(200);

    await page.goto('/logout');
    await page.getByTestId('confirm-sign-out').click();
    await expect(page).toHaveURL(/\/login/);

    expect((await copy.get('/api/me')).status(), 'the copy after sign-out').toBe(401);
    await copy.dispose();
    await context.close();
  });

  test('signing out everywhere ends the sessions of the other browsers', async ({ browser, page, baseURL }) => {
    const password = 'everywhere-password-1';
    const email = await createUser(page, password);
    const first = await signedIn(browser, email, password);
    const second = await signedIn(browser, email, password);
    const copy = await copyCookies(second.context, baseURL!);
    expect((await copy.get('/api/me')).status()).toBe(200);

    await first.page.goto('/logout');
    await first.page.getByTestId('sign-out-everywhere').click();
    await expect(first.page).toHaveURL(/\/login/);

    expect((await copy.get('/api/me')).status(), 'another browser’s copied cookie').toBe(401);
    await second.page.goto('/cases');
    await expect(second.page).toHaveURL(/\/login/);
    await copy.dispose();
    await Promise.all([first.context.close(), second.context.close()]);
  });

  test('a copied session cookie answers 401 on /api/me once an administrator resets the password', async ({ browser, page, baseURL }) => {
    const password = 'before-the-reset-1';
    const email = await createUser(page, password);
    const user = await signedIn(browser, email, password);
    const copy = await copyCookies(user.context, baseURL!);
    expect((await copy.get('/api/me')).status()).toBe(200);

    const slug = email.replace(/[^a-z0-9]+/gi, '-');
    await page.reload();
    const actions = page.getByTestId(`user-actions-${slug}`);
    await actions.getByLabel('New password').fill('after-the-reset-1');
    await actions.getByRole('button', { name: 'Reset password' }).click();
    await expect(actions.getByRole('status')).toContainText('Password reset');

    expect((await copy.get('/api/me')).status(), 'the copy after the reset').toBe(401);
    await user.page.goto('/cases');
    await expect(user.page).toHaveURL(/\/login/);
    await copy.dispose();
    await user.context.close();
  });
});
