// The interface language: after the header switch to 한국어, every page a role reaches says
// lang="ko", has a Korean heading and no English chrome; switching back brings English back.
import { expect, test, type Page } from '@playwright/test';
import { NAV } from '../lib/auth/permissions';
import { ROLES, type Role } from '../lib/domain/vocabulary';
import { DEMO_IDS } from '../lib/domain/demo-ids';
import { DEMO_USERS, signInAs } from './fixtures';

const HANGUL = /[\uac00-\ud7a3]/;

// Where the interface speaks (not the borrower's data): the header, headings, table heads, form
// labels, buttons, captions, term names and alerts.
const CHROME = 'header, h1, h2, h3, th, label, button, summary, caption, dt, [role=alert], [role=status]';

/** English labels of the interface that must not survive the switch (whole words, case-sensitive). */
const ENGLISH = [
  'Sign out',
  'Skip to content',
  'Cases',
  'Companies',
  'Review',
  'My ratings',
  'Users',
  'Settings',
  'Studies',
  'Relationship manager',
  'Credit committee',
  'Evaluator',
  'Administrator',
  'Demo account',
  'Welcome',
  'Your cases',
  'Borrower',
  'Loan request',
  'As of',
  'Status',
  'Runs',
  'Updated',
  'Company',
  'Country',
  'Industry',
  'Evidence',
  'Factors covered',
  'Documents',
  'Latest evidence',
  'Import evidence',
  'Filter',
  'Search',
  'Profile',
  'Add evidence',
  'Evidence by factor',
  'Create a user',
  'Create user',
  'Change role',
  'Reset password',
  'Disable account',
  'Database',
  'Models',
  'Provider',
  'New case',
  'Case title',
  'Submitted',
  'Waiting for a decision',
  'Decided',
  'Report',
  'Untagged',
  'favorable',
  'adverse',
  'constructive',
  'rebuttal',
  'closing',
  'aggregator',
];

/** A message key or a recorded code shown as it is (`study.open`, `role_rm`), not in words. */
const RAW_KEY = /^[a-z][a-z0-9]*(?:[._][a-z0-9-]+)+$/;

const englishPattern = new RegExp(`\\b(${ENGLISH.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\b`);

/** The interface's texts, without the signed-in user's name (data: "Demo Evaluator" is a name, not a label). */
async function chromeTexts(page: Page, role: Role) {
  const texts = await page.locator(CHROME).evaluateAll((els) => els.map((el) => (el.textContent ?? '').replace(/\s+/g, ' ').trim()));
  return texts.map((text) => text.replaceAll(DEMO_USERS[role].name, '')).filter(Boolean);
}

async function switchTo(page: Page, locale: 'ko' | 'en') {
  await page.getByTestId('language-switch').selectOption(locale);
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
}

/** Pages each role reaches: its navigation, plus the demo case, run and report for those who read them. */
function pagesOf(role: Role) {
  const submitted = [`/cases/${DEMO_IDS.submittedCase}`, `/runs/${DEMO_IDS.run}`, `/runs/${DEMO_IDS.run}/report`];
  const extra = role === 'rm' ? ['/cases/new', '/import', '/companies/samsung-electronics', ...submitted] : role === 'committee' ? submitted : [];
  return ['/', ...NAV[role].map((item) => item.href), ...extra];
}

// A case's h1 is its title as the RM typed it; there a section heading must be Korean instead.
const CONTENT_TITLED = [/^\/cases\/[0-9a-f-]{36}$/];

for (const role of ROLES) {
  test(`${role}: every reachable page in Korean, then back in English`, async ({ page }) => {
    test.setTimeout(90_000);
    await signInAs(page, role);
    await switchTo(page, 'ko');
    await expect(page.getByTestId('sign-out')).toHaveText('로그아웃');

    for (const href of pagesOf(role)) {
      await page.goto(href);
      await expect(page.locator('html'), href).toHaveAttribute('lang', 'ko');
      const h1 = page.getByRole('heading', { level: 1 });
      await expect(h1, href).toBeVisible();
      if (CONTENT_TITLED.some((p) => p.test(href))) {
        await expect(page.getByRole('heading', { level: 2 }).first(), href).toHaveText(HANGUL);
      } else {
        await expect(h1, href).toHaveText(HANGUL);
      }
      const leftovers = (await chromeTexts(page, role)).filter((text) => englishPattern.test(text));
      expect(leftovers, `English interface text on ${href}`).toEqual([]);
      // The choices of every list box too (the audit log's filters named actions by their keys).
      const options = await page.locator('option').allTextContents();
      // (Options name companies and people too, so only keys are looked for there.)
      const raw = [...(await chromeTexts(page, role)), ...options].map((t) => t.trim()).filter((t) => RAW_KEY.test(t));
      expect(raw, `raw keys on ${href}`).toEqual([]);
    }

    await page.goto(NAV[role][0].href);
    await switchTo(page, 'en');
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(HANGUL);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(NAV[role][0].label);
    await expect(page.getByTestId('main-nav').getByRole('link')).toHaveText(NAV[role].map((item) => item.label));
    // The same check finds English here, so its silence in Korean means something.
    expect((await chromeTexts(page, role)).filter((text) => englishPattern.test(text)).length).toBeGreaterThan(0);
  });
}

