import { expect, type Page } from '@playwright/test';
import type { Role } from '../lib/auth/permissions';

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

/** Signs in as a demo account and waits for that role's home page. */
export async function signInAs(page: Page, role: Role) {
  await signIn(page, DEMO_USERS[role].email, DEMO_PASSWORD);
  await expect(page.getByTestId(`home-${role}`)).toBeVisible();
}

/** A unique email per test, so parallel tests and both backends never share an account. */
export function uniqueEmail(prefix: string) {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.org`;
}
