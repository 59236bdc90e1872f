// Layout defects of issue 16, measured in the browser rather than looked at: text a control
// cuts off, a Korean word broken over two lines, a scale whose last answer falls onto a line of
// its own. Each check runs at a desktop and a tablet width, in English and in Korean.
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { signInAs } from './fixtures';

/** The launcher's Mode options, as the page words them (lib/i18n/messages/run.ts modeDag, modeSequential). */
const MODES = {
  en: ['Concurrent: independent steps run at the same time', 'Sequential: one step after another, in protocol order'],
  ko: ['동시 실행: 서로 독립된 단계를 함께 실행', '순차 실행: 프로토콜 순서대로 한 단계씩'],
} as const;

const WIDTHS = [
  { width: 1280, height: 900 },
  { width: 768, height: 1024 },
] as const;

/** Switches the interface language the way the header switch does: its cookie, then a reload. */
async function switchLocale(context: BrowserContext, page: Page, locale: 'en' | 'ko') {
  await context.addCookies([{ name: 'cc-locale', value: locale, url: page.url() }]);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
}

/**
 * How many pixels of an element's text the page does not show. For an option, how much wider its
 * select would have to be to show it whole (a closed select cuts its text at its own width); for
 * any other element, how far its text reaches past an ancestor that clips (overflow other than
 * visible). 0 when the whole text shows.
 */
function hiddenWidth(element: Locator) {
  return element.evaluate((node) => {
    const select = node.closest('select');
    if (select) {
      const probe = select.cloneNode(true) as HTMLSelectElement;
      probe.removeAttribute('id');
      probe.removeAttribute('name');
      probe.value = (node as HTMLOptionElement).value;
      probe.style.cssText = 'position:absolute;visibility:hidden;width:max-content;min-width:0;max-width:none';
      select.parentElement!.appendChild(probe);
      const needed = probe.getBoundingClientRect().width;
      probe.remove();
      return Math.max(0, Math.ceil(needed - select.getBoundingClientRect().width));
    }
    const range = document.createRange();
    range.selectNodeContents(node);
    const text = range.getBoundingClientRect();
    let hidden = 0;
    for (let a = node.parentElement; a; a = a.parentElement) {
      if (getComputedStyle(a).overflowX === 'visible') continue;
      const box = a.getBoundingClientRect();
      hidden = Math.max(hidden, Math.ceil(text.right - box.right), Math.ceil(box.left - text.left));
    }
    return hidden;
  });
}

/** The RM's new case on Samsung Electronics, through the form; resolves with its URL. */
async function newCase(page: Page, title: string) {
  await page.goto('/cases/new');
  await page.getByLabel('Borrower').selectOption('samsung-electronics');
  await page.getByLabel('Case title').fill(title);
  await page.getByLabel('Loan amount').fill('1000000000');
  await page.getByLabel('Purpose of the loan').fill('Working capital');
  await page.getByTestId('case-submit').click();
  await expect(page).toHaveURL(/\/cases\/[0-9a-f-]{36}$/);
  return page.url();
}

async function newPage(browser: Browser) {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

test.describe('layout (issue 16)', () => {
  test('the run launcher shows both Mode options whole, at desktop and tablet widths, in English and Korean', async ({ browser }) => {
    const { context, page } = await newPage(browser);
    await signInAs(page, 'rm');
    const caseUrl = await newCase(page, `Layout launcher ${Date.now().toString(36)}`);
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      for (const locale of ['en', 'ko'] as const) {
        await page.goto(caseUrl);
        await switchLocale(context, page, locale);
        const launcher = page.getByTestId('run-launcher');
        for (const mode of MODES[locale]) {
          const option = launcher.getByText(mode, { exact: true });
          await expect(option).toHaveCount(1);
          expect(await hiddenWidth(option), `"${mode}" at ${size.width}px`).toBe(0);
        }
      }
    }
    await context.close();
  });

});
