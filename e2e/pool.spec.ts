import { expect, test, type Locator } from '@playwright/test';
import { signInAs } from './fixtures';

/** Opens an item's edit controls; they stay open across a save, so only click when closed. */
async function openControls(item: Locator) {
  const details = item.locator('details');
  if ((await details.getAttribute('open')) === null) await item.getByText('Edit, re-tag or delete').click();
}

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test.describe('knowledge pool', () => {
  test('companies filter by country and by factor coverage', async ({ page }) => {
    await signInAs(page, 'rm');
    await page.goto('/companies?country=US');
    const rows = page.getByTestId('company-row');
    await expect(rows).toHaveCount(3);
    await expect(rows.filter({ hasText: 'Tesla' })).toHaveCount(1);
    await expect(rows.filter({ hasText: 'Samsung' })).toHaveCount(0);
    await page.goto('/companies?factor=management_continuity');
    await expect(rows.filter({ hasText: 'Samsung' })).toHaveCount(1);
  });

  test('the company page shows evidence by factor and a readable document', async ({ page }) => {
    await signInAs(page, 'rm');
    await page.goto('/companies/taeyoung-engineering-construction');
    const internal = page.getByTestId('factor-internal_control_risk');
    await expect(internal).toContainText('채권은행 등의 관리절차 개시');
    await expect(internal.getByTestId('evidence-item').first()).toContainText('adverse');

    await page.goto('/companies/tesla');
    await page.getByRole('link', { name: /Item 1C\. Cybersecurity/ }).click();
    await expect(page.getByTestId('document-body')).toContainText('Cybersecurity Risk Management and Strategy');
  });

  test('red flags head the company page: 태영건설’s creditor-bank workout, and nothing where the pool has none', async ({ page }) => {
    await signInAs(page, 'rm');
    await page.goto('/companies/taeyoung-engineering-construction');
    // Read from the pool as it stands today (lib/pool/red-flags.ts): the OpenDART filing of the workout.
    const panel = page.getByTestId('red-flags');
    await expect(panel.getByRole('heading', { level: 2 })).toHaveAccessibleName('Red flags (1)');
    await expect(panel).toContainText('as it stands today');
    // A heading and a list: one item per flag.
    await expect(panel.getByRole('list').getByRole('listitem')).toHaveCount(1);
    const flag = panel.getByTestId('red-flag');
    await expect(flag).toHaveCount(1);
    await expect(flag).toHaveAttribute('data-kind', 'creditor_workout');
    await expect(flag).toHaveAttribute('data-evidence-id', 'taeyoung-engineering-construction-001');
    await expect(flag.getByTestId('red-flag-kind')).toHaveText('Creditor-bank workout');
    await expect(flag.getByTestId('red-flag-date')).toHaveText('2024-01-11');
    await expect(flag.getByTestId('red-flag-title')).toHaveText(
      '채권은행 등의 관리절차 개시: 금융채권자협의회(주채권은행 한국산업은행), 2024.01.11~2027.05.30',
    );
    // Before anything else: the panel comes ahead of the profile and the evidence.
    const first = await page.evaluate(() => {
      const flags = document.querySelector('[data-testid="red-flags"]');
      const evidence = document.querySelector('[data-testid="factor-internal_control_risk"]');
      return Boolean(flags && evidence && flags.compareDocumentPosition(evidence) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    expect(first).toBe(true);
    // The flag opens its evidence item: the citation popover names it and links the filing.
    const chip = flag.getByTestId('citation-chip');
    await expect(chip).toHaveAttribute('data-evidence-id', 'taeyoung-engineering-construction-001');
    const tip = page.locator(`[id="${await chip.getAttribute('aria-describedby')}"]`);
    await expect(tip.getByTestId('citation-title')).toHaveText('채권은행 등의 관리절차 개시: 금융채권자협의회(주채권은행 한국산업은행), 2024.01.11~2027.05.30');
    await expect(tip.locator('a')).toHaveAttribute('href', 'https://dart.fss.or.kr/dsaf001/main.do?rcpNo=20250217001661');
    await expect(async () => {
      await chip.focus();
      await expect(tip).toBeVisible({ timeout: 1_000 });
    }).toPass();

    // The Travelers pool holds no decisive event: no panel, not even an empty one.
    await page.goto('/companies/travelers-companies');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('factor-economic_sensitivity')).toBeVisible();
    await expect(page.getByTestId('red-flags')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: /Red flags/ })).toHaveCount(0);
  });

  test('an RM adds, re-tags, edits and deletes an evidence item', async ({ page }) => {
    const title = `Test certification ${unique()}`;
    await signInAs(page, 'rm');
    await page.goto('/companies/wintec-automation');
    await page.getByText('Add an evidence item').click();
    const form = page.getByTestId('add-evidence-form');
    await form.getByLabel('Category').selectOption('certification');
    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Text').fill('INNOBIZ certification renewed for three years.');
    await form.getByLabel('Published').fill('2024-05-02');
    await form.getByLabel('Source', { exact: true }).fill('MSS notice');
    await form.getByLabel('Source URL').fill(`https://example.org/innobiz/${encodeURIComponent(title)}`);
    await form.getByRole('button', { name: 'Add evidence' }).click();
    await expect(form.getByRole('status')).toHaveText('Evidence added.');

    const item = page.getByTestId('factor-certifications').getByTestId('evidence-item').filter({ hasText: title });
    await expect(item).toContainText('favorable');
    await expect(item).toContainText('added by Demo RM');

    await openControls(item);
    await item.getByLabel('Factor').selectOption('government_support_programs');
    await item.getByRole('button', { name: 'Save tag' }).click();
    const moved = page.getByTestId('factor-government_support_programs').getByTestId('evidence-item').filter({ hasText: title });
    await expect(moved).toContainText('tag set by RM');

    await openControls(moved);
    await moved.getByLabel('Title').fill(`${title} (amended)`);
    await moved.getByRole('button', { name: 'Save changes' }).click();
    const amended = page.getByTestId('evidence-item').filter({ hasText: `${title} (amended)` });
    await expect(amended).toBeVisible();

    await openControls(amended);
    await amended.getByRole('button', { name: 'Delete…' }).click();
    await amended.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page.getByTestId('evidence-item').filter({ hasText: title })).toHaveCount(0);
  });

  test('adding an item with a future date or no source URL is refused with the field named', async ({ page }) => {
    await signInAs(page, 'rm');
    await page.goto('/companies/wintec-automation');
    await page.getByText('Add an evidence item').click();
    const form = page.getByTestId('add-evidence-form');
    await form.getByLabel('Title').fill(`Future ${unique()}`);
    await form.getByLabel('Text').fill('Not public yet.');
    await form.getByLabel('Published').fill('2099-01-01');
    await form.getByLabel('Source', { exact: true }).fill('Somewhere');
    await form.getByRole('button', { name: 'Add evidence' }).click();
    await expect(form.getByRole('alert').first()).toContainText('Please check the highlighted fields.');
    await expect(form).toContainText('2099-01-01 is in the future');
  });

  test('an import with a bad row names it, writes nothing, then imports the valid rows on request', async ({ page }) => {
    const tag = unique();
    const csv = [
      'company_id,category,title,text,published_date,source_name,source_url',
      `tesla,news,Recall notice ${tag},NHTSA recall,2024-03-01,NHTSA,https://example.org/recall/${tag}`,
      `tesla,news,Undated ${tag},No date,,NHTSA,https://example.org/undated/${tag}`,
    ].join('\n');
    await signInAs(page, 'rm');
    await page.goto('/import');
    await page.getByTestId('import-file').setInputFiles({ name: 'tesla.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByTestId('import-submit').click();
    const report = page.getByTestId('import-report');
    await expect(report).toContainText('Nothing was imported');
    await expect(report.getByTestId('rejected-row')).toHaveCount(1);
    await expect(report.getByTestId('rejected-row')).toContainText('tesla.csv');
    await expect(report.getByTestId('rejected-row')).toContainText('published_date');
    await expect(report.getByTestId('rejected-row').getByRole('cell').nth(1)).toHaveText('3');

    await page.getByTestId('import-valid-only').click();
    // One of each: singular nouns (issue 16), the left-out row counted.
    await expect(report.getByRole('status')).toHaveText(
      'Imported 0 companies, 1 evidence item and 0 documents (0 passages); skipped 0 duplicates; left out 1 rejected row.',
    );
    await page.goto('/companies/tesla');
    await expect(page.getByTestId('evidence-item').filter({ hasText: `Recall notice ${tag}` })).toBeVisible();
  });
});
