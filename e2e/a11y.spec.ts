// axe-core on the sign-in page and every page each role can reach, in light and dark mode.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { NAV, ROLES } from '../lib/auth/permissions';
import { signInAs } from './fixtures';

async function expectNoViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, label).toEqual([]);
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`accessibility (${scheme})`, () => {
    test.use({ colorScheme: scheme });

    test('sign-in page, also with an error shown', async ({ page }) => {
      await page.goto('/login');
      await expectNoViolations(page, 'login');
      await page.getByTestId('login-submit').click();
      await expect(page.getByTestId('login-error')).toBeVisible();
      await expectNoViolations(page, 'login with errors');
    });

    for (const role of ROLES) {
      test(`pages of the ${role} role`, async ({ page }) => {
        await signInAs(page, role);
        await expectNoViolations(page, `${role} home`);
        const extra = role === 'rm' ? ['/companies/taeyoung-engineering-construction', '/companies/tesla/documents/tesla--10k-fy2024-item-1c-cybersecurity', '/import'] : [];
        for (const href of [...NAV[role].map((item) => item.href), ...extra]) {
          await page.goto(href);
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
          await expectNoViolations(page, `${role} ${href}`);
        }
      });
    }
  });
}
