// The portfolio watch in the browser (lib/jobs/watch.ts): an RM watches a borrower with a case; an
// administrator's "check now" runs the pass the scheduler runs (the first records the baseline);
// the stand-in for OpenDART then serves a rehabilitation filing (constructed here, like those in
// data/fixtures/opendart/constructed), the next pass raises an alert that reaches the RM's inbox
// with the filing, and a re-screen from the alert opens a run headed by that red flag.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { auditEntry, createCase, signInAs } from './fixtures';

function filingsOrigin(project: string) {
  const port = project === 'postgres' ? process.env.E2E_PG_FILINGS_PORT : process.env.E2E_FILINGS_PORT;
  if (!port) throw new Error('No filing server port: run through `npm run test:e2e`.');
  return `http://127.0.0.1:${port}`;
}

async function serveFiling(request: APIRequestContext, origin: string, path: string, json: unknown) {
  const res = await request.post(`${origin}/__fixtures/serve`, { data: { path, json } });
  expect(res.status()).toBe(200);
}

test('a watched borrower’s rehabilitation filing reaches the inbox with its evidence, and a re-screen shows it first', async ({
  page,
  browser,
  request,
}, testInfo) => {
  test.setTimeout(150_000);
  const origin = filingsOrigin(testInfo.project.name);
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const companyId = `watch-e2e-${tag}`;
  const corpCode = String(Math.floor(10_000_000 + Math.random() * 89_999_999));
  const rceptNo = `20260309${String(Math.floor(Math.random() * 999_999)).padStart(6, '0')}`;
  const evidenceId = `dart-${rceptNo}-ctrcvsBgrq`;

  // The RM brings the borrower into the pool (a companies.json with its DART corp_code) and opens a case.
  await signInAs(page, 'rm');
  await page.goto('/import');
  const company = [{ id: companyId, name: `감시테스트${tag}`, name_en: `Watch Test ${tag} Co., Ltd.`, country: 'KR', identifiers: { corp_code: corpCode } }];
  await page.getByTestId('import-file').setInputFiles({ name: 'companies.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(company)) });
  await page.getByTestId('import-submit').click();
  await expect(page.getByTestId('import-report').getByRole('status')).toContainText('Imported 1 company');
  const caseUrl = await createCase(page, companyId, `Watch test ${tag}`);
  const caseId = caseUrl.split('/').pop()!;

  // The RM watches it, daily, with that case to re-screen.
  await page.goto(`/companies/${companyId}`);
  const panel = page.getByTestId('watch-panel');
  await expect(panel.getByTestId('watch-status')).toHaveText('You are not watching this borrower.');
  // Before any check, the panel says what the watch will read: its DART filings, not EDGAR's.
  await expect(panel.getByTestId('watch-reach-source')).toHaveText([
    'OpenDART: its filings are read at each check.',
    'SEC EDGAR: not read — this borrower has no CIK.',
  ]);
  await expect(panel.getByTestId('watch-reach-none')).toHaveCount(0);
  await panel.getByLabel('Case to re-screen').selectOption(caseId);
  await panel.getByTestId('watch-submit').click();
  await expect(panel.getByTestId('watch-status')).toHaveText('You are watching this borrower: daily.');

  // An administrator checks now: the first check records the baseline (the source holds nothing yet).
  const adminContext = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  const admin = await adminContext.newPage();
  await signInAs(admin, 'admin');
  await admin.goto(`/companies/${companyId}`);
  await admin.getByTestId('watch-check-now').click();
  await expect(admin.getByTestId('watch-panel').getByRole('status')).toHaveText(/^1 watch checked, no alert\.$/);

  // The source's next answer holds a rehabilitation filing (constructed for this test).
  await serveFiling(request, origin, '/api/ctrcvsBgrq.json', {
    status: '000',
    message: '정상',
    list: [
      {
        rcept_no: rceptNo,
        corp_cls: 'K',
        corp_code: corpCode,
        corp_name: company[0].name,
        apcnt: company[0].name,
        cpct: '서울회생법원',
        rq_rs: '유동성 위기',
        rqd: '2026년 03월 09일',
        ft_ctp_sc: '2026.03.09자로 서울회생법원에 회생절차개시를 신청하였습니다.',
      },
    ],
  });
  try {
    await admin.goto(`/companies/${companyId}`);
    await admin.getByTestId('watch-check-now').click();
    await expect(admin.getByTestId('watch-panel').getByRole('status')).toHaveText(/^1 watch checked, 1 alert\.$/);
  } finally {
    await request.post(`${origin}/__fixtures/reset`);
    await adminContext.close();
  }

  // The company page's timeline shows the filing and when it was seen.
  await page.goto(`/companies/${companyId}`);
  await expect(page.getByTestId('watch-sighting')).toHaveCount(1);
  await expect(page.getByTestId('watch-sighting')).toHaveAttribute('data-evidence-id', evidenceId);

  // The alert is in the RM's inbox with the filing that raised it.
  await page.goto('/inbox');
  const item = page.getByTestId('inbox-item').filter({ hasText: `Watch Test ${tag}` });
  await expect(item).toHaveCount(1);
  await expect(item).toHaveAttribute('data-kind', 'watch_alert');
  const evidence = item.getByTestId('watch-alert-item');
  await expect(evidence).toHaveCount(1);
  await expect(evidence).toHaveAttribute('data-evidence-id', evidenceId);
  await expect(evidence).toContainText('Court rehabilitation filing');
  await expect(evidence).toContainText('2026-03-09');

  // Re-screen in one click: a run as of today, headed by the red flag.
  await item.getByTestId('watch-rescreen').click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  const flag = page.getByTestId('red-flags').getByTestId('red-flag').first();
  await expect(flag).toHaveAttribute('data-kind', 'court_rehabilitation');
  await expect(flag).toHaveAttribute('data-evidence-id', evidenceId);
  await expect(flag.getByTestId('red-flag-kind')).toHaveText('Court rehabilitation filing');

  // The alert now leads to its re-screen instead of offering another.
  await page.goto(`/inbox`);
  await expect(
    page
      .getByTestId('inbox-item')
      .filter({ hasText: `Watch Test ${tag}` })
      .getByTestId('watch-alert-run'),
  ).toHaveCount(1);

  // The watch, the check and the re-screen are in the audit log, in words.
  const auditor = await (await browser.newContext({ baseURL: testInfo.project.use.baseURL })).newPage();
  await signInAs(auditor, 'admin');
  for (const [action, label, entity] of [
    ['watch.add', 'Borrower watched', companyId],
    ['watch.check', 'Watch checked now', companyId],
  ] as const) {
    await auditor.goto(`/admin/audit?action=${action}`);
    const row = auditor.getByTestId('audit-row').filter({ hasText: entity });
    await expect(row).toHaveCount(action === 'watch.check' ? 2 : 1);
    await expect(row.first().getByTestId('audit-action-label')).toHaveText(label);
  }
  await auditor.goto('/admin/audit?action=watch.rescreen');
  const rescreen = auditor.getByTestId('audit-row').filter({ hasText: caseId });
  await expect(rescreen).toHaveCount(1);
  await expect(rescreen.getByTestId('audit-action-label')).toHaveText('Re-screen started');
  await expect(rescreen.getByTestId('audit-detail')).toContainText('Started by the watch');
});

test('an RM changes a watch and stops it: a bad threshold is refused with nothing saved, and both changes are audited in words', async ({
  page,
  browser,
}, testInfo) => {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const companyId = `watch-edit-${tag}`;
  await signInAs(page, 'rm');
  await page.goto('/import');
  const company = [{ id: companyId, name: `감시변경${tag}`, name_en: `Watch Edit ${tag} Co., Ltd.`, country: 'KR' }];
  await page.getByTestId('import-file').setInputFiles({ name: 'companies.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(company)) });
  await page.getByTestId('import-submit').click();
  await expect(page.getByTestId('import-report').getByRole('status')).toContainText('Imported 1 company');

  await page.goto(`/companies/${companyId}`);
  const panel = page.getByTestId('watch-panel');
  // A borrower with neither a DART corp_code nor a CIK: the panel says at once that nothing can be read.
  await expect(panel.getByTestId('watch-reach-none')).toHaveText(
    'On this server the watch cannot read any filings for this borrower: it would raise no alert.',
  );
  await expect(panel.getByTestId('watch-reach-source')).toHaveText([
    'OpenDART: not read — this borrower has no corp_code.',
    'SEC EDGAR: not read — this borrower has no CIK.',
  ]);
  await panel.getByTestId('watch-submit').click();
  await expect(panel.getByTestId('watch-status')).toHaveText('You are watching this borrower: daily, but no filing source can be read for it yet.');

  // A threshold of 0 is refused by the server (the browser's own check taken off, as a script
  // posting the form would), at the field, and the watch stays as it was.
  await panel.getByLabel('Check', { exact: true }).selectOption('weekly');
  const threshold = panel.getByLabel('Alert on this many new adverse items in one check');
  await threshold.evaluate((el) => el.removeAttribute('min'));
  await threshold.fill('0');
  await panel.getByTestId('watch-submit').click();
  await expect(panel.locator('#adverse_threshold-error')).toHaveText('Give a whole number from 1 to 100.');
  await page.reload();
  await expect(panel.getByTestId('watch-status')).toHaveText('You are watching this borrower: daily, but no filing source can be read for it yet.');
  await expect(panel.getByLabel('Alert on this many new adverse items in one check')).toHaveValue('3');

  // Weekly, five adverse items: saved, and the panel shows it after a reload.
  await panel.getByLabel('Check', { exact: true }).selectOption('weekly');
  await panel.getByLabel('Alert on this many new adverse items in one check').fill('5');
  await panel.getByTestId('watch-submit').click();
  await expect(panel.getByTestId('watch-status')).toHaveText('You are watching this borrower: weekly, but no filing source can be read for it yet.');
  await page.reload();
  await expect(panel.getByLabel('Alert on this many new adverse items in one check')).toHaveValue('5');

  // An administrator checks it now: the borrower has no filing identifier, and the RM reads that
  // as the last check's problem, in English and in Korean.
  const auditor = await (await browser.newContext({ baseURL: testInfo.project.use.baseURL })).newPage();
  await signInAs(auditor, 'admin');
  await auditor.goto(`/companies/${companyId}`);
  await auditor.getByTestId('watch-check-now').click();
  await expect(auditor.getByTestId('watch-panel').getByRole('status')).toHaveText(/^1 watch checked, no alert\.$/);
  await page.reload();
  await expect(panel.getByTestId('watch-problem')).toHaveText('Last check’s problem: no filing source is set up on this server for this borrower.');
  await page.context().addCookies([{ name: 'cc-locale', value: 'ko', url: page.url() }]);
  await page.reload();
  await expect(panel.getByTestId('watch-problem')).toHaveText('마지막 확인의 문제: 이 서버에는 이 차주의 공시 출처가 설정되어 있지 않습니다.');
  await page.context().addCookies([{ name: 'cc-locale', value: 'en', url: page.url() }]);
  await page.reload();

  await panel.getByTestId('watch-remove').click();
  await expect(panel.getByTestId('watch-status')).toHaveText('You are not watching this borrower.');
  await page.reload();
  await expect(panel.getByTestId('watch-status')).toHaveText('You are not watching this borrower.');

  // The saved values themselves, each beside its label.
  const { valueOf } = await auditEntry(auditor, 'watch.update', companyId, 'Watch changed');
  await expect(valueOf('Adverse items that alert')).toHaveText('5');
  await expect(valueOf('Check')).toHaveText(/^weekly$/i);
  await auditEntry(auditor, 'watch.remove', companyId, 'Watch ended');
});
