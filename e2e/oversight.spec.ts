// Human oversight on record (docs/oversight.md), on cases this spec creates and submits: the
// decision form picks no outcome until the member does and says which outcome the rationale is
// for; the member must confirm reading the report and its failed checks; an overridden AI output
// is recorded, shown and exported; and on a sole proprietor's case two committee members must
// agree: the first vote is not final, the second member's agreeing vote makes it so.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { acknowledgeFailedChecks, createCase, createUser, runOffline, signIn, signInAs } from './fixtures';

async function newSignedInPage(browser: Browser, role: 'rm' | 'committee' | 'admin') {
  const page = await (await browser.newContext()).newPage();
  await signInAs(page, role);
  return page;
}

async function submitCase(page: Page, caseUrl: string) {
  await page.goto(caseUrl);
  await acknowledgeFailedChecks(page);
  await page.getByTestId('submit-case').click();
  await page.getByTestId('submit-case-confirm').click();
  await expect(page.getByText('This case is with the credit committee; runs can no longer be started.')).toBeVisible();
}

/** Ticks the read confirmations: the report, and the failed checks when the form lists some. */
async function confirmReading(page: Page) {
  const form = page.getByTestId('decision-form');
  await form.getByTestId('confirm-read-report').check();
  if (await form.getByTestId('confirm-read-checks').count()) await form.getByTestId('confirm-read-checks').check();
}

/** Through the confirmation, which repeats the outcome. */
async function confirmDecision(page: Page, outcome: string) {
  await page.getByTestId('decision-form').getByTestId('record-decision').click();
  await expect(page.getByTestId('confirm-decision-outcome')).toHaveText(`Outcome: ${outcome}`);
  await page.getByTestId('record-decision-confirm').click();
}

const tag = Date.now().toString(36);
const SOLE = 'tesla';

