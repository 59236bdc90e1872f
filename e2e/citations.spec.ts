// The citation popover on a finished run (the demo's submitted case, lib/demo/seed.ts): a click,
// a tap, Enter or Space pins it open and the same again closes it; Escape closes it and puts focus
// back on the chip; a press elsewhere closes a pinned one. Hover and focus show it while they last.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { DEMO_IDS } from '../lib/domain/demo-ids';
import { signInAs } from './fixtures';

async function firstChip(page: Page): Promise<{ chip: Locator; tip: Locator }> {
  await page.goto(`/runs/${DEMO_IDS.run}`);
  // The pointer away from the transcript, so no hover opens a popover by chance.
  await page.mouse.move(0, 0);
  const chip = page.getByTestId('turn-D1').getByTestId('citation-chip').first();
  await expect(chip).toBeVisible();
  const tip = page.locator(`[id="${await chip.getAttribute('aria-describedby')}"]`);
  await expect(tip).toBeHidden();
  return { chip, tip };
}

test.describe('citation popover', () => {
  test('a click pins it open, a second click closes it', async ({ page }) => {
    await signInAs(page, 'rm');
    const { chip, tip } = await firstChip(page);
    await chip.click();
    await expect(tip).toBeVisible();
    await expect(tip.getByTestId('citation-title')).not.toBeEmpty();
    await expect(chip).toHaveAttribute('aria-expanded', 'true');
    // Pinned: the pointer leaving the chip does not close it.
    await page.mouse.move(0, 0);
    await expect(tip).toBeVisible();
    await chip.click();
    await expect(tip).toBeHidden();
    await expect(chip).toHaveAttribute('aria-expanded', 'false');
    // Open again, then a press elsewhere on the page closes it.
    await chip.click();
    await expect(tip).toBeVisible();
    await page.locator('h1').first().click();
    await expect(tip).toBeHidden();
  });

  test('Enter and Space open it, Escape closes it and keeps focus on the chip', async ({ page }) => {
    await signInAs(page, 'rm');
    const { chip, tip } = await firstChip(page);
    await chip.focus();
    await expect(tip).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(tip).toBeHidden();
    await expect(chip).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(tip).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(tip).toBeHidden();
    await page.keyboard.press('Space');
    await expect(tip).toBeVisible();
    // Tab reaches the source link inside the popover, which stays open; Escape comes back.
    await page.keyboard.press('Tab');
    await expect(tip.getByRole('link')).toBeFocused();
    await expect(tip).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(tip).toBeHidden();
    await expect(chip).toBeFocused();
  });

  test.describe('on a touch screen', () => {
    test.use({ hasTouch: true });

    test('a tap shows it, a tap elsewhere hides it', async ({ page }) => {
      await signInAs(page, 'rm');
      const { chip, tip } = await firstChip(page);
      await chip.tap();
      await expect(tip).toBeVisible();
      await expect(tip.getByTestId('citation-title')).not.toBeEmpty();
      await page.tap('h1');
      await expect(tip).toBeHidden();
      await chip.tap();
      await expect(tip).toBeVisible();
      await chip.tap();
      await expect(tip).toBeHidden();
    });
  });
});
