// The offline analyst runs on the web server's own thread, so a step on a large pool must give
// the event loop back while it builds its material instead of holding it for one long slice
// (health checks took 1–3 s to answer during runs on a large pool). Counted in turns of the
// loop rather than milliseconds, so the test does not depend on how busy the machine is; the
// milliseconds are in the event-loop benchmark (npm run bench -- --only event-loop).
import { describe, expect, it } from 'vitest';
import { buildOutput, buildOutputYielding, createOfflineAnalyst } from './index';
import { KPD_STEPS, protocolOf, requestFor, type Case } from './test-fixtures';

const SAMSUNG: Case = { companyId: 'samsung-electronics', language: 'ko', asOf: '2024-12-31', recencyDays: 365 };

/** The demo borrower's evidence copied to `count` items, each with its own id. */
function largeRequest(count: number) {
  const request = requestFor(SAMSUNG, protocolOf('kpd-mads'), KPD_STEPS[0], []);
  const base = request.evidence;
  const evidence = Array.from({ length: count }, (_, i) => ({ ...base[i % base.length], id: `${base[i % base.length].id}-copy-${i}` }));
  return { ...request, evidence };
}

/** A ticker that counts turns of the event loop (one setImmediate callback per turn) until stopped. */
function turnCounter() {
  const counter = { turns: 0, running: true };
  const tick = () => {
    if (!counter.running) return;
    counter.turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  return counter;
}

describe('the offline analyst on a large pool', () => {
  it('gives the event loop back many times before its first token, instead of building the step in one block', async () => {
    const request = largeRequest(10_000);
    const counter = turnCounter();
    let turnsBeforeFirstToken: number | undefined;
    await createOfflineAnalyst().generate({ ...request, onToken: () => (turnsBeforeFirstToken ??= counter.turns) });
    counter.running = false;
    // 10,000 items in slices of a few hundred: dozens of turns; one block would allow one or two.
    expect(turnsBeforeFirstToken).toBeGreaterThanOrEqual(20);
  });

  it('builds the same output yielding as in one go', async () => {
    const request = largeRequest(2_000);
    expect(JSON.stringify(await buildOutputYielding(request))).toBe(JSON.stringify(buildOutput(request)));
  });

  it('stops between slices once the run is cancelled', async () => {
    const controller = new AbortController();
    const request = { ...largeRequest(10_000), signal: controller.signal };
    const building = buildOutputYielding(request);
    setImmediate(() => controller.abort(new Error('cancelled')));
    await expect(building).rejects.toThrow('cancelled');
  });
});
