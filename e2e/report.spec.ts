// The run report page and its three exports, on the finished demo run (lib/demo/seed.ts:
// KPD-MADS by the offline analyst on Samsung Electronics, as of 2025-06-30, case submitted).
import fs from 'node:fs/promises';
import { expect, request, test, type Page } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { DEMO_IDS } from '../lib/domain/demo-ids';
import { DEMO_PASSWORD, DEMO_USERS, signInAs } from './fixtures';

const RUN = DEMO_IDS.run;
const REPORT = `/runs/${RUN}/report`;
const EXPORT = `/api/runs/${RUN}/export`;

async function download(page: Page, format: 'pdf' | 'md' | 'json') {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(`download-${format}`).click()]);
  return { name: file.suggestedFilename(), bytes: await fs.readFile((await file.path())!) };
}

test.describe('run report', () => {
  test('the RM reads the report of a finished run: header, sections with citations, checks and the transcript', async ({ page }) => {
    await signInAs(page, 'rm');
    await page.goto(REPORT);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Crosscheck report — Samsung Electronics Co., Ltd.');
    const header = page.getByTestId('report-header');
    await expect(header).toContainText('KPD-MADS');
    await expect(header).toContainText('Built-in offline analyst (deterministic rules, not an LLM)');
    await expect(header).toContainText('2025-06-30');
    await expect(header).toContainText('Finished');
    await expect(page.getByTestId('report-metrics')).toContainText('REI');

    await expect(page.getByTestId('report-section-objective')).toContainText('2025-06-30 기준 비재무 근거로 삼성전자의 대출 상환 능력을 평가한다.');
    await expect(page.getByTestId('report-section-overview')).toContainText('삼성전자');
    await expect(page.getByTestId('report-section-favorable').getByRole('heading', { level: 3 }).first()).toBeVisible();
    // The summaries index each side's items, each with its date and a link to the topic that argues
    // it (lib/report/summaries.ts), rather than restating the topics' readings.
    const adverse = page.getByTestId('report-section-adverse');
    await expect(adverse.getByRole('listitem').first()).toContainText('2022-08-16');
    const pointer = adverse.getByTestId('topic-link').first();
    await expect(pointer).toHaveAttribute('href', /^#topic-\d+$/);
    await expect(page.locator(`[id="${(await pointer.getAttribute('href'))!.slice(1)}"]`)).toBeVisible();
    const topics = page.getByTestId('report-section-topics');
    await expect(topics.getByText('Affirmative reading').first()).toBeVisible();
    await expect(topics.getByTestId('citations').first().getByRole('link').first()).toHaveAttribute('href', /^https?:\/\//);

    // Eight final checks: red flags addressed (the demo pool's four sanctions, each cited adversely
    // first), then the five before and after-as-of (no citation dated after the as-of date supports a
    // claim), and last reading consistency (no claim reads against the tagged reading of what it cites).
    await expect(
      page
        .getByTestId('report-checks')
        .getByRole('listitem')
        .filter({ hasText: /passed|flagged/ }),
    ).toHaveCount(8);
    await expect(page.getByTestId('check-reading-consistency')).toContainText('Every claim reads with the tagged reading of the evidence it cites');
    const turns = page.locator('[data-testid^="transcript-turn-"]');
    await expect(turns).toHaveCount(11);
    await expect(turns.first()).toHaveAttribute('data-testid', 'transcript-turn-D1');
    await expect(turns.last()).toHaveAttribute('data-testid', 'transcript-turn-AG');
    await expect(page.getByTestId('transcript-turn-D1')).toContainText('핵심 주장');
    // A question names the claim it aims at in words, not by its id (lib/report/model.ts).
    await expect(page.getByTestId('transcript-turn-D2').getByText(/^질문 1 → 찬성 측 .+의 주장 \d+: /)).toBeVisible();
    await expect(page.getByTestId('transcript-turn-D2')).not.toContainText('D2-q1');

    // A turn the prose names links to that turn in the run page's transcript (lib/report/turn-names.ts).
    const turnLink = topics.getByTestId('turn-link').first();
    await expect(turnLink).toHaveAttribute('href', new RegExp(`^/runs/${RUN}#(turn|claim|question)-`));
    const anchor = (await turnLink.getAttribute('href'))!.split('#')[1];
    await turnLink.click();
    await expect(page).toHaveURL(new RegExp(`/runs/${RUN}#${anchor}$`));
    await expect(page.locator(`[id="${anchor}"]`)).toBeVisible();
  });

  test('red flags head the run page and the report, before anything else, and the Markdown export', async ({ page }) => {
    // The demo run found the four regulatory sanctions of the Samsung pool before its debate (runs.red_flags).
    const kinds = ['regulatory_sanction', 'regulatory_sanction', 'regulatory_sanction', 'regulatory_sanction'];
    await signInAs(page, 'rm');
    await page.goto(`/runs/${RUN}`);
    const onRun = page.getByTestId('red-flags');
    await expect(onRun.getByRole('heading', { level: 2 })).toHaveAccessibleName('Red flags (4)');
    await expect(onRun.getByTestId('red-flag')).toHaveCount(4);
    expect(await onRun.getByTestId('red-flag').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')))).toEqual(kinds);
    // Newest first: the Fair Trade Commission's fine over the Samsung Welstory catering deals.
    await expect(onRun.getByTestId('red-flag').first()).toHaveAttribute('data-evidence-id', 'samsung-electronics-022');
    await expect(onRun.getByTestId('red-flag-kind').first()).toHaveText('Sanction or fine imposed');
    await expect(onRun.getByTestId('red-flag-date').first()).toHaveText('2021-08-27');
    await expect(onRun.getByTestId('red-flag-title').first()).toContainText('공정위 과징금 1,012억 17백만원');
    const beforeTranscript = await page.evaluate(() => {
      const flags = document.querySelector('[data-testid="red-flags"]');
      const transcript = document.querySelector('[data-testid="transcript"]');
      return Boolean(flags && transcript && flags.compareDocumentPosition(transcript) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    expect(beforeTranscript).toBe(true);

    await page.goto(REPORT);
    const onReport = page.getByTestId('red-flags');
    await expect(onReport.getByRole('heading', { level: 2 })).toHaveAccessibleName('Red flags (4)');
    expect(await onReport.getByTestId('red-flag').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')))).toEqual(kinds);
    await expect(onReport.getByTestId('red-flag').first().getByRole('link')).toHaveAttribute('href', /^https:\/\/dart\.fss\.or\.kr\//);
    const beforeHeader = await page.evaluate(() => {
      const flags = document.querySelector('[data-testid="red-flags"]');
      const header = document.querySelector('[data-testid="report-header"]');
      return Boolean(flags && header && flags.compareDocumentPosition(header) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    expect(beforeHeader).toBe(true);

    // The Markdown export, in the run's language: the flags right under the title, ahead of the header table.
    const md = (await download(page, 'md')).bytes.toString('utf8');
    const flagsAt = md.indexOf('## ⚠ 위험 신호 (4)');
    expect(flagsAt).toBeGreaterThan(0);
    expect(flagsAt).toBeLessThan(md.indexOf('| 차주 |'));
    expect(md).toContain('- **제재·벌금 부과** — 2021-08-27 — 공정위 과징금 1,012억 17백만원');
  });

  test('the demo run passes every final check: no failed-check notice on the run page, the report or the exports', async ({ page }) => {
    // Its debaters are not shown stale items that newer evidence supersedes (lib/debate/evidence-scope.ts);
    // how a failed check heads the page and the exports: lib/report/failed-checks.test.ts.
    await signInAs(page, 'rm');
    await page.goto(`/runs/${RUN}`);
    await expect(page.getByTestId('run-status')).toBeVisible();
    await expect(page.getByTestId('failed-checks')).toHaveCount(0);
    await page.goto(REPORT);
    await expect(page.getByTestId('report-header')).toBeVisible();
    await expect(page.getByTestId('failed-checks')).toHaveCount(0);
    const md = (await download(page, 'md')).bytes.toString('utf8');
    expect(md).not.toContain('## ⚠ 최종 점검 실패');
    const json = JSON.parse((await download(page, 'json')).bytes.toString('utf8'));
    expect(json.failedChecks ?? []).toEqual([]);
  });

  test('PDF, Markdown and JSON download through the buttons', async ({ page }) => {
    await signInAs(page, 'rm');
    await page.goto(REPORT);

    const pdf = await download(page, 'pdf');
    expect(pdf.name).toBe('crosscheck-삼성전자-kpd-mads-2025-06-30.pdf');
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const parsed = await PDFDocument.load(pdf.bytes);
    expect(parsed.getTitle()).toBe('Crosscheck 보고서 — 삼성전자');
    expect(parsed.getPageCount()).toBeGreaterThanOrEqual(2);

    const md = await download(page, 'md');
    expect(md.name).toBe('crosscheck-삼성전자-kpd-mads-2025-06-30.md');
    const text = md.bytes.toString('utf8');
    expect(text.startsWith('# Crosscheck 보고서 — 삼성전자\n')).toBe(true);
    expect(text).toContain('## 부록: 전체 발언록');

    const json = await download(page, 'json');
    const doc = JSON.parse(json.bytes.toString('utf8'));
    expect(doc).toMatchObject({
      schemaVersion: 1,
      id: RUN,
      protocol: 'kpd-mads',
      status: 'succeeded',
      company: { id: 'samsung-electronics', name: '삼성전자' },
    });
    expect(doc.turns.map((t: { step: string }) => t.step)).toEqual(['D1', 'D2', 'D3', 'D4', 'D5', 'D6', 'D7', 'D8', 'D9', 'D10', 'AG']);
    expect(doc.report.content.topics.length).toBeGreaterThan(0);
  });

  test('the committee reads the submitted case’s report and exports it', async ({ page }) => {
    await signInAs(page, 'committee');
    await page.goto(REPORT);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Crosscheck report — Samsung Electronics Co., Ltd.');
    const response = await page.request.get(`${EXPORT}?format=md`);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('text/markdown; charset=utf-8');
  });

  test('export route: bad format 400, unknown run 404, evaluator and admin 403, anonymous 401', async ({ page, baseURL }) => {
    await signInAs(page, 'rm');
    const bad = await page.request.get(`${EXPORT}?format=html`);
    expect(bad.status()).toBe(400);
    expect((await bad.json()).message).toContain('pdf, md or json');
    expect((await page.request.get(`${EXPORT}`)).status()).toBe(400);
    expect((await page.request.get(`/api/runs/00000000-0000-4000-8000-000000000000/export?format=json`)).status()).toBe(404);
    const pdf = await page.request.get(`${EXPORT}?format=pdf`);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect(pdf.headers()['content-disposition']).toBe(
      `attachment; filename="crosscheck-samsung-electronics-kpd-mads-2025-06-30.pdf"; filename*=UTF-8''crosscheck-${encodeURIComponent('삼성전자')}-kpd-mads-2025-06-30.pdf`,
    );

    for (const role of ['evaluator', 'admin'] as const) {
      const context = await request.newContext({ baseURL });
      const { csrfToken } = (await (await context.get('/api/auth/csrf')).json()) as { csrfToken: string };
      await context.post('/api/auth/callback/credentials', { form: { email: DEMO_USERS[role].email, password: DEMO_PASSWORD, csrfToken, callbackUrl: '/' } });
      expect((await context.get(`${EXPORT}?format=json`)).status(), role).toBe(403);
      expect((await context.get(REPORT, { maxRedirects: 0 })).status(), role).toBe(403);
      await context.dispose();
    }
    const anonymous = await request.newContext({ baseURL });
    expect((await anonymous.get(`${EXPORT}?format=json`)).status()).toBe(401);
    await anonymous.dispose();
  });
});
