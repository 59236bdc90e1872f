// The credit committee's review end to end, on a case this spec creates and submits (the seeded
// demo case stays submitted for the other specs): a comment on turn D1, a decision with
// conditions, the RM reading both and replying; evaluators and committee members refused where
// they have no business; the administrator's audit log naming what happened; and a returned
// case going back to the RM, analysed again, resubmitted and decided in a second round.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEMO_IDS } from '../lib/domain/demo-ids';
import { acknowledgeFailedChecks, signInAs } from './fixtures';

async function newSignedInPage(browser: Browser, role: 'rm' | 'committee' | 'evaluator' | 'admin') {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, role);
  return page;
}

/** Calls a server action the way the access matrix does: by id, on a route it is bundled with. */
async function callAction(page: Page, name: string, input: Record<string, unknown>) {
  const fs = await import('node:fs');
  const path = await import('node:path');
  const manifest = JSON.parse(fs.readFileSync(path.join(process.cwd(), '.next', 'server', 'server-reference-manifest.json'), 'utf8')) as {
    node: Record<string, { exportedName?: string; workers: Record<string, unknown> }>;
  };
  const [id, entry] = Object.entries(manifest.node).find(([, e]) => e.exportedName === name)!;
  const route =
    Object.keys(entry.workers)[0]
      .replace(/^app/, '')
      .replace(/\/\([^)]+\)/g, '')
      .replace(/\/page$/, '') || '/';
  const origin = new URL(page.url()).origin;
  const response = await page.request.post(route, {
    headers: { 'Next-Action': id, 'Content-Type': 'text/plain;charset=UTF-8', Origin: origin, Accept: 'text/x-component' },
    data: JSON.stringify([input]),
  });
  return response.text();
}

/** The RM's new case on Samsung Electronics, through the form; resolves with its URL. */
async function newCase(page: Page, { title, amount, purpose }: { title: string; amount: string; purpose: string }) {
  await page.goto('/cases/new');
  await page.getByLabel('Borrower').selectOption('samsung-electronics');
  await page.getByLabel('Case title').fill(title);
  await page.getByLabel('Loan amount').fill(amount);
  await page.getByLabel('Purpose of the loan').fill(purpose);
  await page.getByTestId('case-submit').click();
  await expect(page).toHaveURL(/\/cases\/[0-9a-f-]{36}$/);
  return page.url();
}

/** Starts a run on the offline analyst from the case page and waits on the run page for all its steps; resolves with the run's URL. */
async function runOffline(page: Page, caseUrl: string, protocol: 'nas' | 'kpd-mads', steps: number) {
  await page.goto(caseUrl);
  const launcher = page.getByTestId('run-launcher');
  await launcher.locator(`input[name="protocol"][value="${protocol}"]`).check();
  await launcher.locator('input[name="provider"][value="offline"]').check();
  await launcher.getByLabel('Output language').selectOption('en');
  await page.getByTestId('start-run').click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  const runUrl = page.url();
  await expect(page.getByTestId('progress-count')).toHaveText(`${steps} of ${steps} ${steps === 1 ? 'step' : 'steps'}`, { timeout: 90_000 });
  return runUrl;
}

/** Submits from the case page, through the confirmation, with a cover note when given. */
async function submitCase(page: Page, caseUrl: string, note?: string) {
  await page.goto(caseUrl);
  await acknowledgeFailedChecks(page);
  await page.getByTestId('submit-case').click();
  if (note) await page.getByRole('dialog').getByLabel('Cover note to the committee (optional)').fill(note);
  await page.getByTestId('submit-case-confirm').click();
  await expect(page.getByText('This case is with the credit committee; runs can no longer be started.')).toBeVisible();
}

/**
 * Records the decision filled in on the form, through the confirmation that repeats the outcome.
 * The member first confirms reading the report and, when some failed, its failed checks (docs/oversight.md).
 */
