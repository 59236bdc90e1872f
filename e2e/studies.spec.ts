// The evaluation studio end to end: an RM produces reports by two systems for two companies,
// an admin makes a study over them with three evaluators and opens it, the evaluators rate
// blind (nothing of the system reaches their browser), ratings autosave and lock on submit,
// and the admin reads the results and downloads the raw ratings.
import fs from 'node:fs';
import path from 'node:path';
import { expect, request, test, type Browser, type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { ALL_ITEMS } from '../lib/domain/study';
import { DEMO_IDS } from '../lib/domain/demo-ids';
import { createCase, createUser, DEMO_PASSWORD, DEMO_USERS, runOffline, signIn, signInAs, uniqueEmail } from './fixtures';

const PASSWORD = 'study-evaluator-pass';
const MODEL_NAMES = ['offline-analyst-1'];
// Protocol names as the brief lists them; the short ones as whole words.
const FORBIDDEN = [/kpd-mads/i, /\bnas\b/i, /\bsas\b/i, /three-round/i, /findebate/i];

async function newPage(browser: Browser) {
  return (await browser.newContext()).newPage();
}

/** The id of a built server action, from Next's manifest, to call it as a crafted request. */
function actionId(name: string) {
  const file = path.join(process.cwd(), '.next', 'server', 'server-reference-manifest.json');
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as { node: Record<string, { exportedName?: string }> };
  return Object.entries(manifest.node).find(([, e]) => e.exportedName === name)![0];
}

/** Each assignment's system, from the admin's CSV: the evaluator's page must not tell them apart. */
const protocolOf = new Map<string, string>();

/**
 * Rates the open report: debate reports 4 on the Likert items and SUS 75, single-analyst (NAS)
 * ones 3 and SUS 50 (the SUS's even items are worded negatively).
 */
async function rateOpenReport(page: Page) {
  const protocol = protocolOf.get(new URL(page.url()).pathname.split('/').pop()!);
  expect(protocol).toBeDefined();
  const debate = protocol !== 'nas';
  const score = debate ? 4 : 3;
  for (const item of ALL_ITEMS) {
    const negative = /^sus(2|4|6|8|10)$/.test(item);
    await page
      .getByTestId(`item-${item}`)
      .locator(`input[value="${negative ? 6 - score : score}"]`)
      .check();
  }
  // Complete: the submission asks first, saying the answers lock.
  await page.getByTestId('submit-rating').click();
  await expect(page.getByRole('dialog', { name: 'Submit this rating?' })).toBeVisible();
  await page.getByTestId('submit-rating-confirm').click();
  await expect(page.getByTestId('rating-locked')).toBeVisible();
  return debate ? 'debate' : 'single';
}

test.describe.serial('evaluation studio', () => {
  test.setTimeout(240_000);
  const runIds: string[] = [];
  const evaluators: string[] = [];
  let studyUrl = '';
  let firstAssignment = '';

  test('an RM produces reports by two systems; an admin creates evaluators and a study, and opens it', async ({ browser }) => {
    const rm = await newPage(browser);
    await signInAs(rm, 'rm');
    const tesla = await createCase(rm, 'tesla', `Study Tesla ${Date.now()}`);
    runIds.push(await runOffline(rm, tesla, 'nas'), await runOffline(rm, tesla, 'kpd-mads'));
    const samsung = await createCase(rm, 'samsung-electronics', `Study Samsung ${Date.now()}`);
    runIds.push(await runOffline(rm, samsung, 'nas'), DEMO_IDS.run);

    const admin = await newPage(browser);
    await signInAs(admin, 'admin');
    for (let i = 0; i < 2; i++) {
      const email = uniqueEmail('evaluator');
      await admin.goto('/admin/users');
      const form = admin.getByTestId('create-user-form');
      await form.getByLabel('Email').fill(email);
      await form.getByLabel('Name').fill(`Study evaluator ${i + 1}`);
      await form.getByLabel('Role').selectOption('evaluator');
      await form.getByLabel('Initial password').fill(PASSWORD);
      await form.getByRole('button', { name: 'Create user' }).click();
      await expect(admin.getByText(`Created ${email}.`)).toBeVisible();
      evaluators.push(email);
    }

    await admin.goto('/admin/studies');
    await admin.getByTestId('new-study').click();
    await expect(admin).toHaveURL(/\/admin\/studies\/new$/);
    // Nothing picked: every problem is named and nothing is created.
    await admin.getByTestId('create-study').click();
    await expect(admin.getByText('Enter a name.')).toBeVisible();
    await expect(admin.getByText('Pick at least one report.')).toBeVisible();
    await expect(admin.getByText('Pick at least one evaluator.')).toBeVisible();

    const name = `Blind study ${Date.now()}`;
    await admin.getByLabel('Study name').fill(name);
    for (const id of runIds) await admin.locator(`tr[data-run-id="${id}"] input[type="checkbox"]`).check();
    await admin.getByLabel(new RegExp(DEMO_USERS.evaluator.name)).check();
    for (const email of evaluators) await admin.getByLabel(new RegExp(email.replace(/[.]/g, '\\.'))).check();
    await admin.getByLabel('Order seed (optional)').fill('20250630');
    await admin.getByTestId('create-study').click();
    await expect(admin).toHaveURL(/\/admin\/studies\/[0-9a-f-]{36}$/);
    studyUrl = new URL(admin.url()).pathname;
    const assignments = await (await admin.request.get(`/api/studies/${studyUrl.split('/').pop()}/ratings`)).text();
    for (const row of parse(assignments, { columns: true }) as { assignment_id: string; protocol: string }[]) protocolOf.set(row.assignment_id, row.protocol);
    expect(protocolOf.size).toBe(12);
    await expect(admin.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(admin.getByTestId('assignment-admin-row')).toHaveCount(12);
    await expect(admin.getByTestId('study-status').first()).toHaveAttribute('data-status', 'draft');

    // A draft is invisible to evaluators.
    const evaluator = await newPage(browser);
    await signInAs(evaluator, 'evaluator');
    await evaluator.goto('/ratings');
    await expect(evaluator.getByText(`Study: ${name}`)).toHaveCount(0);

    await admin.getByTestId('open-study').click();
    await expect(admin.getByText('The study is open: evaluators see their reports now.')).toBeVisible();
    await expect(admin.getByTestId('study-status').first()).toHaveAttribute('data-status', 'open');
  });

  test('the demo evaluator rates blind: nothing of the system reaches the browser; answers autosave; submit locks', async ({ browser }) => {
    const admin = await newPage(browser);
    await signInAs(admin, 'admin');
    const csv = await (await admin.request.get(`/api/studies/${studyUrl.split('/').pop()}/ratings`)).text();
    const rows = parse(csv, { columns: true }) as { report_id: string }[];
    const reportIds = [...new Set(rows.map((r) => r.report_id))];
    expect(reportIds).toHaveLength(4);
    const secrets = [...runIds, ...reportIds, ...MODEL_NAMES];

    const page = await newPage(browser);
    const bodies: { url: string; body: string }[] = [];
    page.on('response', async (response) => {
      try {
        bodies.push({ url: response.url(), body: await response.text() });
      } catch {
        // Redirects and aborted requests have no body.
      }
    });
    // Server-action responses stream, and Chromium does not always keep a streamed body for
    // the listener above to read: the rating page's actions are fetched here instead, so their
    // bodies are scanned for certain.
    const actionBodies: { url: string; body: string }[] = [];
    await page.route(/\/ratings\//, async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      const response = await route.fetch();
      const body = await response.text();
      actionBodies.push({ url: route.request().url(), body });
      await route.fulfill({ response, body });
    });
    await signInAs(page, 'evaluator');
    await page.goto('/ratings');
    const study = page
      .getByTestId('ratings-study')
      .filter({ hasText: /Blind study/ })
      .first();
    await expect(study.getByTestId('assignment-row')).toHaveCount(4);
    await expect(study.getByTestId('ratings-progress')).toHaveText('0 of 4 submitted');
    await study.getByRole('link', { name: 'Report 1' }).click();
    await expect(page).toHaveURL(/\/ratings\/[0-9a-f-]{36}$/);
    firstAssignment = new URL(page.url()).pathname;
    await expect(page.getByRole('heading', { level: 1, name: 'Report 1 of 4' })).toBeVisible();
    await expect(page.getByTestId('blind-report')).toContainText(/Tesla|Samsung|삼성/);
    // The report and one list of its sources; no transcript, whose turns would name the system.
    await expect(page.getByTestId('blind-sources').getByTestId('citations').locator('li').first()).toBeVisible();
    await expect(page.getByTestId('blind-transcript')).toHaveCount(0);

    // Autosave, kept across a reload.
    await page.getByTestId('item-trustworthiness').locator('input[value="2"]').check();
    await page.getByTestId('item-sus3').locator('input[value="5"]').check();
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
    await page.reload();
    await expect(page.getByTestId('item-trustworthiness').locator('input[value="2"]')).toBeChecked();
    await expect(page.getByTestId('item-sus3').locator('input[value="5"]')).toBeChecked();

    // Incomplete: refused, nothing lost.
    await page.getByTestId('submit-rating').click();
    await expect(page.getByTestId('submit-error')).toContainText('Answer every item before submitting: 11 still open.');
    await expect(page.getByTestId('item-trustworthiness').locator('input[value="2"]')).toBeChecked();

    await rateOpenReport(page);
    await page.reload();
    await expect(page.getByTestId('rating-form')).toHaveAttribute('data-locked', 'submitted');
    await expect(page.getByTestId('item-sus1').locator('input').first()).toBeDisabled();
    await expect(page.getByTestId('submit-rating')).toHaveCount(0);

    // A second submission straight to the action is refused and changes nothing.
    const id = firstAssignment.split('/').pop()!;
    const second = await page.request.post(firstAssignment, {
      headers: {
        'Next-Action': actionId('submitRating'),
        'Content-Type': 'text/plain;charset=UTF-8',
        Origin: new URL(page.url()).origin,
        Accept: 'text/x-component',
      },
      data: JSON.stringify([{ assignmentId: id, answers: Object.fromEntries(ALL_ITEMS.map((k) => [k, 1])) }]),
    });
    expect(await second.text()).toContain('"code":"conflict"');

    // The other three reports.
    for (const n of [2, 3, 4]) {
      await page.goto('/ratings');
      await page
        .getByTestId('ratings-study')
        .filter({ hasText: /Blind study/ })
        .first()
        .getByRole('link', { name: `Report ${n}` })
        .click();
      await expect(page.getByRole('heading', { level: 1, name: `Report ${n} of 4` })).toBeVisible();
      await rateOpenReport(page);
    }
    await page.goto('/ratings');
    await expect(
      page
        .getByTestId('ratings-study')
        .filter({ hasText: /Blind study/ })
        .first()
        .getByTestId('ratings-progress'),
    ).toHaveText('4 of 4 submitted');

    // Blinding: every body the browser received (HTML, RSC payloads, action responses, scripts).
    expect(bodies.length).toBeGreaterThan(10);
    // The scan saw the rating pages themselves and the report text in them.
    expect(
      bodies.some(
        ({ url, body }) =>
          url.includes('/ratings/') && body.includes('Report 1 of 4') && body.includes('Points against and risks') && body.includes('Sources cited'),
      ),
    ).toBe(true);
    expect(actionBodies.some(({ body }) => body.includes('"savedAt"'))).toBe(true);
    const leaks = [...bodies, ...actionBodies].flatMap(({ url, body }) => [
      ...FORBIDDEN.filter((p) => p.test(body)).map((p) => `${url}: ${p} near "${body.slice(Math.max(0, body.search(p) - 60), body.search(p) + 60)}"`),
      ...secrets.filter((s) => body.includes(s) || url.includes(s)).map((s) => `${url}: ${s}`),
    ]);
    expect(leaks).toEqual([]);
  });

  test('other evaluators rate their own copies and cannot open anyone else’s', async ({ browser }) => {
    for (const email of evaluators) {
      const page = await newPage(browser);
      await signIn(page, email, PASSWORD);
      await expect(page.getByTestId('home-evaluator')).toBeVisible();
      const foreign = await page.goto(firstAssignment);
      expect(foreign?.status()).toBe(404);
      await page.goto('/ratings');
      const study = page
        .getByTestId('ratings-study')
        .filter({ hasText: /Blind study/ })
        .first();
      await expect(study.getByTestId('assignment-row')).toHaveCount(4);
      // From the first report on, "Next report" after each submission leads through the rest; then all done.
      await study.getByRole('link', { name: 'Report 1' }).click();
      for (const n of [1, 2, 3, 4]) {
        await expect(page.getByRole('heading', { level: 1, name: `Report ${n} of 4` })).toBeVisible();
        await rateOpenReport(page);
        if (n < 4) await page.getByTestId('next-report-link').click();
      }
      await expect(page.getByTestId('next-report-link')).toHaveCount(0);
      await expect(page.getByTestId('all-done')).toBeVisible();
    }
  });

  test('the admin reads the results and downloads the ratings; other roles cannot', async ({ browser, baseURL }) => {
    const admin = await newPage(browser);
    await signInAs(admin, 'admin');
    await admin.goto(`${studyUrl}/results`);
    await expect(admin.getByRole('heading', { level: 1 })).toContainText('Results');
    // Debate reports were rated 4, single-analyst ones 3, by all three evaluators.
    await expect(admin.getByTestId('summary-trustworthiness-kpd-mads').getByTestId('median')).toHaveText('4');
    await expect(admin.getByTestId('summary-trustworthiness-nas').getByTestId('median')).toHaveText('3');
    await expect(admin.getByTestId('summary-sus-kpd-mads').getByTestId('median')).toHaveText('75');
    await expect(admin.getByTestId('summary-sus-nas').getByTestId('median')).toHaveText('50');
    // 3 evaluators × 2 companies = 6 pairs, every one in favour of the debate: W = 0.
    const row = admin.getByTestId('wilcoxon-explanatoryAdequacy');
    await expect(row).toContainText('KPD-MADS vs Single agent (NAS)');
    await expect(row.locator('td').nth(2)).toHaveText('6');
    await expect(row.locator('td').nth(5)).toHaveText('0');
    // n = 6 < 10: marked a small sample; the exact p over the 2^6 sign patterns is 2/64.
    await expect(row).toHaveAttribute('data-small-sample', 'yes');
    await expect(row.getByTestId('p-exact')).toHaveText('.031');
    await expect(admin.getByTestId('small-sample-note')).toContainText('below n = 10');
    await expect(admin.getByTestId('chart-likert').getByTestId('chart-bar')).toHaveCount(6);
    await expect(admin.getByTestId('rei-table').locator('tbody tr')).toHaveCount(4);
    await expect(admin.getByTestId('latency-table').locator('tbody tr')).toHaveCount(4);
    await admin.getByTestId('toggle-ties').click();
    await expect(admin.getByText('Without tie correction').first()).toBeVisible();

    const [download] = await Promise.all([admin.waitForEvent('download'), admin.getByTestId('csv-link').click()]);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    // Evaluators by pseudonym only (issue 30, item 2): three of them, each on their four rows.
    expect(csv.split('\r\n')[0]).toContain('assignment_id,evaluator,company_id');
    for (const email of [...evaluators, DEMO_USERS.evaluator.email]) expect(csv).not.toContain(email);
    for (const evaluatorName of ['Study evaluator', DEMO_USERS.evaluator.name]) expect(csv).not.toContain(evaluatorName);
    const rows = parse(csv, { columns: true }) as { evaluator: string; protocol: string; sus_score: string; submitted_at: string }[];
    expect(rows).toHaveLength(12);
    expect(rows.every((r) => /^E-[0-9A-F]{8}$/.test(r.evaluator))).toBe(true);
    expect(new Set(rows.map((r) => r.evaluator)).size).toBe(3);
    expect(rows.filter((r) => r.protocol === 'kpd-mads').map((r) => r.sus_score)).toEqual(Array(6).fill('75'));
    expect(rows.every((r) => r.submitted_at !== '')).toBe(true);
    for (const id of runIds) expect(csv).toContain(id);

    // Closing locks the study; the access of every other role.
    await admin.goto(studyUrl);
    await admin.getByTestId('close-study').click();
    await expect(admin.getByTestId('study-status').first()).toHaveAttribute('data-status', 'closed');
    const id = studyUrl.split('/').pop()!;
    for (const role of ['rm', 'committee', 'evaluator'] as const) {
      const context = await request.newContext({ baseURL, maxRedirects: 0 });
      const { csrfToken } = (await (await context.get('/api/auth/csrf')).json()) as { csrfToken: string };
      await context.post('/api/auth/callback/credentials', { form: { email: DEMO_USERS[role].email, password: DEMO_PASSWORD, csrfToken, callbackUrl: '/' } });
      for (const url of [studyUrl, `${studyUrl}/results`]) expect((await context.get(url)).status(), `${url} as ${role}`).toBe(403);
      expect((await context.get(`/api/studies/${id}/ratings`)).status(), `csv as ${role}`).toBe(403);
      expect((await context.get(firstAssignment)).status(), `assignment as ${role}`).toBe(role === 'evaluator' ? 200 : 403);
      await context.dispose();
    }
    const anonymous = await request.newContext({ baseURL, maxRedirects: 0 });
    expect((await anonymous.get(`/api/studies/${id}/ratings`)).status()).toBe(401);
    expect([302, 303, 307]).toContain((await anonymous.get(firstAssignment)).status());
    await anonymous.dispose();
  });
});

// Safeguards (issue 16), on a study of its own: one report has no report of another system for its
// company to be compared with, so the study is refused until the admin says to create it anyway,
// and the audit log records that it was. The study stays a draft for an evaluator made here.
test('an unpaired report is refused until the admin ticks "Create anyway", and the audit records it', async ({ browser }) => {
  const admin = await newPage(browser);
  await signInAs(admin, 'admin');
  const email = await createUser(admin, { role: 'evaluator', name: 'Safeguard evaluator', password: PASSWORD, prefix: 'safeguard' });
  await admin.goto('/admin/studies/new');
  const name = `Unpaired study ${Date.now().toString(36)}`;
  await admin.getByLabel('Study name').fill(name);
  const pick = admin.locator(`tr[data-run-id="${DEMO_IDS.run}"] input[type="checkbox"]`);
  await pick.check();
  await admin.getByLabel(new RegExp(email.replace(/[.]/g, '\\.'))).check();

  // The warning shows as the pick is made, naming the report.
  const warnings = admin.getByTestId('pick-warnings');
  const report = (await pick.getAttribute('aria-label'))!;
  await expect(warnings).toContainText(
    'Some picked reports are unpaired: their company has no report of another system in this study, so they enter no comparison.',
  );
  await expect(warnings.getByTestId('unpaired-reports').locator('li')).toHaveText([`${report}: no report of another system for this company.`]);
  await expect(warnings.getByTestId('mixed-languages')).toHaveCount(0);
  await expect(admin.getByTestId('create-anyway')).not.toBeChecked();

  // Refused: nothing created, the form kept as it was.
  await admin.getByTestId('create-study').click();
  const form = admin.getByTestId('new-study-form');
  await expect(form.getByRole('alert')).toHaveText(
    'The study was not created: some picked reports cannot be compared as they stand (see the warnings under Reports).',
  );
  await expect(form.locator('#create-anyway-error')).toHaveText('Tick "Create anyway" to create the study despite these warnings.');
  await expect(admin).toHaveURL(/\/admin\/studies\/new$/);
  await expect(pick).toBeChecked();
  await expect(admin.getByLabel('Study name')).toHaveValue(name);

  // Created anyway.
  await admin.getByTestId('create-anyway').check();
  await admin.getByTestId('create-study').click();
  await expect(admin).toHaveURL(/\/admin\/studies\/[0-9a-f-]{36}$/);
  const studyId = admin.url().split('/').pop()!;
  await expect(admin.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(admin.getByTestId('assignment-admin-row')).toHaveCount(1);
  await expect(admin.getByTestId('study-status').first()).toHaveAttribute('data-status', 'draft');
  await admin.goto('/admin/studies');
  await expect(admin.getByText(name, { exact: true })).toHaveCount(1);

  // The audit entry says it was created despite the warnings, and why.
  await admin.goto('/admin/audit?action=study.create');
  const entry = admin.getByTestId('audit-row').filter({ hasText: studyId });
  await expect(entry).toHaveCount(1);
  const detail = entry.getByTestId('audit-detail');
  await expect(detail).not.toContainText('{');
  const labels = await detail.locator('dt').allTextContents();
  const values = await detail.locator('dd').allTextContents();
  expect(Object.fromEntries(labels.map((l, i) => [l, values[i]]))).toMatchObject({
    Name: name,
    Assignments: '1',
    'Created despite warnings': 'Yes',
    'Unpaired reports': '1',
    'Borrowers with mixed languages': '—',
  });
});

test('one borrower’s reports in two output languages are refused until the admin ticks "Create anyway"', async ({ browser }) => {
  test.setTimeout(150_000);
  // Two systems on one case, one writing in English and the other in Korean: paired, but mixed.
  const rm = await newPage(browser);
  await signInAs(rm, 'rm');
  const caseUrl = await createCase(rm, 'tesla', `Mixed languages ${Date.now().toString(36)}`);
  const runs: string[] = [];
  for (const [protocol, language] of [
    ['nas', 'en'],
    ['kpd-mads', 'ko'],
  ] as const) {
    await rm.goto(caseUrl);
    const launcher = rm.getByTestId('run-launcher');
    await launcher.locator(`input[name="protocol"][value="${protocol}"]`).check();
    await launcher.locator('input[name="provider"][value="offline"]').check();
    await launcher.getByLabel('Output language').selectOption(language);
    await rm.getByTestId('start-run').click();
    await expect(rm).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
    await expect(rm.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 90_000 });
    runs.push(rm.url().split('/').pop()!);
  }

  const admin = await newPage(browser);
  await signInAs(admin, 'admin');
  const email = await createUser(admin, { role: 'evaluator', name: 'Language evaluator', password: PASSWORD, prefix: 'languages' });
  await admin.goto('/admin/studies/new');
  const name = `Mixed-language study ${Date.now().toString(36)}`;
  await admin.getByLabel('Study name').fill(name);
  for (const id of runs) await admin.locator(`tr[data-run-id="${id}"] input[type="checkbox"]`).check();
  await admin.getByLabel(new RegExp(email.replace(/[.]/g, '\\.'))).check();
  const warnings = admin.getByTestId('pick-warnings');
  const company = (await admin.locator(`tr[data-run-id="${runs[0]}"] td`).nth(1).textContent())!;
  await expect(warnings.getByTestId('mixed-languages').locator('li')).toHaveText([`${company}: reports in different output languages (en, ko).`]);
  await expect(warnings.getByTestId('unpaired-reports')).toHaveCount(0);

  await admin.getByTestId('create-study').click();
  await expect(admin.getByTestId('new-study-form').getByRole('alert')).toHaveText(
    'The study was not created: some picked reports cannot be compared as they stand (see the warnings under Reports).',
  );
  await expect(admin).toHaveURL(/\/admin\/studies\/new$/);
  await admin.getByTestId('create-anyway').check();
  await admin.getByTestId('create-study').click();
  await expect(admin).toHaveURL(/\/admin\/studies\/[0-9a-f-]{36}$/);
  await expect(admin.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(admin.getByTestId('assignment-admin-row')).toHaveCount(2);
});
