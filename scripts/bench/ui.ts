// The RM's run page in Chromium against `next start` (issue 5, "Performance"), with the fake
// OpenAI-compatible server at the latency model (400 ms to first token, 50 tokens/s) as
// the OpenAI provider, on a fresh embedded database with the demo seed:
//   d1_first_token_ms           click on "Start analysis" (KPD-MADS, OpenAI provider) → first text
//                               of turn D1 in the page. The fake's random schema-valid replies fail
//                               D1's rules later; the first token streams all the same, and each
//                               run is cancelled once measured so runs never pile up.
//   run_page_js_kb_gzip         the JavaScript files the finished demo run's page loads, each
//                               gzipped here with zlib (what `next start`'s compression sends).
//   finished_run_interactive_ms navigation start → React has hydrated the run page (the live run
//                               component's mount effect sets a performance mark), cold cache,
//                               on the seeded finished KPD-MADS run (11 turns, ~30 citations).
import zlib from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { DEMO_IDS } from '@/lib/domain/demo-ids';
import { CHROMIUM_ARGS, findChromium } from '../find-browser.mjs';
import { startFakeLlmProcess, type FakeProcess } from './fake-process';
import { ensureBuild, startNextServer, type NextServer } from './next-server';
import { median, percentile, round } from './stats';
import type { Benchmark } from './types';

const TTFT_MS = 400;
const TOKENS_PER_SECOND = 50;
const RUN_PAGE = `/runs/${DEMO_IDS.run}`;
// Source text, not a function: tsx would wrap a named inner function in a helper the page lacks.
const RECORD_MARKS = `(() => {
  const marks = {};
  window.__marks = marks;
  const tick = () => {
    if (!marks.runPage && location.pathname.startsWith('/runs/')) marks.runPage = Date.now();
    if (!marks.hydrated && document.querySelector('[data-hydrated]')) marks.hydrated = Date.now();
    if (document.querySelector('[data-testid="turn-D1"] [data-testid="turn-text"]')?.textContent?.trim()) marks.d1 = Date.now();
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`;

async function signedInContext(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  // The context's request client shares its cookie jar with the pages.
  const { csrfToken } = (await (await context.request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const response = await context.request.post('/api/auth/callback/credentials', {
    form: { email: 'rm@example.com', password: process.env.DEMO_PASSWORD || 'crosscheck-demo', csrfToken, callbackUrl: '/' },
    maxRedirects: 0,
  });
  if (response.status() !== 302 || (response.headers().location ?? '').includes('error')) throw new Error('could not sign in as the demo RM');
  return context;
}

/**
 * A case to start runs on, made through the new-case form, so the benchmark's runs do not pile up
 * on the demo cases (Tesla as of the same date is the demo RM's first draft).
 */
async function benchCase(page: Page): Promise<string> {
  await page.goto('/cases/new');
  await page.getByLabel('Borrower').selectOption('tesla');
  await page.getByLabel('Case title').fill(`UI benchmark ${Date.now()}`);
  await page.getByLabel('Loan amount').fill('1,000,000');
  await page.getByLabel('Purpose of the loan').fill('Working capital');
  await page.getByLabel('As-of date').fill('2025-06-30');
  await page.getByTestId('case-submit').click();
  await page.waitForURL(/\/cases\/[0-9a-f-]{36}$/);
  return new URL(page.url()).pathname;
}

/**
 * Milliseconds from the click on Start to the first text of D1 in the page, with when the run
 * page replaced the case page (the action's redirect); then cancels the run.
 */
async function firstTokenOnce(page: Page, caseUrl: string) {
  await page.goto(caseUrl);
  const launcher = page.getByTestId('run-launcher');
  // A checked radio that React controls proves the launcher has hydrated.
  await launcher.locator('input[name="provider"][value="openai"]').check();
  await launcher.locator('input[name="protocol"][value="kpd-mads"]').check();
  // The page's own clock, read at every frame: the redirect is a client-side navigation, so the
  // loop outlives it and notes when the run page shows and when D1's first text does.
  await page.evaluate(RECORD_MARKS);
  const start = Date.now();
  await page.getByTestId('start-run').click();
  const handle = await page.waitForFunction(
    () => {
      const marks = (window as unknown as { __marks?: Record<string, number> }).__marks;
      // A full-page navigation would lose the loop: then the text itself is checked here.
      if (!marks) return document.querySelector('[data-testid="turn-D1"] [data-testid="turn-text"]')?.textContent?.trim() ? { d1: Date.now() } : false;
      return marks.d1 ? marks : false;
    },
    undefined,
    { polling: 'raf', timeout: 30_000 },
  );
  const marks = (await handle.jsonValue()) as Record<string, number>;
  await page.locator('[data-hydrated="true"]').waitFor();
  const cancel = page.getByTestId('cancel-run');
  if (await cancel.isVisible()) {
    await cancel.click();
    await page.locator('[data-testid="run-status"]:not([data-status="running"]):not([data-status="queued"])').waitFor();
  }
  return {
    firstToken: marks.d1 - start,
    runPage: marks.runPage ? marks.runPage - start : Number.NaN,
    hydrated: marks.hydrated ? marks.hydrated - start : Number.NaN,
  };
}

/** Total gzip size of the JavaScript files the finished run page loads. */
async function runPageJs(context: BrowserContext) {
  const page = await context.newPage();
  const bodies = new Map<string, Promise<Buffer>>();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script' && response.ok()) bodies.set(response.url(), response.body());
  });
  await page.goto(RUN_PAGE, { waitUntil: 'load' });
  await page.locator('[data-hydrated="true"]').waitFor();
  await page.waitForLoadState('networkidle').catch(() => undefined);
  let raw = 0;
  let gzip = 0;
  for (const body of await Promise.all(bodies.values())) {
    raw += body.length;
    gzip += zlib.gzipSync(body).length;
  }
  await page.close();
  return { files: bodies.size, rawKb: raw / 1024, gzipKb: gzip / 1024 };
}

