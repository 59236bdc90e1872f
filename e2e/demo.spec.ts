// The demo as a newcomer finds it (lib/demo/seed.ts; README, "The demo"): the demo RM's cases
// open with a draft on Tesla whose evidence as of 2025-06-30 covers eight guideline factors, so
// the first analysis run on it is a full debate; below it, the Taeyoung E&C draft says it is the
// thin record with a red flag (one real workout filing, a run on it ends as a red-flag screening),
// and its launcher says so before Start.
// Other specs add cases for the same RM, so only the demo cases' order among themselves is asserted.
import { expect, test } from '@playwright/test';
import { DEMO_IDS } from '../lib/domain/demo-ids';
import { signInAs } from './fixtures';

test('the first demo draft is the full-debate case, and its first offline run argues many factors', async ({ page }) => {
  test.setTimeout(120_000);
  await signInAs(page, 'rm');
  await page.goto('/cases');
  const hrefs = await page
    .getByTestId('case-row')
    .locator('td:first-child a')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  const demo = hrefs.filter((h) => [DEMO_IDS.draftCase, DEMO_IDS.thinCase].some((id) => h === `/cases/${id}`));
  expect(demo).toEqual([`/cases/${DEMO_IDS.draftCase}`, `/cases/${DEMO_IDS.thinCase}`]);
  const thinRow = page.getByTestId('case-row').filter({ has: page.locator(`a[href="/cases/${DEMO_IDS.thinCase}"]`) });
  await expect(thinRow).toContainText('Taeyoung E&C — thin record with a red flag (one workout filing: ends as a red-flag screening)');

  await page.getByRole('link', { name: 'Tesla — syndicated revolving credit facility participation' }).click();
  await expect(page).toHaveURL(new RegExp(`/cases/${DEMO_IDS.draftCase}$`));
  await expect(page.getByTestId('case-facts')).toContainText('2025-06-30');
  await expect(page.getByTestId('case-facts')).toContainText('Draft');

  const launcher = page.getByTestId('run-launcher');
  // A debate: the launcher estimates it and foresees nothing else.
  await expect(launcher.getByTestId('run-estimate')).toBeVisible();
  await expect(launcher.getByTestId('run-outlook')).toHaveCount(0);
  await launcher.locator('input[name="protocol"][value="kpd-mads"]').check();
  await launcher.locator('input[name="provider"][value="offline"]').check();
  await launcher.getByLabel('Output language').selectOption('en');
  await page.getByTestId('start-run').click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);

  await expect(page.getByTestId('progress-count')).toHaveText('11 of 11 steps', { timeout: 60_000 });
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded');
  await expect(page.getByTestId('run-insufficient-evidence')).toHaveCount(0);
  // The pro/con panels: one per factor the debate argued (the six of lib/demo/seed.test.ts).
  const panels = page.getByTestId('factor-panels');
  for (const factor of [
    'economic_sensitivity',
    'employment_stability',
    'government_support_programs',
    'industry_competition_intensity',
    'internal_control_risk',
    'management_continuity',
  ]) {
    await expect(panels.getByTestId(`panel-${factor}`)).toBeVisible();
  }
});

test('the Taeyoung draft says before Start that its run will give a red-flag screening, with no time or cost estimate', async ({ page }) => {
  await signInAs(page, 'rm');
  await page.goto(`/cases/${DEMO_IDS.thinCase}`);
  const launcher = page.getByTestId('run-launcher');
  await expect(launcher.getByTestId('run-outlook')).toHaveAttribute('data-outlook', 'screening');
  await expect(launcher.getByTestId('run-outlook-text')).toContainText(
    'This pool will give a red-flag screening, not a debate: as of 2025-03-31 it holds 1 evidence item on 1 guideline factor',
  );
  await expect(launcher.getByTestId('run-outlook-text')).toContainText('No step runs and no model is called');
  await expect(launcher.getByTestId('run-outlook-connectors')).toHaveAttribute('href', '/companies/taeyoung-engineering-construction');
  await expect(launcher.getByTestId('run-estimate')).toHaveCount(0);
  // A screening is an outcome: Start stays there.
  await expect(page.getByTestId('start-run')).toBeEnabled();

  await page.getByTestId('language-switch').selectOption('ko');
  await expect(launcher.getByTestId('run-outlook-text')).toContainText('이 풀로는 토론이 아닌 위험 신호 점검이 실행됩니다.');
  await page.getByTestId('language-switch').selectOption('en');
});