async function recordDecision(page: Page, outcome: string) {
  const form = page.getByTestId('decision-form');
  await form.getByTestId('confirm-read-report').check();
  if (await form.getByTestId('confirm-read-checks').count()) await form.getByTestId('confirm-read-checks').check();
  await form.getByTestId('record-decision').click();
  await expect(page.getByTestId('confirm-decision-outcome')).toHaveText(`Outcome: ${outcome}`);
  await page.getByTestId('record-decision-confirm').click();
}

const coverNote = 'Litigation exposure is settled; please read the 2024 governance evidence first.';

test.describe.serial('credit committee review', () => {
  const title = `Review ${Date.now().toString(36)}`;
  let caseUrl = '';
  let runUrl = '';

  test('the RM analyses a case with KPD-MADS on the offline analyst and submits it', async ({ page }) => {
    test.setTimeout(120_000);
    await signInAs(page, 'rm');
    caseUrl = await newCase(page, { title, amount: '3000000000', purpose: 'Working capital line' });
    runUrl = await runOffline(page, caseUrl, 'kpd-mads', 11);
    // Before submission nobody has commented: the turn cards offer the RM nothing to reply to.
    await expect(page.getByTestId('turn-D1').getByTestId('turn-comments')).toHaveCount(0);
    await submitCase(page, caseUrl, coverNote);
  });

  test('a committee member comments on turn D1 and approves with conditions', async ({ browser }) => {
    const committee = await newSignedInPage(browser, 'committee');
    await committee.goto('/review');
    const row = committee.getByTestId('waiting-row').filter({ hasText: title });
    await expect(row).toContainText('Demo RM');
    // The RM's cover note: a line in the queue, in full on the case page.
    await expect(row.getByTestId('queue-cover-note')).toHaveText(`RM's note: ${coverNote}`);
    await row.getByRole('link', { name: title }).click();
    await expect(committee).toHaveURL(caseUrl);
    await expect(committee.getByTestId('read-only')).toBeVisible();
    await expect(committee.getByTestId('cover-note')).toHaveText(coverNote);

    // The comment, on the run page's turn D1.
    await committee.goto(runUrl);
    const d1 = committee.getByTestId('turn-D1');
    await d1.getByTestId('turn-comments-toggle').click();
    const form = d1.getByTestId('turn-comment-form');
    await form.getByTestId('turn-comment-form-submit').click();
    // An empty comment is refused by the browser before it is sent; the box stays there.
    await expect(form.getByLabel('Comment')).toBeFocused();
    await form.getByLabel('Comment').fill('Where does the governance evidence for 2024 come from?');
    await form.getByTestId('turn-comment-form-submit').click();
    await expect(d1.getByTestId('comment-body')).toHaveText('Where does the governance evidence for 2024 come from?');
    await expect(d1.getByTestId('turn-comments-toggle')).toHaveText('Comments (1)');
    await expect(committee.getByTestId('turn-D2').getByTestId('comment')).toHaveCount(0);

    // The decision, on the case page: conditions are required for this outcome, and nothing typed is lost.
    await committee.goto(caseUrl);
    await expect(committee.getByTestId('anchored-threads').getByTestId('comment-anchor')).toHaveText('Turn D1');
    const decision = committee.getByTestId('decision-form');
    await decision.getByTestId('outcome-approve_with_conditions').check();
    await decision.getByLabel('Rationale').fill('Governance is sound; litigation exposure is contained.');
    await recordDecision(committee, 'Approve with conditions');
    await expect(committee.getByText('List the conditions of the approval.')).toBeVisible();
    await expect(committee.getByLabel('Rationale')).toHaveValue('Governance is sound; litigation exposure is contained.');
    await committee.getByRole('textbox', { name: 'Conditions', exact: true }).fill('Quarterly covenant compliance report');
    await recordDecision(committee, 'Approve with conditions');
    const recorded = committee.getByTestId('decision');
    await expect(recorded.getByTestId('decision-outcome')).toHaveText('Approve with conditions');
    await expect(recorded.getByTestId('decision-conditions')).toHaveText('Quarterly covenant compliance report');
    await expect(committee.getByTestId('decision-form')).toHaveCount(0);

    // Once per round: calling the action again is refused, and the queue has moved the case.
    const caseId = new URL(caseUrl).pathname.split('/').pop()!;
    expect(await callAction(committee, 'recordDecision', { case_id: caseId, outcome: 'decline', rationale: 'again' })).toContain('"code":"conflict"');
    await committee.goto('/review');
    await expect(committee.getByTestId('waiting-row').filter({ hasText: title })).toHaveCount(0);
    await expect(committee.getByTestId('decided-row').filter({ hasText: title })).toContainText('Approve with conditions');
    await committee.context().close();
  });

  test('the RM sees the comment and the decision and replies', async ({ page }) => {
    await signInAs(page, 'rm');
    await page.goto(caseUrl);
    await expect(page.getByTestId('decision').getByTestId('decision-rationale')).toHaveText('Governance is sound; litigation exposure is contained.');
    await expect(page.getByTestId('decision-form')).toHaveCount(0);
    const thread = page.getByTestId('anchored-threads').getByTestId('comment-thread');
    await expect(thread.getByTestId('comment-body')).toHaveText('Where does the governance evidence for 2024 come from?');
    // The RM answers; they cannot open a thread of their own.
    await expect(page.getByTestId('case-comment-form')).toHaveCount(0);
    await thread.getByTestId('reply-toggle').click();
    await thread.getByLabel('Your reply').fill('From the 2024 annual report, section 3.');
    await thread.getByTestId('reply-form-submit').click();
    await expect(thread.getByTestId('comment-body')).toHaveText([
      'Where does the governance evidence for 2024 come from?',
      'From the 2024 annual report, section 3.',
    ]);
    // The run page shows the same thread on its turn, and the decision.
    await page.goto(runUrl);
    await expect(page.getByTestId('decision-outcome')).toHaveText('Approve with conditions');
    await page.getByTestId('turn-D1').getByTestId('turn-comments-toggle').click();
    await expect(page.getByTestId('turn-D1').getByTestId('comment-body')).toHaveText([
      'Where does the governance evidence for 2024 come from?',
      'From the 2024 annual report, section 3.',
    ]);
    const caseId = new URL(caseUrl).pathname.split('/').pop()!;
    expect(await callAction(page, 'addComment', { case_id: caseId, body: 'A new thread by the RM' })).toContain('"code":"forbidden"');
    expect(await callAction(page, 'recordDecision', { case_id: caseId, outcome: 'approve', rationale: 'mine' })).toContain('"code":"forbidden"');
  });

  test('an evaluator can neither open the case nor call the review actions', async ({ browser }) => {
    const evaluator = await newSignedInPage(browser, 'evaluator');
    expect((await evaluator.goto(caseUrl))!.status()).toBe(403);
    const caseId = new URL(caseUrl).pathname.split('/').pop()!;
    expect(await callAction(evaluator, 'addComment', { case_id: caseId, body: 'x' })).toContain('"code":"forbidden"');
    expect(await callAction(evaluator, 'recordDecision', { case_id: caseId, outcome: 'approve', rationale: 'x' })).toContain('"code":"forbidden"');
    await evaluator.context().close();
  });

  test('a committee member cannot change runs or evidence, nor comment once the case is decided', async ({ browser }) => {
    const committee = await newSignedInPage(browser, 'committee');
    await committee.goto('/review');
    const caseId = new URL(caseUrl).pathname.split('/').pop()!;
    const runId = new URL(runUrl).pathname.split('/').pop()!;
    expect(await callAction(committee, 'retryRun', { run_id: runId })).toContain('"code":"forbidden"');
    expect(await callAction(committee, 'startRun', { case_id: caseId })).toContain('"code":"forbidden"');
    expect(await callAction(committee, 'deleteEvidence', { id: 'x' })).toContain('"code":"forbidden"');
    expect(await callAction(committee, 'addComment', { case_id: caseId, body: 'too late' })).toContain('"code":"forbidden"');
    // A comment anchored to a turn of another case's run is refused, even on a submitted case.
    expect(await callAction(committee, 'addComment', { case_id: DEMO_IDS.submittedCase, run_id: runId, step_id: 'D1', body: 'wrong run' })).toContain(
      '"code":"bad_request"',
    );
    await committee.context().close();
  });

  test('the administrator finds the decision in the audit log and the chain verifies', async ({ browser }) => {
    const admin = await newSignedInPage(browser, 'admin');
    await admin.getByTestId('main-nav').getByRole('link', { name: 'Audit log' }).click();
    await expect(admin).toHaveURL(/\/admin\/audit$/);
    await admin.getByLabel('Action').selectOption('case.decide');
    await admin.getByTestId('audit-apply').click();
    await expect(admin).toHaveURL(/action=case.decide/);
    const caseId = new URL(caseUrl).pathname.split('/').pop()!;
    await expect(admin.getByTestId('audit-row').filter({ hasText: caseId })).toContainText('Approve with conditions');
    await admin.getByTestId('verify-chain').click();
    await expect(admin.getByTestId('verify-result')).toHaveAttribute('data-ok', 'true');
    await expect(admin).toHaveURL(/action=case.decide/);
    await admin.context().close();
  });
});

