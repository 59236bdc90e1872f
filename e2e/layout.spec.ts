// Layout defects of issue 16, measured in the browser rather than looked at: text a control
// cuts off, a Korean word broken over two lines, a scale whose last answer falls onto a line of
// its own. Each check runs at a desktop and a tablet width, in English and in Korean.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { DEMO_IDS } from '../lib/domain/demo-ids';
import { createCase, createUser, runOffline, signIn, signInAs } from './fixtures';

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

/** The Hangul words under `scope` that the layout breaks over two lines (a word: Hangul syllables in a row). */
function brokenHangulWords(scope: Locator) {
  return scope.evaluate((root) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of (node.textContent ?? '').matchAll(/[\uAC00-\uD7A3]+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(m[0]);
      }
    }
    return broken;
  });
}

async function newPage(browser: Browser) {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

test.describe('layout (issue 16)', () => {
  test('the run launcher shows both Mode options whole, at desktop and tablet widths, in English and Korean', async ({ browser }) => {
    const { context, page } = await newPage(browser);
    await signInAs(page, 'rm');
    const caseUrl = await createCase(page, 'samsung-electronics', `Layout launcher ${Date.now().toString(36)}`);
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

  test('in Korean the runs table keeps each Hangul word on one line (완료, 비용)', async ({ browser }) => {
    test.setTimeout(120_000);
    const { context, page } = await newPage(browser);
    await signInAs(page, 'rm');
    const caseUrl = await createCase(page, 'samsung-electronics', `Layout runs ${Date.now().toString(36)}`);
    await runOffline(page, caseUrl, 'kpd-mads');
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      await page.goto(caseUrl);
      await switchLocale(context, page, 'ko');
      const table = page.getByTestId('case-run-row').first().locator('xpath=ancestor::table');
      await expect(table.locator('th').nth(2)).toHaveText('상태');
      await expect(table.locator('th').nth(6)).toHaveText('비용');
      await expect(page.getByTestId('case-run-row').first().locator('td').nth(2)).toHaveText('완료');
      expect(await brokenHangulWords(table), `at ${size.width}px`).toEqual([]);
    }
    await context.close();
  });

  test('the rating scale keeps its five answers on one line, "5 Strongly agree" included', async ({ browser }) => {
    test.setTimeout(120_000);
    const password = 'layout-evaluator-pass';
    const { context: adminContext, page: admin } = await newPage(browser);
    await signInAs(admin, 'admin');
    const email = await createUser(admin, { role: 'evaluator', name: 'Layout evaluator', password, prefix: 'layout-evaluator' });
    // A study of the demo run for this evaluator alone: one report, so unpaired, created anyway.
    await admin.goto('/admin/studies/new');
    await admin.getByLabel('Study name').fill(`Layout study ${Date.now().toString(36)}`);
    await admin.locator(`tr[data-run-id="${DEMO_IDS.run}"] input[type="checkbox"]`).check();
    await admin.getByLabel(new RegExp(email.replace(/[.]/g, '\\.'))).check();
    await admin.getByTestId('create-anyway').check();
    await admin.getByTestId('create-study').click();
    await expect(admin).toHaveURL(/\/admin\/studies\/[0-9a-f-]{36}$/);
    await admin.getByTestId('open-study').click();
    await expect(admin.getByTestId('study-status').first()).toHaveAttribute('data-status', 'open');
    await adminContext.close();

    const { context, page } = await newPage(browser);
    await signIn(page, email, password);
    await expect(page.getByTestId('home-evaluator')).toBeVisible();
    await page.goto('/ratings');
    await page.getByRole('link', { name: 'Report 1' }).click();
    await expect(page).toHaveURL(/\/ratings\/[0-9a-f-]{36}$/);
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      for (const locale of ['en', 'ko'] as const) {
        await switchLocale(context, page, locale);
        for (const item of ['trustworthiness', 'sus1']) {
          const answers = page.getByTestId(`item-${item}`).getByRole('radio');
          await expect(answers).toHaveCount(5);
          const tops = await answers.evaluateAll((inputs) => inputs.map((i) => Math.round(i.getBoundingClientRect().top)));
          expect(new Set(tops).size, `${item} in ${locale} at ${size.width}px: radio tops ${tops.join(', ')}`).toBe(1);
        }
      }
    }
    await context.close();
  });

  test('the compare picker shows each run’s whole description', async ({ browser }) => {
    test.setTimeout(150_000);
    const { context, page } = await newPage(browser);
    await signInAs(page, 'rm');
    const caseUrl = await createCase(page, 'samsung-electronics', `Layout compare ${Date.now().toString(36)}`);
    const runs = [await runOffline(page, caseUrl, 'three-round'), await runOffline(page, caseUrl, 'sas')];
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      for (const locale of ['en', 'ko'] as const) {
        await page.goto(`${caseUrl}/compare`);
        await switchLocale(context, page, locale);
        const form = page.getByTestId('compare-form');
        for (const id of runs) {
          // Each run is offered as A and as B.
          const descriptions = form.getByText(`#${id.slice(0, 8)}`);
          await expect(descriptions).toHaveCount(2);
          for (const d of await descriptions.all()) expect(await hiddenWidth(d), `run ${id} in ${locale} at ${size.width}px`).toBe(0);
        }
        // The radio lists are named groups: axe finds nothing to object to.
        const axe = await new AxeBuilder({ page }).include('[data-testid="compare-form"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
        expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      }
    }
    // The radios still choose the pair: the older run as A and the newer as B by default, or the other way round.
    const form = page.getByTestId('compare-form');
    await expect(form.getByTestId('compare-a').locator(`input[value="${runs[0]}"]`)).toBeChecked();
    await expect(form.getByTestId('compare-b').locator(`input[value="${runs[1]}"]`)).toBeChecked();
    await form.getByTestId('compare-a').locator(`input[value="${runs[1]}"]`).check();
    await form.getByTestId('compare-b').locator(`input[value="${runs[0]}"]`).check();
    await page.getByTestId('compare-submit').click();
    await expect(page).toHaveURL(new RegExp(`/compare\\?a=${runs[1]}&b=${runs[0]}$`));
    await context.close();
  });
});