test('the sign-in page has its own switch, and a wrong password is reported in Korean', async ({ page }) => {
  await page.goto('/login');
  await switchTo(page, 'ko');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('로그인');
  await page.getByLabel('이메일').fill('rm@example.com');
  await page.getByLabel('비밀번호').fill('not-the-password');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-error')).toHaveText(
    '이메일 또는 비밀번호가 올바르지 않거나, 5회 실패로 계정이 잠겼습니다. 2분 후에 다시 시도하거나 관리자에게 잠금 해제를 요청하세요.',
  );
});

test('a rejected form shows its field errors in Korean', async ({ page }) => {
  await signInAs(page, 'rm');
  await switchTo(page, 'ko');
  await page.goto('/companies/tesla');
  await page.getByText('근거 자료 추가', { exact: true }).first().click();
  const form = page.getByTestId('add-evidence-form');
  await form.getByLabel('공표일').fill('2099-01-01');
  await form.getByRole('button', { name: '근거 자료 추가' }).click();
  await expect(form.getByRole('alert').first()).toHaveText('표시된 항목을 확인하세요.');
  // The date the server refused is kept inside the translated sentence.
  await expect(form).toContainText('2099-01-01은(는) 미래 날짜입니다.');
  await expect(form).toContainText('누락: 짧은 제목');
});

test('an import in Korean: the rejected row and the count of what went in, in Korean', async ({ page }) => {
  const tag = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const csv = [
    'company_id,category,title,text,published_date,source_name,source_url',
    `tesla,news,Recall ${tag},NHTSA recall,2024-03-01,NHTSA,https://example.org/ko-recall/${tag}`,
    `tesla,news,Undated ${tag},No date,,NHTSA,https://example.org/ko-undated/${tag}`,
  ].join('\n');
  await signInAs(page, 'rm');
  await switchTo(page, 'ko');
  await page.goto('/import');
  await page.getByTestId('import-file').setInputFiles({ name: 'tesla.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByTestId('import-submit').click();
  const report = page.getByTestId('import-report');
  await expect(report.getByTestId('rejected-row').getByRole('cell').nth(3)).toHaveText('누락: 모든 자료에는 공표일이 있어야 합니다');
  await page.getByTestId('import-valid-only').click();
  await expect(report.getByRole('status')).toHaveText(
    '기업 0곳, 근거 자료 1건, 문서 0건(본문 단락 0개)을 가져왔습니다. 중복 0건은 건너뛰었습니다. 오류가 있는 1행은 제외했습니다.',
  );
});

test('Korean text comes in our own Hangul web font, so a machine without CJK fonts shows no boxes', async ({ page }) => {
  const fetched: string[] = [];
  page.on('response', (r) => {
    if (/pretendard-hangul[^/]*\.woff2/.test(r.url()) && r.ok()) fetched.push(r.url());
  });
  await signInAs(page, 'rm');
  await switchTo(page, 'ko');
  await page.goto('/cases');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(HANGUL);
  // The faces the page uses are the ones it loaded: the regular one for body text, the bold one for the heading.
  await expect
    .poll(() =>
      page.evaluate(async () => {
        await document.fonts.ready;
        return [...document.fonts].filter((f) => f.family.replace(/"/g, '') === 'Pretendard Hangul' && f.status === 'loaded').map((f) => f.weight);
      }),
    )
    .toEqual(expect.arrayContaining(['400', '700']));
  expect(fetched.length).toBeGreaterThan(0);
  // The heading is set in it: the first family of the stack with Hangul glyphs.
  const family = await page.getByRole('heading', { level: 1 }).evaluate((h) => getComputedStyle(h).fontFamily);
  expect(family.split(',').map((f) => f.trim().replace(/['"]/g, ''))).toEqual(expect.arrayContaining(['Inter Variable', 'Pretendard Hangul']));
});
