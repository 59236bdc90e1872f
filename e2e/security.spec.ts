// Security properties of the production build (issue 7, item 6): security headers and CSP on
// every kind of response, no server secret in the client bundles, markup in evidence and in model
// output rendered inert, server actions refusing a foreign Origin, and password guessing locked
// out even when the guesses skip the form and arrive in parallel. (The access matrix is
// e2e/access.spec.ts; the lockout through the sign-in form is e2e/auth.spec.ts.)
import fs from 'node:fs';
import path from 'node:path';
import { expect, request as apiRequest, test, type Page } from '@playwright/test';
import { serverActionsOf } from '../lib/auth/endpoints';
import { ACTIONS, can } from '../lib/auth/permissions';
import { DEMO_IDS } from '../lib/domain/demo-ids';
import { addEvidence, signInAs, startRunOn, uniqueEmail } from './fixtures';

const EXPECTED_HEADERS: Record<string, string | RegExp> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'permissions-policy': /camera=\(\).*microphone=\(\).*geolocation=\(\)/,
  'content-security-policy': /script-src 'self' 'unsafe-inline'(;|$)/,
};

const CSP_DIRECTIVES = [
  "default-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
];

function expectSecurityHeaders(headers: Record<string, string>, label: string) {
  for (const [name, value] of Object.entries(EXPECTED_HEADERS)) {
    expect(headers[name], `${name} on ${label}`).toBeDefined();
    if (typeof value === 'string') expect(headers[name], `${name} on ${label}`).toBe(value);
    else expect(headers[name], `${name} on ${label}`).toMatch(value);
  }
  const csp = headers['content-security-policy'].split(';').map((d) => d.trim());
  for (const directive of CSP_DIRECTIVES) expect(csp, `CSP on ${label}`).toContain(directive);
  // Production never allows eval.
  expect(headers['content-security-policy'], `CSP on ${label}`).not.toContain('unsafe-eval');
}

/** Collects CSP violations the page reports, from the DOM event and from the console. */
function watchCsp(page: Page) {
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  page.on('pageerror', (err) => {
    if (/Content Security Policy/i.test(err.message)) violations.push(err.message);
  });
  return violations;
}

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** No markup of the probes became an element, and none of their handlers ran. */
async function expectInert(page: Page, label: string) {
  expect(await page.locator('main script, main img[src="x"], main svg[onload], main [onerror], main a[href^="javascript:"]').count(), label).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss), label).toBeUndefined();
}

