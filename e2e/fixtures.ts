import { expect, test, type Cookie, type Page } from '@playwright/test';
import type { Role } from '../lib/domain/vocabulary';

export const DEMO_PASSWORD = process.env.DEMO_PASSWORD || 'crosscheck-demo';

export const DEMO_USERS: Record<Role, { email: string; name: string }> = {
  rm: { email: 'rm@example.com', name: 'Demo RM' },
  committee: { email: 'committee@example.com', name: 'Demo Committee Member' },
  evaluator: { email: 'evaluator@example.com', name: 'Demo Evaluator' },
  admin: { email: 'admin@example.com', name: 'Demo Admin' },
};

export async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByTestId('login-submit').click();
}

// The demo accounts' sessions this test worker has signed in, by server and role. The form and
// its deliberately slow password hash run once per role and worker; after that a test starts
// with a copy of the session cookie. The sign-in form itself is tested in e2e/auth.spec.ts, and
// every spec still goes through it the first time.
const demoSessions = new Map<string, Cookie[]>();

/**
 * Signs in as a demo account and waits for that role's home page. Reuses this worker's session
 * for the role when the server still accepts it (a test may have signed it out), else the form.
 */
export async function signInAs(page: Page, role: Role) {
  const key = `${test.info().project.use.baseURL}|${role}`;
  const home = page.getByTestId(`home-${role}`);
  const saved = demoSessions.get(key);
  if (saved) {
    await page.context().addCookies(saved);
    await page.goto('/');
    if (new URL(page.url()).pathname !== '/login') return expect(home).toBeVisible();
    demoSessions.delete(key);
  }
  await signIn(page, DEMO_USERS[role].email, DEMO_PASSWORD);
  await expect(home).toBeVisible();
  demoSessions.set(
    key,
    (await page.context().cookies()).filter((c) => c.name.includes('session-token')),
  );
}

/** A unique email per test, so parallel tests and both backends never share an account. */
export function uniqueEmail(prefix: string) {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.org`;
}

/**
 * Adds an evidence item to a company through its page, as the signed-in RM. `published` defaults
 * to a date more than a year before the cases' as-of date (2025-06-30): a probe that a step must
 * be shown passes a fresh one, as a stale item newer evidence on its factor supersedes is shown to none.
 */
export async function addEvidence(page: Page, companyId: string, item: { title: string; text: string; url: string; published?: string }) {
  await page.goto(`/companies/${companyId}`);
  await page.getByText('Add an evidence item').click();
  const form = page.getByTestId('add-evidence-form');
  await form.getByLabel('Category').selectOption('certification');
  await form.getByLabel('Title').fill(item.title);
  await form.getByLabel('Text').fill(item.text);
  await form.getByLabel('Published').fill(item.published ?? '2024-05-02');
  await form.getByLabel('Source', { exact: true }).fill('Probe');
  await form.getByLabel('Source URL').fill(item.url);
  await form.getByRole('button', { name: 'Add evidence' }).click();
  await expect(form.getByRole('status')).toHaveText('Evidence added.');
}

/**
 * On the case page, gives a reason for each failed final check and unaddressed red flag the
 * submit form lists (issue 26 item 5): the form refuses to open its confirmation without them.
 * Does nothing when every check passed. Which checks an offline run fails depends on the pool
 * (the demo's Samsung runs cite one item older than the recency window), so specs call it always.
 */
export async function acknowledgeFailedChecks(page: Page, reason = 'Weighed by the RM: the committee may read the cited items in the report.') {
  for (const field of await page.getByTestId('ack-reason').all()) await field.fill(reason);
}

/** Creates a case on a company and starts a run on it; resolves on the run page. */
export async function startRunOn(page: Page, companyId: string, title: string, run: { protocol: string; provider: 'offline' | 'openai' }) {
  await page.goto('/cases/new');
  await page.getByLabel('Borrower').selectOption(companyId);
  await page.getByLabel('Case title').fill(title);
  await page.getByLabel('Loan amount').fill('1,000,000');
  await page.getByLabel('Currency').selectOption('KRW');
  await page.getByLabel('Purpose of the loan').fill('Working capital');
  await page.getByLabel('Tenor (months)').fill('12');
  await page.getByLabel('As-of date').fill('2025-06-30');
  await page.getByTestId('case-submit').click();
  await expect(page).toHaveURL(/\/cases\/[0-9a-f-]{36}$/);
  const launcher = page.getByTestId('run-launcher');
  await launcher.locator(`input[name="protocol"][value="${run.protocol}"]`).check();
  await launcher.locator(`input[name="provider"][value="${run.provider}"]`).check();
  await launcher.getByLabel('Output language').selectOption('en');
  await page.getByTestId('start-run').click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
}

/** As the signed-in admin, creates an account through the Users page; resolves with its email. */
export async function createUser(
  admin: Page,
  { role, name, password, prefix = `user-${role}` }: { role: Role; name: string; password: string; prefix?: string },
) {
  const email = uniqueEmail(prefix);
  await admin.goto('/admin/users');
  const form = admin.getByTestId('create-user-form');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Role').selectOption(role);
  await form.getByLabel('Initial password').fill(password);
  await form.getByRole('button', { name: 'Create user' }).click();
  await expect(form.getByRole('status')).toContainText(`Created ${email}`);
  return email;
}

/** A new case through the form, on `company`; resolves with its URL. */
export async function createCase(page: Page, company: string, title: string) {
  await page.goto('/cases/new');
  await page.getByLabel('Borrower').selectOption(company);
  await page.getByLabel('Case title').fill(title);
  await page.getByLabel('Loan amount').fill('1000000000');
  await page.getByLabel('Purpose of the loan').fill('Working capital');
  await page.getByTestId('case-submit').click();
  await expect(page).toHaveURL(/\/cases\/[0-9a-f-]{36}$/);
  return page.url();
}

/** Starts an offline run of `protocol` from the case page and waits for it to succeed; resolves with the run's id. */
export async function runOffline(page: Page, caseUrl: string, protocol: string) {
  await page.goto(caseUrl);
  const launcher = page.getByTestId('run-launcher');
  await launcher.locator(`input[name="protocol"][value="${protocol}"]`).check();
  await launcher.locator('input[name="provider"][value="offline"]').check();
  await page.getByTestId('start-run').click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 90_000 });
  return page.url().split('/').pop()!;
}

/**
 * The one audit row of `action` that mentions `about` (an entity id, a company id), as the admin's
 * audit page shows it, and a detail field's value read beside its label (the dt, then its dd).
 */
export async function auditEntry(admin: Page, action: string, about: string, label: string) {
  await admin.goto(`/admin/audit?action=${action}`);
  const row = admin.getByTestId('audit-row').filter({ hasText: about });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('audit-action-label')).toHaveText(label);
  const valueOf = (field: string) =>
    row
      .getByTestId('audit-detail')
      .locator('dt', { hasText: new RegExp(`^${field}$`) })
      .locator('xpath=following-sibling::dd[1]');
  return { row, valueOf };
}