/** Navigation start → hydration of the finished run page, in a fresh context (cold cache). */
async function interactiveOnce(browser: Browser, baseURL: string, storageState: Awaited<ReturnType<BrowserContext['storageState']>>) {
  const context = await browser.newContext({ baseURL, storageState });
  try {
    const page = await context.newPage();
    await page.goto(RUN_PAGE, { waitUntil: 'commit' });
    const mark = await page.waitForFunction(() => performance.getEntriesByName('run-hydrated')[0]?.startTime ?? false, undefined, {
      polling: 'raf',
      timeout: 30_000,
    });
    const ms = (await mark.jsonValue()) as number;
    // Interactive means it reacts: a citation's popover opens on keyboard focus.
    const chip = page.getByTestId('citation-chip').first();
    await chip.focus();
    await page.locator(`[id="${await chip.getAttribute('aria-describedby')}"]`).waitFor({ state: 'visible', timeout: 5_000 });
    return ms;
  } finally {
    await context.close();
  }
}

export const uiBenchmark: Benchmark = {
  name: 'ui',
  description: 'the run page in Chromium (next start, fake model at 400 ms TTFT): first token, JS size, time to interactive',
  async run(ctx) {
    const executablePath = findChromium();
    if (!executablePath) throw new Error('no Chromium found: install one (apt-get install chromium) or set PLAYWRIGHT_CHROMIUM_PATH');
    ensureBuild(ctx.log);
    const reps = ctx.quick ? 3 : 9;
    let fake: FakeProcess | undefined;
    let server: NextServer | undefined;
    let browser: Browser | undefined;
    try {
      fake = await startFakeLlmProcess({ ttftMs: TTFT_MS, tokensPerSecond: TOKENS_PER_SECOND, script: [] });
      server = await startNextServer({ OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'fake-key-for-bench', OPENAI_MODEL: 'fake-llm' });
      ctx.log(`next start at ${server.baseURL}, fake model at ${fake.url}`);
      browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
      const context = await signedInContext(browser, server.baseURL);
      const storageState = await context.storageState();

      const js = await runPageJs(context);
      ctx.log(`run page: ${js.files} JS files, ${round(js.rawKb)} KiB, ${round(js.gzipKb)} KiB gzipped`);

      // One warm-up each (first compiles of server code paths, first run on the server), then the samples.
      const page = await context.newPage();
      const caseUrl = await benchCase(page);
      const firstToken: number[] = [];
      const runPageShown: number[] = [];
      const runPageHydrated: number[] = [];
      for (let i = 0; i <= reps; i++) {
        const ms = await firstTokenOnce(page, caseUrl);
        if (i === 0) continue;
        firstToken.push(ms.firstToken);
        if (Number.isFinite(ms.runPage)) runPageShown.push(ms.runPage);
        if (Number.isFinite(ms.hydrated)) runPageHydrated.push(ms.hydrated);
      }
      const interactive: number[] = [];
      for (let i = 0; i <= reps; i++) {
        const ms = await interactiveOnce(browser, server.baseURL, storageState);
        if (i > 0) interactive.push(ms);
      }
      ctx.log(
        `run page shown ${runPageShown.map((x) => Math.round(x)).join(', ')} ms after the click, hydrated ${runPageHydrated.map((x) => Math.round(x)).join(', ')} ms`,
      );
      ctx.log(`first token ${firstToken.map((x) => Math.round(x)).join(', ')} ms; interactive ${interactive.map((x) => Math.round(x)).join(', ')} ms`);

      return [
        {
          name: 'ui: run page',
          metric: 'D1 first token median',
          value: round(median(firstToken)),
          unit: 'ms',
          target: { atMost: 700 },
          key: 'd1_first_token_ms',
        },
        { name: 'ui: run page', metric: 'D1 first token p95', value: round(percentile(firstToken, 95)), unit: 'ms' },
        // Where the first-token time goes: the run page's arrival and hydration; the rest is the server's (engine start + model TTFT).
        ...(runPageShown.length ? [{ name: 'ui: run page', metric: 'click → run page shown median', value: round(median(runPageShown)), unit: 'ms' }] : []),
        ...(runPageHydrated.length
          ? [{ name: 'ui: run page', metric: 'click → run page hydrated median', value: round(median(runPageHydrated)), unit: 'ms' }]
          : []),
        { name: 'ui: run page', metric: 'JavaScript, gzip', value: round(js.gzipKb), unit: 'KiB', target: { atMost: 250 }, key: 'run_page_js_kb_gzip' },
        { name: 'ui: run page', metric: 'JavaScript, raw', value: round(js.rawKb), unit: 'KiB' },
        {
          name: 'ui: run page',
          metric: 'finished run interactive median',
          value: round(median(interactive)),
          unit: 'ms',
          target: { atMost: 1500 },
          key: 'finished_run_interactive_ms',
        },
        { name: 'ui: run page', metric: 'finished run interactive p95', value: round(percentile(interactive, 95)), unit: 'ms' },
      ];
    } finally {
      await browser?.close();
      await server?.close();
      await fake?.close();
    }
  },
};
