// The compare page's guards in the e2e database, which has the demo case but no runs and no
// page that shows the case's (random) id: a case that is not there, or not the user's, is the
// 404 page rather than an error, and roles without runs:read are refused before any lookup.
// Comparisons of real runs are covered by lib/eval/compare.test.ts on offline runs.
import { expect, test } from '@playwright/test';
import { signInAs } from './fixtures';

const UNKNOWN_CASE = '00000000-0000-4000-8000-000000000000';

test.describe('compare runs page', () => {
  test('an RM asking for a case that does not exist gets the not-found page, also with run ids and a malformed id', async ({ page }) => {
    await signInAs(page, 'rm');
    for (const url of [`/cases/${UNKNOWN_CASE}/compare`, `/cases/${UNKNOWN_CASE}/compare?a=${UNKNOWN_CASE}&b=x`, `/cases/not-a-uuid/compare?a=1&b=2`]) {
      const response = await page.goto(url);
      expect(response?.status(), url).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByText('Compare runs')).toHaveCount(0);
    }
  });

  test('a committee member gets the not-found page for a case that is not visible to them', async ({ page }) => {
    await signInAs(page, 'committee');
    const response = await page.goto(`/cases/${UNKNOWN_CASE}/compare`);
    expect(response?.status()).toBe(404);
  });

  test('an evaluator is refused (runs:read) before the case is looked up', async ({ page }) => {
    await signInAs(page, 'evaluator');
    const response = await page.goto(`/cases/${UNKNOWN_CASE}/compare`);
    expect(response?.status()).toBe(403);
  });
});
