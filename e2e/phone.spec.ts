// Every page at a phone's width (390 px, an iPhone 12-15 held upright), in English and Korean:
// nothing wider than the screen, so no page scrolls sideways, and the header's controls all
// within it ("Sign out" was cut off). Wide content (a table) scrolls inside its own box.
import { expect, test, type Page } from '@playwright/test';
import { NAV } from '../lib/auth/permissions';
import { DEMO_IDS } from '../lib/domain/demo-ids';
import { ROLES, type Role } from '../lib/domain/vocabulary';
import { signInAs } from './fixtures';

const PHONE = { width: 390, height: 844 };

/** Pages each role reaches: its navigation, the inbox and the system card, plus the demo case, run and report for those who read them. */
function pagesOf(role: Role) {
  const submitted = [`/cases/${DEMO_IDS.submittedCase}`, `/runs/${DEMO_IDS.run}`, `/runs/${DEMO_IDS.run}/report`];
  const extra = role === 'rm' ? ['/cases/new', '/import', '/companies/samsung-electronics', ...submitted] : role === 'committee' ? submitted : [];
  return [...new Set(['/', ...NAV[role].map((item) => item.href), '/inbox', '/about', ...extra])];
}

/** What on the page reaches past the screen's right edge: the widest offenders, for the failure message. */
function overflow(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const offenders: string[] = [];
    for (const el of document.querySelectorAll('body *')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.right <= width + 0.5) continue;
      // Inside a box that scrolls or clips on its own, it does not widen the page.
      let contained = false;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== 'visible') {
          contained = a.getBoundingClientRect().right <= width + 0.5;
          break;
        }
      }
      if (contained) continue;
      const id = el.getAttribute('data-testid') ?? el.id;
      offenders.push(`${el.tagName.toLowerCase()}${id ? `[${id}]` : ''} right=${Math.round(box.right)} "${(el.textContent ?? '').trim().slice(0, 40)}"`);
    }
    return { scrollWidth: document.documentElement.scrollWidth, width, offenders: offenders.slice(0, 5) };
  });
}

for (const role of ROLES) {
  test(`${role}: every page fits a 390 px screen, in English and Korean`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await signInAs(page, role);
    for (const locale of ['en', 'ko'] as const) {
      // On the site's root, so every page gets it (a cookie set from a page's URL keeps to its folder).
      await context.addCookies([{ name: 'cc-locale', value: locale, url: new URL(page.url()).origin }]);
      for (const href of pagesOf(role)) {
        await page.goto(href);
        await expect(page.locator('html')).toHaveAttribute('lang', locale);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        const measured = await overflow(page);
        expect(measured.scrollWidth, `${locale} ${href} scrolls sideways: ${measured.offenders.join('; ')}`).toBeLessThanOrEqual(measured.width);
        // Every header control on the screen, whole.
        for (const control of [page.getByTestId('sign-out'), page.getByTestId('inbox-link'), page.getByTestId('language-switch')]) {
          const box = (await control.boundingBox())!;
          expect(box.x, `${locale} ${href}`).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width, `${locale} ${href}: ${await control.textContent()}`).toBeLessThanOrEqual(PHONE.width);
        }
      }
    }
    await context.close();
  });
}