test.describe.serial('a case the committee returns goes back to the RM and comes round again', () => {
  const title = `Returned ${Date.now().toString(36)}`;
  let caseUrl = '';

  test('the RM submits a case analysed with NAS only; the committee returns it with a reason', async ({ page, browser }) => {
    test.setTimeout(120_000);
    await signInAs(page, 'rm');
    caseUrl = await newCase(page, { title, amount: '1500000000', purpose: 'Equipment financing' });
    await runOffline(page, caseUrl, 'nas', 1);
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded');
    await submitCase(page, caseUrl);

    const committee = await newSignedInPage(browser, 'committee');
    await committee.goto(caseUrl);
    const decision = committee.getByTestId('decision-form');
    await decision.getByTestId('outcome-return').check();
    await decision.getByLabel('Rationale').fill('One analyst is not enough here: run the full debate.');
    await recordDecision(committee, 'Return to RM');
    await expect(committee.getByTestId('decision').getByTestId('decision-outcome')).toHaveText('Return to RM');
    // Back with the RM: nothing for the committee to decide until it is submitted again.
    await expect(committee.getByTestId('decision-form')).toHaveCount(0);
    await committee.goto('/review');
    await expect(committee.getByTestId('waiting-row').filter({ hasText: title })).toHaveCount(0);
    await expect(committee.getByTestId('decided-row').filter({ hasText: title })).toContainText('Return to RM');
    await committee.context().close();
  });

  test('the RM reads why, runs KPD-MADS and submits again; the committee decides the new round', async ({ page, browser }) => {
    test.setTimeout(150_000);
    await signInAs(page, 'rm');
    await page.goto(caseUrl);
    await expect(page.getByText('The committee returned this case: you may run further analyses and submit it again.')).toBeVisible();
    await expect(page.getByTestId('decision-rationale')).toHaveText('One analyst is not enough here: run the full debate.');
    await runOffline(page, caseUrl, 'kpd-mads', 11);
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded');
    await submitCase(page, caseUrl);

    const committee = await newSignedInPage(browser, 'committee');
    await committee.goto('/review');
    await committee.getByTestId('waiting-row').filter({ hasText: title }).getByRole('link', { name: title }).click();
    await expect(committee).toHaveURL(caseUrl);
    const decision = committee.getByTestId('decision-form');
    await decision.getByTestId('outcome-approve').check();
    await decision.getByLabel('Rationale').fill('The debate covers both sides; repayment capability holds.');
    await recordDecision(committee, 'Approve');
    // Both rounds stay on record, the newest first.
    await expect(committee.getByTestId('decision').getByTestId('decision-outcome')).toHaveText(['Approve', 'Return to RM']);
    await committee.goto('/review');
    await expect(committee.getByTestId('decided-row').filter({ hasText: title })).toContainText('Approve');
    await committee.context().close();
  });
});
