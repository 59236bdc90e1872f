// The examiner's case file (docs/case-file.md), end to end: an RM analyses a case and submits it,
// a committee member decides it and downloads its case file from the case page; the file holds
// under verify-case-file's checks, the keyed ones included, and fails, naming the place, once one
// character of a model answer, one audit entry or one cited text is changed. The RM has no such
// button and the route refuses them; the download is in the audit log.
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { verifyCaseFile } from '../lib/report/case-file-verify';
import { auditKeyFromSecret } from '../lib/util/case-file-digest';
import { acknowledgeFailedChecks, auditEntry, createCase, runOffline, signInAs } from './fixtures';

type Files = Record<string, Uint8Array>;
const readJson = <T>(files: Files, path: string) => JSON.parse(strFromU8(files[path])) as T;
const edit = (zip: Uint8Array, change: (files: Files) => void) => {
  const files = unzipSync(zip);
  change(files);
  return zipSync(files);
};

async function submit(page: Page, caseUrl: string) {
  await page.goto(caseUrl);
  await acknowledgeFailedChecks(page);
  await page.getByTestId('submit-case').click();
  await page.getByTestId('submit-case-confirm').click();
  await expect(page.getByText('This case is with the credit committee; runs can no longer be started.')).toBeVisible();
}

test('a decided case exports a case file that verifies, and each tampering is named', async ({ browser }) => {
  test.setTimeout(180_000);
  const key = auditKeyFromSecret(process.env.E2E_AUDIT_SECRET!);
  const rmContext = await browser.newContext();
  const rm = await rmContext.newPage();
  await signInAs(rm, 'rm');
  const caseUrl = await createCase(rm, 'samsung-electronics', `Case file ${Date.now().toString(36)}`);
  const caseId = new URL(caseUrl).pathname.split('/').pop()!;
  await runOffline(rm, caseUrl, 'nas');
  await submit(rm, caseUrl);

  const committeeContext = await browser.newContext({ acceptDownloads: true });
  const committee = await committeeContext.newPage();
  await signInAs(committee, 'committee');
  await committee.goto(caseUrl);
  const decision = committee.getByTestId('decision-form');
  await decision.getByTestId('outcome-approve').check();
  await decision.getByLabel('Rationale').fill('Cash flows cover the line twice over.');
  // Where the decision form asks the member to confirm reading the report and its failed checks (docs/oversight.md).
  for (const confirm of ['confirm-read-report', 'confirm-read-checks'])
    if (await decision.getByTestId(confirm).count()) await decision.getByTestId(confirm).check();
  await decision.getByTestId('record-decision').click();
  await committee.getByTestId('record-decision-confirm').click();
  await expect(committee.getByTestId('decision').getByTestId('decision-outcome')).toHaveText('Approve');

  const downloading = committee.waitForEvent('download');
  await committee.getByTestId('download-case-file').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(new RegExp(`^crosscheck-case-${caseId.slice(0, 8)}-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
  const zip = new Uint8Array(fs.readFileSync(await download.path()));

  // As exported: it holds, with the keyed checks too.
  const verdict = verifyCaseFile(zip, { key });
  expect(verdict.failure).toBeUndefined();
  expect(verdict.ok).toBe(true);
  expect(verdict.checks.join('\n')).toContain('recomputed with the audit key');
  const files = unzipSync(zip);
  const manifest = readJson<{ caseId: string; statement: { text: string }; runs: { calls: number }[] }>(files, 'manifest.json');
  expect(manifest.caseId).toBe(caseId);
  expect(manifest.statement.text).toMatch(/AI-assisted.*approve by Demo Committee Member/);
  expect(manifest.runs).toHaveLength(1);
  expect(manifest.runs[0].calls).toBeGreaterThan(0);

  // (a) One character of a stored model answer.
  const calls = readJson<{ stepId: string; part: string | null; callNo: number; answer: { file: string } }[]>(files, 'runs/01/calls.json');
  const call = calls[0];
  const answered = edit(zip, (f) => {
    const path = `runs/01/${call.answer.file}`;
    const text = strFromU8(f[path]);
    f[path] = strToU8(`${text.slice(0, 10)}${text[10] === 'x' ? 'y' : 'x'}${text.slice(11)}`);
  });
  expect(verifyCaseFile(answered, { key }).failure).toBe(
    `run 1 step ${call.stepId}${call.part ? ` section ${call.part}` : ''} call ${call.callNo}: the answer does not match its recorded sha256`,
  );

  // (b) An audit entry removed from the file.
  const seqs = readJson<{ entries: { seq: number }[] }>(files, 'audit.json').entries.map((e) => e.seq);
  expect(seqs.length).toBeGreaterThanOrEqual(3);
  const removed = edit(zip, (f) => {
    const audit = readJson<{ entries: { seq: number }[] }>(f, 'audit.json');
    f['audit.json'] = strToU8(JSON.stringify({ ...audit, entries: audit.entries.filter((e) => e.seq !== seqs[1]) }));
  });
  expect(verifyCaseFile(removed, { key }).failure).toBe(`audit entry #${seqs[1]} is missing between #${seqs[0]} and #${seqs[2]}`);

  // (c) A cited snapshot's text.
  const cited = readJson<{ items: { id: string; text: string }[] }>(files, 'runs/01/cited-evidence.json');
  expect(cited.items.length).toBeGreaterThan(0);
  const changed = edit(zip, (f) => {
    const c = readJson<{ items: { id: string; text: string }[] }>(f, 'runs/01/cited-evidence.json');
    c.items[0].text = `${c.items[0].text}.`;
    f['runs/01/cited-evidence.json'] = strToU8(JSON.stringify(c));
  });
  expect(verifyCaseFile(changed, { key }).failure).toBe(`evidence snapshot ${cited.items[0].id} (run 1): text does not match its fingerprint`);

  // The RM has no button and the route refuses them; the administrator sees the download in the audit log.
  await rm.goto(caseUrl);
  await expect(rm.getByTestId('download-case-file')).toHaveCount(0);
  expect((await rm.request.get(`/api/cases/${caseId}/file`)).status()).toBe(403);
  const admin = await (await browser.newContext()).newPage();
  await signInAs(admin, 'admin');
  const { row } = await auditEntry(admin, 'case.file_export', caseId, 'Case file exported');
  // An admin opens no case page: the audit row of a case gives its file, which verifies too.
  const adminDownloading = admin.waitForEvent('download');
  await row.getByTestId('audit-case-file').click();
  const adminZip = new Uint8Array(fs.readFileSync(await (await adminDownloading).path()));
  const adminVerdict = verifyCaseFile(adminZip, { key });
  expect([adminVerdict.ok, adminVerdict.failure]).toEqual([true, undefined]);
  expect(readJson<{ caseId: string }>(unzipSync(adminZip), 'manifest.json').caseId).toBe(caseId);
  await Promise.all([rmContext.close(), committeeContext.close(), admin.context().close()]);
});