test.describe.serial('human oversight of committee decisions', () => {
  const titleA = `Oversight ${tag}`;
  const titleB = `Quorum ${tag}`;
  let caseA = '';
  let caseB = '';
  let runA = '';
  const memberPassword = 'oversight-member-2026!';
  let memberEmail = '';

  test('the RM analyses and submits two cases, one on a borrower marked as a sole proprietor', async ({ page }) => {
    test.setTimeout(240_000);
    await signInAs(page, 'rm');
    caseA = await createCase(page, 'samsung-electronics', titleA);
    runA = await runOffline(page, caseA, 'nas');
    await submitCase(page, caseA);

    // The borrower's page marks it; its cases warn from then on.
    await page.goto(`/companies/${SOLE}`);
    const form = page.getByTestId('sole-proprietor-form');
    if ((await form.getByTestId('sole-proprietor-toggle').textContent()) === 'Mark as a sole proprietor')
      await form.getByTestId('sole-proprietor-toggle').click();
    await expect(form.getByTestId('sole-proprietor-state')).toHaveText('Marked as a sole proprietor: its cases need two agreeing committee votes.');
    await expect(page.getByTestId('sole-proprietor-warning')).toBeVisible();
    caseB = await createCase(page, SOLE, titleB);
    await expect(page.getByTestId('sole-proprietor-warning')).toContainText('do not use it for decisions about the person beyond their business');
    await runOffline(page, caseB, 'nas');
    await submitCase(page, caseB);
  });

  test('no outcome is chosen until the member picks one, and the rationale says which it is for', async ({ browser }) => {
    const committee = await newSignedInPage(browser, 'committee');
    await committee.goto(caseA);
    const form = committee.getByTestId('decision-form');
    for (const o of ['approve', 'approve_with_conditions', 'decline', 'return']) await expect(form.getByTestId(`outcome-${o}`)).not.toBeChecked();
    await expect(form.getByLabel('Rationale (choose a decision above first)')).toBeVisible();
    // Submitting without an outcome is a field error, and nothing is recorded.
    await form.getByLabel('Rationale').fill('Thin evidence on succession.');
    await confirmReading(committee);
    await confirmDecision(committee, '—');
    await expect(form.getByTestId('outcome-error')).toHaveText('Choose a decision.');
    await expect(committee.getByTestId('decision')).toHaveCount(0);
    await form.getByTestId('outcome-return').check();
    await expect(form.getByLabel('Rationale for “Return to RM”')).toHaveValue('Thin evidence on succession.');
    await form.getByTestId('outcome-decline').check();
    await expect(form.getByLabel('Rationale for “Decline”')).toBeVisible();
    await committee.context().close();
  });

  test('the member must confirm reading the report and its failed checks', async ({ browser }) => {
    const committee = await newSignedInPage(browser, 'committee');
    await committee.goto(caseA);
    const form = committee.getByTestId('decision-form');
    await form.getByTestId('outcome-decline').check();
    await form.getByLabel('Rationale').fill('Governance risk outweighs the collateral.');
    await confirmDecision(committee, 'Decline');
    await expect(form.getByText('Confirm that you have read the report.')).toBeVisible();
    await expect(committee.getByTestId('decision')).toHaveCount(0);
    await expect(form).toBeVisible();
    await committee.context().close();
  });

  test('an overridden AI output is recorded with its reason, shown with the decision and exported', async ({ browser }) => {
    const committee = await newSignedInPage(browser, 'committee');
    await committee.goto(caseA);
    const form = committee.getByTestId('decision-form');
    await form.getByTestId('outcome-approve').check();
    await form.getByLabel('Rationale').fill('Repayment capability holds; the aggregator overstates litigation.');
    await confirmReading(committee);
    await form.getByTestId('add-override').click();
    const select = form.getByLabel('Output overridden 1');
    await select.selectOption({ index: 1 });
    const label = (await select.locator('option:checked').textContent())!.trim();
    expect(label).toMatch(/^(Topic \d+: |[A-Z]+\d* · )/);
    await form.getByLabel('Why you overrode it').fill('The litigation was settled in 2024.');
    await confirmDecision(committee, 'Approve');
    const decision = committee.getByTestId('decision');
    await expect(decision.getByTestId('decision-outcome')).toHaveText('Approve');
    await expect(decision.getByTestId('decision-oversight')).toContainText('Decided by Demo Committee Member.');
    await expect(decision.getByTestId('oversight-confirmed')).toContainText('Demo Committee Member confirmed reading the report');
    await expect(decision.getByTestId('oversight-override')).toHaveText(`Demo Committee Member overrode ${label} — The litigation was settled in 2024.`);
    await expect(committee.getByTestId('decision-form')).toHaveCount(0);

    // The export says who decided, what they confirmed and what they overrode.
    const md = await (await committee.request.get(`/api/runs/${runA}/export?format=md&lang=en`)).text();
    expect(md).toContain('AI-assisted');
    expect(md).toContain('Human oversight');
    expect(md).toContain('The litigation was settled in 2024.');
    const json = await (await committee.request.get(`/api/runs/${runA}/export?format=json`)).json();
    expect(json.aiAssisted).toMatchObject({ provider: 'offline', model: null, decidedBy: ['Demo Committee Member'] });
    expect(json.humanOversight.votes[0]).toMatchObject({
      member: 'Demo Committee Member',
      outcome: 'approve',
      overrides: [{ label, reason: 'The litigation was settled in 2024.' }],
    });
    await committee.context().close();
  });

  test('on a sole proprietor two members must agree: the first vote is not final, the second agreeing vote is', async ({ browser }) => {
    test.setTimeout(90_000);
    const admin = await newSignedInPage(browser, 'admin');
    const memberName = `Second Member ${tag}`;
    memberEmail = await createUser(admin, { role: 'committee', name: memberName, password: memberPassword, prefix: 'oversight' });
    // The admin's quorum is 1 (the default): saving it as it is changes nothing for the other specs, and is audited.
    await admin.goto('/admin/settings');
    const quorumForm = admin.getByTestId('quorum-form');
    await expect(quorumForm.getByLabel('Committee members who must agree before a decision is final')).toHaveValue('1');
    // With this second member, a sole proprietor's two votes can be had: the page warns of no case it cannot decide.
    await expect(admin.getByTestId('quorum-shortfall')).toHaveCount(0);
    await quorumForm.getByRole('button', { name: 'Save' }).click();
    await expect(quorumForm.getByRole('status')).toHaveText('Saved.');

    const committee = await newSignedInPage(browser, 'committee');
    await committee.goto('/review');
    await expect(committee.getByTestId('waiting-row').filter({ hasText: titleB }).getByTestId('queue-sole-proprietor')).toHaveText('Sole proprietor');
    await committee.goto(caseB);
    await expect(committee.getByTestId('sole-proprietor-warning')).toBeVisible();
    const votes = committee.getByTestId('round-votes');
    await expect(votes).toContainText('2 committee members must agree before the decision is final.');
    await expect(votes.getByTestId('votes-still-needed')).toHaveText('2 more agreeing votes are needed.');
    const form = committee.getByTestId('decision-form');
    await form.getByTestId('outcome-approve').check();
    await form.getByLabel('Rationale').fill('Sound business; the owner is not assessed.');
    await confirmReading(committee);
    await form.getByTestId('record-decision').click();
    await expect(committee.getByRole('dialog', { name: 'Record your vote?' })).toBeVisible();
    await committee.getByTestId('record-decision-confirm').click();
    // Recorded, not final: the vote is listed, one more is needed, and the form stays to change it.
    await expect(votes.getByTestId('round-vote')).toHaveText(['Demo Committee Member: Approve']);
    await expect(votes.getByTestId('votes-still-needed')).toHaveText('One more agreeing vote is needed.');
    await expect(votes.getByTestId('my-vote')).toContainText('You voted “Approve”');
    await expect(committee.getByTestId('decision')).toHaveCount(0);
    await expect(committee.getByTestId('decision-form')).toBeVisible();

    const second = await (await browser.newContext()).newPage();
    await signIn(second, memberEmail, memberPassword);
    await expect(second.getByTestId('home-committee')).toBeVisible();
    await second.goto(caseB);
    await expect(second.getByTestId('round-vote')).toHaveText(['Demo Committee Member: Approve']);
    const form2 = second.getByTestId('decision-form');
    await form2.getByTestId('outcome-approve').check();
    await form2.getByLabel('Rationale').fill('Agreed: the business case holds.');
    await confirmReading(second);
    await confirmDecision(second, 'Approve');
    const decision = second.getByTestId('decision');
    await expect(decision.getByTestId('decision-outcome')).toHaveText('Approve');
    await expect(decision.getByTestId('decision-oversight')).toContainText(`Decided by Demo Committee Member, ${memberName}.`);
    await expect(second.getByTestId('decision-form')).toHaveCount(0);

    // Each vote is audited.
    const caseId = new URL(caseB).pathname.split('/').pop()!;
    await admin.goto('/admin/audit?action=case.vote');
    await expect(admin.getByTestId('audit-row').filter({ hasText: caseId })).toHaveCount(2);
    await admin.goto('/admin/audit?action=settings.update');
    await expect(admin.getByTestId('audit-row').filter({ hasText: 'committee.quorum' }).first()).toBeVisible();
    await Promise.all([admin, committee, second].map((p) => p.context().close()));
  });

  test.afterAll(async ({ browser }) => {
    // The demo borrower goes back to how the other specs know it.
    const rm = await newSignedInPage(browser, 'rm');
    await rm.goto(`/companies/${SOLE}`);
    const toggle = rm.getByTestId('sole-proprietor-toggle');
    if ((await toggle.textContent()) === 'Clear the sole-proprietor mark') {
      await toggle.click();
      await expect(rm.getByTestId('sole-proprietor-state')).toHaveText('Not marked as a sole proprietor (an individual in business).');
    }
    await rm.context().close();
  });
});
