// The RM's journey end to end (issue 5, "done when"): a case for Travelers (property and casualty insurance), NAS and
// KPD-MADS on the offline analyst streaming to the end, the pro/con panels and the reasoning tree
// filled with the numbers the run's JSON export states, the compare page agreeing with both
// exports, the tree's keyboard navigation, a factor filter, the PDF and JSON downloads, the run
// page and report in Korean, and axe on the compare page and the run page (light and dark).
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { PDFDocument } from 'pdf-lib';
import { signInAs } from './fixtures';

// Travelers' three pool items argue three different factors: enough for a factor filter to leave
// some out, and enough to clear the evidence threshold (3 items on 2 factors; Monro's two items on
// one factor now end as insufficient evidence).
const COMPANY = 'travelers-companies';
const AS_OF = '2021-06-30';
const HANGUL = /[\uAC00-\uD7A3]/;

type PoolItem = { id: string; company_id: string; published_date: string; title: string };
type Export = {
  id: string;
  protocol: string;
  company: { id: string; name: string; nameEn: string | null };
  metrics: { breadth: number; rei: number; depths: number[] };
};

/** Travelers' evidence in the demo pool: id → item, read from the data files the seed loads. */
function pool() {
  const lines = fs
    .readFileSync(path.join(process.cwd(), 'data', 'demo', 'evidence.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean);
  const items = lines.map((l) => JSON.parse(l) as PoolItem).filter((e) => e.company_id === COMPANY);
  return new Map(items.map((e) => [e.id, e]));
}

const validateExport = (() => {
  const schema = JSON.parse(fs.readFileSync(path.join(process.cwd(), 'docs', 'run-export.schema.json'), 'utf8'));
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  return ajv.compile(schema);
})();

async function expectNoViolations(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, label).toEqual([]);
}

/** Every chip in a turn names a Travelers pool item and shows that item's published date. */
async function expectPoolCitations(turn: Locator, items: Map<string, PoolItem>) {
  const chips = turn.getByTestId('citation-chip');
  expect(await chips.count()).toBeGreaterThan(0);
  for (const chip of await chips.all()) {
    const id = (await chip.getAttribute('data-evidence-id'))!;
    expect(items.has(id), `${id} is a ${COMPANY} pool item`).toBe(true);
    await expect(chip.getByTestId('citation-date')).toHaveText(items.get(id)!.published_date);
    await expect(chip).toHaveAttribute('data-verified', 'true');
  }
}

async function startRun(page: Page, caseUrl: string, protocol: 'nas' | 'kpd-mads') {
  await page.goto(caseUrl);
  const launcher = page.getByTestId('run-launcher');
  await launcher.locator(`input[name="protocol"][value="${protocol}"]`).check();
  await launcher.locator('input[name="provider"][value="offline"]').check();
  await launcher.getByLabel('Output language').selectOption('en');
  await page.getByTestId('start-run').click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  return new URL(page.url()).pathname.split('/').pop()!;
}

async function exportOf(page: Page, runId: string): Promise<Export> {
  const response = await page.request.get(`/api/runs/${runId}/export?format=json`);
  expect(response.status()).toBe(200);
  const doc = await response.json();
  expect(validateExport(doc), JSON.stringify(validateExport.errors)).toBe(true);
  return doc as Export;
}

const focusedKey = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.key ?? null);

