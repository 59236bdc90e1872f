// A run on a model that answers like a real one, followed live in the browser: the fake model
// server (scripts/e2e-server.mjs starts it) answers in its realistic mode for runs whose evidence
// carries REALISTIC-PROBE — fenced, with a sentence around the JSON, the prose field last, an extra
// field, other date formats, shortened sources and a citation of an item never shown
// (e2e/fake-llm-script.json). The turn card must show prose only, growing as the model writes, the
// sources the report's sections cite (written before its overview) before any prose, and
// a step that fails for good (REALISTIC-FAIL-PROBE: always an empty answer) must say why on the
// banner and the step card at once, the same words a reload shows. The probe's answers stream at
// 12 tokens/s (its script entry's pace), so its prose is written over several seconds: at the
// servers' 30 tokens/s it took about 3 s, and on a busy machine the polls below could miss it.
import { expect, test, type Page } from '@playwright/test';
import { addEvidence, signInAs, startRunOn } from './fixtures';

// A borrower no other browser test runs a model on, so these markers change no other run.
const COMPANY = 'travelers-companies';
// What raw JSON looks like on a card: a key opening, a key closing, a list of objects.
const JSON_SYNTAX = /\{"|":|\[\{/;

type Sample = { step: string; status: string | null; text: string; parts: string };

/** Every turn card's step, status, visible text and its claims, questions and cited sources, read in one go. */
function sampleCards(page: Page): Promise<Sample[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('article[data-testid^="turn-"][id^="turn-"]')].map((card) => ({
      step: card.id.slice('turn-'.length),
      status: card.getAttribute('data-status'),
      text: card.querySelector('[data-testid="turn-text"]')?.textContent ?? '',
      parts: [...card.querySelectorAll('[data-testid="claim"], [data-testid="question"], [data-testid="citation-label"]')]
        .map((li) => li.textContent ?? '')
        .join('\n'),
    })),
  );
}

test.describe.serial('a model that answers like a real one', () => {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

  test('the turn card streams prose, never JSON, and the prose grows while the step runs', async ({ page }) => {
    test.setTimeout(100_000);
    await signInAs(page, 'rm');
    await addEvidence(page, COMPANY, {
      title: `Realistic probe ${tag}`,
      text: `REALISTIC-PROBE ${tag}: the insurer renewed its catastrophe reinsurance programme on better terms.`,
      url: `https://example.org/realistic-probe/${tag}`,
    });
    await startRunOn(page, COMPANY, `Realistic model ${tag}`, { protocol: 'nas', provider: 'openai' });

    // Poll the cards about every 100 ms until the run ends: what a reader sees while the model writes.
    const seenJson: string[] = [];
    let grewWhileRunning = false;
    let sawRunning = false;
    // The most a running card showed of its cited sources while it had no prose yet.
    let sourcesBeforeProse = '';
    const lengths = new Map<string, number>();
    const deadline = Date.now() + 75_000;
    for (;;) {
      const status = await page.getByTestId('run-status').getAttribute('data-status');
      for (const card of await sampleCards(page)) {
        if (JSON_SYNTAX.test(card.text)) seenJson.push(`${card.step} (${card.status}): ${card.text.slice(0, 120)}`);
        if (JSON_SYNTAX.test(card.parts)) seenJson.push(`${card.step} (${card.status}) parts: ${card.parts.slice(0, 120)}`);
        if (card.parts.includes('```')) seenJson.push(`${card.step} (${card.status}) parts: ${card.parts.slice(0, 120)}`);
        if (card.status === 'running' && !card.text && card.parts.length > sourcesBeforeProse.length) sourcesBeforeProse = card.parts;
        if (card.status !== 'running') continue;
        sawRunning = true;
        const before = lengths.get(card.step);
        if (before !== undefined && card.text.length > before && before > 0) grewWhileRunning = true;
        lengths.set(card.step, card.text.length);
      }
      if (status && ['succeeded', 'failed', 'cancelled', 'budget_exceeded'].includes(status)) break;
      expect(Date.now(), 'the run ends within 75 s').toBeLessThan(deadline);
      await page.waitForTimeout(100);
    }
    expect(seenJson, 'no card ever showed JSON').toEqual([]);
    expect(sawRunning, 'the step was seen running').toBe(true);
    expect(grewWhileRunning, 'the prose grew across polls before the step was done').toBe(true);
    // The overview comes last: the sources its sections cite are read first.
    expect(sourcesBeforeProse.length, 'cited sources were shown before the prose').toBeGreaterThan(3);

    // The answer is taken in despite its fence, its sentence, its order, its extra field and its dates.
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'succeeded');
    const done = page.getByTestId('turn-NAS');
    await expect(done).toHaveAttribute('data-status', 'done');
    const text = (await done.getByTestId('turn-text').textContent()) ?? '';
    expect(text.length).toBeGreaterThan(40);
    expect(text).not.toMatch(JSON_SYNTAX);
    expect(text).not.toContain('```');
  });

  test('a step that always gets an empty answer fails, and the banner and the card say why without a reload', async ({ page }) => {
    test.setTimeout(60_000);
    await signInAs(page, 'rm');
    // Added after the first run, so only this run's prompt carries it: the fake answers it with nothing, every time.
    await addEvidence(page, COMPANY, {
      title: `Realistic failure probe ${tag}`,
      text: `REALISTIC-FAIL-PROBE ${tag}: an item whose model answers are always empty.`,
      url: `https://example.org/realistic-fail-probe/${tag}`,
    });
    await startRunOn(page, COMPANY, `Realistic failure ${tag}`, { protocol: 'nas', provider: 'openai' });

    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'failed', { timeout: 30_000 });
    const banner = page.getByTestId('run-error');
    const stepError = page.getByTestId('turn-NAS').getByTestId('step-error');
    await expect(stepError).toHaveText(/empty answer/i);
    // More than the heading "The run stopped": the reason, naming the step.
    await expect(banner.getByTestId('run-error-reason')).toContainText('NAS');
    const live = { banner: (await banner.textContent())!.trim(), step: (await stepError.textContent())!.trim() };

    await page.reload();
    await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'failed');
    expect((await page.getByTestId('run-error').textContent())!.trim()).toBe(live.banner);
    expect((await page.getByTestId('turn-NAS').getByTestId('step-error').textContent())!.trim()).toBe(live.step);
  });
});