test.describe('security', () => {
  test('headers and CSP on a page, an API route and the login page', async ({ request, page }) => {
    const login = await request.get('/login');
    expect(login.status()).toBe(200);
    expectSecurityHeaders(login.headers(), '/login');

    const health = await request.get('/api/health');
    expect(health.status()).toBe(200);
    expectSecurityHeaders(health.headers(), '/api/health');

    await signInAs(page, 'rm');
    const cases = await page.request.get('/cases');
    expect(cases.status()).toBe(200);
    expectSecurityHeaders(cases.headers(), '/cases');
    const me = await page.request.get('/api/me');
    expect(me.status()).toBe(200);
    expectSecurityHeaders(me.headers(), '/api/me');
  });

  test('no server secret name or value in the client bundles', () => {
    // The names come from the one module that reads the environment, so a new secret is covered.
    const envSource = fs.readFileSync(path.join(process.cwd(), 'lib', 'env.ts'), 'utf8');
    const names = [...envSource.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)]
      .map((m) => m[1])
      .filter((n) => /(SECRET|API_KEY|TOKEN|PASSWORD)$|^DATABASE_URL$/.test(n))
      // The demo password is public by design (the login page prints its default).
      .filter((n) => n !== 'DEMO_PASSWORD');
    expect(names).toEqual(expect.arrayContaining(['AUTH_SECRET', 'OPENAI_API_KEY', 'OPENDART_API_KEY', 'DATABASE_URL', 'AUTH_OIDC_CLIENT_SECRET']));

    // Values: the fake model key scripts/e2e-server.mjs hands the server, and whatever secrets the
    // build's own environment held (next build inlines only NEXT_PUBLIC_*, so none may appear).
    const values = ['fake-key-for-tests', ...names.map((n) => process.env[n]).filter((v): v is string => Boolean(v && v.length >= 8))];

    const root = path.join(process.cwd(), '.next', 'static');
    const files = fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    expect(files.length, 'files under .next/static (run after next build)').toBeGreaterThan(10);
    // A name in code, not in prose: `env().AUTH_SECRET`, `process.env.X`, an object key
    // (`{AUTH_SECRET:` — what lib/env.ts's schema turns into if it is ever bundled for the
    // browser) or a whole string literal (`process.env["X"]`). UI messages may tell an admin
    // which variable to set ("set OPENDART_API_KEY.", "AUTH_SECRET 사용"), and that is no leak.
    const asCode = names.map((n) => ({ n, re: new RegExp(`\\.${n}(?![A-Za-z0-9_])|[{,]${n}:|(["'\`])${n}\\1`) }));
    const found: string[] = [];
    for (const file of files) {
      const full = path.join(file.parentPath, file.name);
      const text = fs.readFileSync(full, 'latin1');
      const where = path.relative(root, full);
      for (const { n, re } of asCode) if (re.test(text)) found.push(`${where}: ${n}`);
      for (const value of values) if (text.includes(value)) found.push(`${where}: <a secret value>`);
    }
    expect(found).toEqual([]);
  });

  test('script in evidence is shown as text and never runs, on the company page and in a run', async ({ page }) => {
    test.setTimeout(90_000);
    const violations = watchCsp(page);
    const tag = unique();
    const title = `XSS probe ${tag} <img src=x onerror="window.__xss=1">`;
    const text = `Payload <script>window.__xss=2</script> and <img src=x onerror="window.__xss=3"> ${tag}`;
    await signInAs(page, 'rm');
    await addEvidence(page, 'wintec-automation', { title, text, url: `https://example.org/probe/${tag}` });

    await page.goto('/companies/wintec-automation');
    const item = page.getByTestId('evidence-item').filter({ hasText: `XSS probe ${tag}` });
    // The markup arrives as literal characters, not as elements.
    await expect(item).toContainText(title);
    await expect(item.locator('img[src="x"], script')).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();

    // A run over that company's evidence, followed live over SSE, then its report.
    await startRunOn(page, 'wintec-automation', `Security probe ${tag}`, { protocol: 'kpd-mads', provider: 'offline' });
    await expect(page.getByTestId('progress-count')).toHaveText('11 of 11 steps', { timeout: 60_000 });
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded');
    expect(await page.locator('main img[src="x"], main script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();

    await page.getByTestId('report-link').click();
    await expect(page).toHaveURL(/\/report$/);
    await page.getByTestId('download-md').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-md').click()]);
    expect(await download.failure()).toBeNull();
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(violations, 'CSP violations in the browser console').toEqual([]);
  });

  test('script in model output is shown as text and never runs, live on the run page and in the report', async ({ page }) => {
    test.setTimeout(120_000);
    const violations = watchCsp(page);
    const tag = unique();
    await signInAs(page, 'rm');
    // The marker in this item makes the fake model answer with e2e/fake-llm-script.json's report,
    // whose every field carries markup: script, img onerror, svg onload, a javascript: link.
    await addEvidence(page, 'wintec-automation', {
      title: `Model probe ${tag}`,
      text: `XSS-MODEL-PROBE ${tag}: a plain item that selects the scripted model answer.`,
      url: `https://example.org/model-probe/${tag}`,
      published: '2025-06-02',
    });
    await startRunOn(page, 'wintec-automation', `Model output probe ${tag}`, { protocol: 'nas', provider: 'openai' });
    // Streamed token by token: half a tag must never become an element either.
    const turn = page.getByTestId('turn-NAS');
    await expect(turn).toHaveAttribute('data-status', 'running', { timeout: 20_000 });
    await expect(turn.getByTestId('turn-text')).toContainText('Model output probe <script>', { timeout: 30_000 });
    await expectInert(page, 'run page while streaming');
    await expect(page.getByTestId('progress-count')).toHaveText('1 of 1 step', { timeout: 60_000 });
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded');
    await expect(turn.getByTestId('turn-text')).toContainText('<img src=x onerror="window.__xss=12"> <svg onload="window.__xss=13"></svg>');
    await expectInert(page, 'run page when done');

    // Reloaded from the database rather than the stream.
    await page.reload();
    await expect(page.getByTestId('turn-NAS').getByTestId('turn-text')).toContainText('Model output probe <script>window.__xss=11</script>');
    await expectInert(page, 'run page after a reload');

    await page.getByTestId('report-link').click();
    await expect(page).toHaveURL(/\/report$/);
    const main = page.locator('main');
    await expect(main).toContainText('Topic probe <script>window.__xss=11</script>');
    await expect(main).toContainText('Certified plant <img src=x onerror="window.__xss=12">');
    await expect(main).toContainText('Margins thin <svg onload="window.__xss=13"></svg>');
    await expectInert(page, 'report page');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-md').click()]);
    expect(await download.failure()).toBeNull();
    await expectInert(page, 'report page after the Markdown export');
    expect(violations, 'CSP violations in the browser console').toEqual([]);
  });

  test('parallel password guesses that skip the form still lock the account', async ({ page, baseURL }) => {
    // A fresh account, so the demo users stay usable for the other tests.
    const email = uniqueEmail('brute');
    const password = 'the-right-password-1';
    await signInAs(page, 'admin');
    await page.goto('/admin/users');
    const form = page.getByTestId('create-user-form');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Name').fill('Brute Force Target');
    await form.getByLabel('Role').selectOption('rm');
    await form.getByLabel('Initial password').fill(password);
    await form.getByRole('button', { name: 'Create user' }).click();
    await expect(form.getByRole('status')).toContainText(`Created ${email}`);

    // Straight at Auth.js's credentials endpoint, twelve at once, each with its own CSRF pair.
    const guess = async (attempt: string) => {
      const context = await apiRequest.newContext({ baseURL, maxRedirects: 0 });
      const { csrfToken } = (await (await context.get('/api/auth/csrf')).json()) as { csrfToken: string };
      await context.post('/api/auth/callback/credentials', { form: { email, password: attempt, csrfToken, callbackUrl: '/' } });
      const signedIn = (await context.get('/api/me')).status() === 200;
      await context.dispose();
      return signedIn;
    };
    // The same request with the right password signs in, so a refusal below is the lock's doing.
    expect(await guess(password), 'the right password before any guess').toBe(true);
    const guesses = await Promise.all(Array.from({ length: 12 }, (_, i) => guess(`wrong-guess-${i}`)));
    expect(guesses).toEqual(Array(12).fill(false));
    // The lock holds against the right password too.
    expect(await guess(password), 'the right password after the burst').toBe(false);
  });

  test('the demo run page and report raise no CSP violation', async ({ page }) => {
    const violations = watchCsp(page);
    await signInAs(page, 'rm');
    await page.goto(`/runs/${DEMO_IDS.run}`);
    await expect(page.getByTestId('progress-count')).toHaveText('11 of 11 steps');
    await page.goto(`/runs/${DEMO_IDS.run}/report`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-pdf').click()]);
    expect(await download.failure()).toBeNull();
    expect(violations, 'CSP violations in the browser console').toEqual([]);
  });

  test('server actions refuse a foreign Origin', async ({ page, baseURL }) => {
    const actions = serverActionsOf(JSON.parse(fs.readFileSync(path.join(process.cwd(), '.next', 'server', 'server-reference-manifest.json'), 'utf8')));
    // An action the RM may call, posted to a page it is bundled with.
    const { id, exportedName, route } = actions.find((a) => {
      const permission = ACTIONS[a.exportedName as keyof typeof ACTIONS];
      return permission !== undefined && can('rm', permission) && a.exportedName !== 'signOutAction';
    })!;
    await signInAs(page, 'rm');
    const post = (origin: string) =>
      page.request.post(route, {
        headers: { 'Next-Action': id, 'Content-Type': 'text/plain;charset=UTF-8', Origin: origin, Accept: 'text/x-component' },
        data: JSON.stringify([{}]),
        maxRedirects: 0,
      });

    // Same origin: the action runs and answers with its own validation error.
    const same = await post(baseURL!);
    expect(await same.text(), `${exportedName} from our origin`).toContain('"code":"bad_request"');

    // Foreign origin: Next refuses before the action runs, so no action result comes back.
    const foreign = await post('https://evil.example');
    expect(foreign.status(), `${exportedName} from https://evil.example`).not.toBe(200);
    expect(await foreign.text()).not.toContain('"code":');
  });

  test('metrics: Prometheus text for an admin, counted from the database; refused without a session or token', async ({ page, request }) => {
    await signInAs(page, 'admin');
    const response = await page.request.get('/api/metrics');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('text/plain; version=0.0.4');
    const text = await response.text();
    const sample = (series: string) => Number(new RegExp(`^${series.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);
    // The demo seed holds one finished KPD-MADS run: eleven steps done.
    expect(sample('crosscheck_runs{state="succeeded"}')).toBeGreaterThanOrEqual(1);
    expect(sample('crosscheck_run_steps{state="done"}')).toBeGreaterThanOrEqual(11);
    expect(sample('crosscheck_tokens_total{kind="prompt"}')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('# TYPE crosscheck_tokens_total counter');

    expect((await request.get('/api/metrics')).status()).toBe(401);
    // No METRICS_TOKEN on the e2e server: no bearer token opens it.
    expect((await request.get('/api/metrics', { headers: { Authorization: 'Bearer not-the-token-not-the-token' } })).status()).toBe(401);
  });
});