test.describe.serial('the RM journey', () => {
  let caseId = '';
  let nas = '';
  let kpd = '';
  const items = pool();

  test('an RM creates a case and runs NAS and KPD-MADS on the offline analyst to the end', async ({ page }) => {
    test.setTimeout(120_000);
    await signInAs(page, 'rm');
    await page.goto('/cases/new');
    const title = `Travelers catastrophe reserves ${Date.now()}`;
    await page.getByLabel('Borrower').selectOption(COMPANY);
    await page.getByLabel('Case title').fill(title);
    await page.getByLabel('Loan amount').fill('12,000,000');
    await page.getByLabel('Currency').selectOption('USD');
    await page.getByLabel('Purpose of the loan').fill('Liquidity line while catastrophe claims are paid');
    await page.getByLabel('As-of date').fill(AS_OF);
    await page.getByTestId('case-submit').click();
    await expect(page).toHaveURL(/\/cases\/[0-9a-f-]{36}$/);
    caseId = new URL(page.url()).pathname.split('/').pop()!;
    // One run so far: nothing to compare yet.
    await expect(page.getByTestId('compare-runs-link')).toHaveCount(0);

    nas = await startRun(page, `/cases/${caseId}`, 'nas');
    await expect(page.getByText('Built-in offline analyst — not an LLM')).toBeVisible();
    await expect(page.getByTestId('progress-count')).toHaveText('1 of 1 step', { timeout: 60_000 });
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded');
    await expect(page.getByTestId('turn-NAS').getByTestId('turn-text')).toContainText('Travelers');
    // NAS writes a report, not claims: its citations show under the factor panels, dated as the pool items.
    const dates = new Set([...items.values()].map((e) => e.published_date));
    const cited = await page.getByTestId('factor-panels').getByRole('list', { name: 'Citations' }).getByRole('listitem').allTextContents();
    expect(cited.length).toBeGreaterThan(0);
    for (const c of cited) expect(dates.has(c.slice(0, 10)), `${c} cites a ${COMPANY} pool date`).toBe(true);
    // ...and as chips on its card, each pool item once.
    const nasCitations = page.getByTestId('turn-NAS').getByTestId('turn-citations');
    await expectPoolCitations(nasCitations, items);
    const nasIds = await nasCitations.getByTestId('citation-chip').evaluateAll((els) => els.map((e) => e.getAttribute('data-evidence-id')));
    expect(new Set(nasIds).size).toBe(nasIds.length);

    kpd = await startRun(page, `/cases/${caseId}`, 'kpd-mads');
    await expect(page.getByTestId('progress-count')).toHaveText('11 of 11 steps', { timeout: 60_000 });
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded');
    for (const step of ['D1', 'D2', 'D5', 'AG']) await expect(page.getByTestId(`turn-${step}`)).toHaveAttribute('data-status', 'done');
    await expect(page.getByTestId('turn-D1').getByTestId('turn-text')).toContainText('Travelers');
    await expectPoolCitations(page.getByTestId('turn-D1'), items);
    // The aggregator's report cites the debate's evidence on its card too.
    await expectPoolCitations(page.getByTestId('turn-AG').getByTestId('turn-citations'), items);
    // The popover names the pool item's title.
    const chip = page.getByTestId('turn-D1').getByTestId('citation-chip').first();
    await chip.focus();
    const tip = page.locator(`[id="${await chip.getAttribute('aria-describedby')}"]`);
    await expect(tip.getByTestId('citation-title')).toHaveText(items.get((await chip.getAttribute('data-evidence-id'))!)!.title);
  });

  test('the panels and the tree fill, with the numbers of the JSON export', async ({ page }) => {
    await signInAs(page, 'rm');
    await page.goto(`/runs/${kpd}`);
    const doc = await exportOf(page, kpd);
    expect(doc).toMatchObject({ id: kpd, protocol: 'kpd-mads', company: { id: COMPANY } });
    expect(doc.metrics.breadth).toBeGreaterThan(0);
    expect(doc.metrics.rei).toBeGreaterThan(0);

    const panels = page.getByTestId('factor-panels');
    const args = panels.getByTestId('panel-argument');
    expect(await args.count()).toBeGreaterThan(0);
    for (const arg of (await args.all()).slice(0, 10)) {
      const href = (await arg.getByRole('link').first().getAttribute('href'))!;
      expect(href).toMatch(/^#turn-(D\d+|AG)$/);
      await expect(page.locator(href)).toHaveCount(1);
    }

    const tree = page.getByTestId('reasoning-tree');
    await expect(tree.getByTestId('tree-breadth')).toHaveText(String(doc.metrics.breadth));
    await expect(tree.getByTestId('tree-rei')).toHaveText(String(doc.metrics.rei));
    await expect(tree.getByTestId('tree-depth')).toHaveText(String(Math.max(...doc.metrics.depths)));
    // One branch per topic, each labelled with its depth from the export.
    const branches = tree.locator('[role="tree"] > [role="treeitem"]');
    await expect(branches).toHaveCount(doc.metrics.breadth);

    // Filtering by one factor leaves that factor's panel alone, with its own arguments.
    const sections = panels.locator('section[data-testid^="panel-"]');
    expect(await sections.count()).toBeGreaterThan(1);
    const factor = (await sections.nth(1).getAttribute('data-testid'))!.replace('panel-', '');
    const own = await panels.getByTestId(`panel-${factor}`).getByTestId('panel-argument').count();
    await page.getByTestId('panels-factor').selectOption(factor);
    await expect(sections).toHaveCount(1);
    await expect(sections.first()).toHaveAttribute('data-testid', `panel-${factor}`);
    await expect(args).toHaveCount(own);
    await page.getByTestId('panels-factor').selectOption('all');
    expect(await sections.count()).toBeGreaterThan(1);
  });

  test('the reasoning tree works from the keyboard', async ({ page }) => {
    await signInAs(page, 'rm');
    await page.goto(`/runs/${kpd}`);
    await expect(page.getByTestId('live-run')).toHaveAttribute('data-hydrated', 'true');
    const tree = page.getByTestId('reasoning-tree');
    const branch = tree.locator('[role="tree"] > [role="treeitem"]').first();
    const branchKey = (await branch.getAttribute('data-key'))!;
    // One tab stop: the first branch.
    await expect(tree.locator('[role="treeitem"][tabindex="0"]')).toHaveCount(1);
    await branch.focus();
    expect(await focusedKey(page)).toBe(branchKey);
    await expect(branch).toHaveAttribute('aria-expanded', 'true');

    await page.keyboard.press('ArrowLeft');
    await expect(branch).toHaveAttribute('aria-expanded', 'false');
    await expect(branch.locator('[role="group"]')).toHaveCount(0);
    await page.keyboard.press('Enter');
    await expect(branch).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Enter');
    await expect(branch).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.press('ArrowRight');
    await expect(branch).toHaveAttribute('aria-expanded', 'true');
    expect(await focusedKey(page)).toBe(branchKey);

    // Right on an open branch and Down both go to its first argument, one level deeper.
    const child = branch.locator(':scope > [role="group"] > [role="treeitem"]').first();
    const childKey = (await child.getAttribute('data-key'))!;
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => focusedKey(page)).toBe(childKey);
    await expect(child).toHaveAttribute('aria-level', '2');
    await expect(child).toHaveAttribute('tabindex', '0');
    await expect(branch).toHaveAttribute('tabindex', '-1');
    // Left goes back up (closing the argument first if it is open).
    if ((await child.getAttribute('aria-expanded')) === 'true') {
      await page.keyboard.press('ArrowLeft');
      await expect(child).toHaveAttribute('aria-expanded', 'false');
    }
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => focusedKey(page)).toBe(branchKey);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedKey(page)).toBe(childKey);

    // Enter on an argument opens the turn that made it.
    const turnHref = (await child.locator(':scope > div a').getAttribute('href'))!;
    expect(turnHref).toMatch(/^#turn-/);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`${turnHref}$`));
  });

  test('the case links to the comparison, whose table agrees with both exports', async ({ page }) => {
    await signInAs(page, 'rm');
    await page.goto(`/cases/${caseId}`);
    await page.getByTestId('compare-runs-link').click();
    await expect(page).toHaveURL(new RegExp(`/cases/${caseId}/compare$`));
    // The picker defaults to the older run as A and the newer as B.
    await page.getByTestId('compare-submit').click();
    await expect(page).toHaveURL(new RegExp(`/cases/${caseId}/compare\\?a=${nas}&b=${kpd}$`));

    const [a, b] = [await exportOf(page, nas), await exportOf(page, kpd)];
    const signed = (n: number) => (n > 0 ? `+${n}` : String(n));
    for (const [metric, key] of [
      ['rei', 'rei'],
      ['breadth', 'breadth'],
    ] as const) {
      const cells = page.getByTestId(`metric-${metric}`).locator('td');
      await expect(cells.nth(0)).toHaveText(String(a.metrics[key]));
      await expect(cells.nth(1)).toHaveText(String(b.metrics[key]));
      await expect(cells.nth(2)).toHaveText(signed(b.metrics[key] - a.metrics[key]));
    }
    await expect(page.getByTestId('metric-protocol').locator('td').nth(0)).toContainText('NAS');
    await expect(page.getByTestId('metric-protocol').locator('td').nth(1)).toContainText('KPD-MADS');
    await expect(page.getByTestId('compare-tree-A').getByTestId('tree-rei')).toHaveText(String(a.metrics.rei));
    await expect(page.getByTestId('compare-tree-B').getByTestId('tree-rei')).toHaveText(String(b.metrics.rei));
    await expect(page.getByTestId('open-run-B')).toHaveAttribute('href', `/runs/${kpd}`);
  });

  test('the report downloads as a PDF titled with the company and as schema-valid JSON', async ({ page }) => {
    test.setTimeout(60_000);
    await signInAs(page, 'rm');
    const doc = await exportOf(page, kpd);
    const name = doc.company.nameEn ?? doc.company.name;
    await page.goto(`/runs/${kpd}/report`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(name);

    const [pdfFile] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-pdf').click()]);
    const pdf = fs.readFileSync((await pdfFile.path())!);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const parsed = await PDFDocument.load(pdf);
    expect(parsed.getTitle()).toContain(name);
    expect(parsed.getPageCount()).toBeGreaterThanOrEqual(1);

    const [jsonFile] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-json').click()]);
    const json = JSON.parse(fs.readFileSync((await jsonFile.path())!, 'utf8'));
    expect(validateExport(json), JSON.stringify(validateExport.errors)).toBe(true);
    expect(json.metrics).toEqual(doc.metrics);
  });

  test('the run page and the report in Korean', async ({ page }) => {
    await signInAs(page, 'rm');
    await page.goto(`/runs/${kpd}`);
    await expect(page.getByRole('heading', { level: 2, name: 'Transcript' })).toBeVisible();
    await page.getByTestId('language-switch').selectOption('ko');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
    const headings = page.getByRole('heading', { level: 2 });
    await expect(headings.first()).toHaveText(HANGUL);
    for (const text of await headings.allTextContents()) expect(text, 'a run page heading').toMatch(HANGUL);
    // The run's own text stays in its output language (English).
    await expect(page.getByTestId('turn-D1').getByTestId('turn-text')).toContainText('Travelers');

    await page.reload();
    for (const text of await page.getByRole('heading', { level: 2 }).allTextContents()) expect(text).toMatch(HANGUL);
    await page.goto(`/runs/${kpd}/report`);
    const reportHeadings = await page.getByRole('heading', { level: 2 }).allTextContents();
    expect(reportHeadings.length).toBeGreaterThan(0);
    for (const text of reportHeadings) expect(text, 'a report heading').toMatch(HANGUL);
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`axe: the compare page and the run page with the tree focused (${scheme})`, async ({ page }) => {
      test.setTimeout(90_000);
      await page.emulateMedia({ colorScheme: scheme });
      await signInAs(page, 'rm');
      await page.goto(`/cases/${caseId}/compare?a=${nas}&b=${kpd}`);
      for (const details of await page.locator('details').all()) await details.locator('summary').click();
      await expect(page.getByTestId('compare-panels-B').getByTestId('factor-panels')).toBeVisible();
      await expectNoViolations(page, `compare (${scheme})`);

      await page.goto(`/runs/${kpd}`);
      await expect(page.getByTestId('live-run')).toHaveAttribute('data-hydrated', 'true');
      await page.getByTestId('reasoning-tree').locator('[role="treeitem"][tabindex="0"]').focus();
      await page.keyboard.press('ArrowDown');
      await expectNoViolations(page, `run page, tree focused (${scheme})`);
    });
  }
});
