// The realistic benchmark's code path, in small (scripts/bench/realistic.ts): two NAS runs through
// the real engine and provider against the fake server in its realistic mode, answering fenced,
// with dates in another format and a citation of an item never shown plus one of a real pool item
// dated after the as-of date in every answer. The runs must succeed, the planted citations stay
// visible but unverified, and the first prose reach the bus.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { createTestDatabase } from '@/lib/db/test-db';
import { seedDemo } from '@/lib/demo/seed';
import { getProtocol } from '@/lib/debate/protocols';
import { sectionCalls } from '@/lib/domain/sections';
import { NO_QUIRKS } from '../fake-llm/realistic';
import { startFakeLlm, type FakeLlm, type RequestSummary } from '../fake-llm/server';
import { laterDemoItems, measureRealistic, realisticPlan, REALISTIC_AS_OF, tokensToFirstVisible } from './realistic';

describe('realistic benchmark helpers', () => {
  it('plans runs over the demo companies in turn', () => {
    const plan = realisticPlan({ 'kpd-mads': 3, nas: 1 });
    expect(plan).toEqual([
      { protocol: 'kpd-mads', companyId: 'samsung-electronics' },
      { protocol: 'kpd-mads', companyId: 'tesla' },
      { protocol: 'kpd-mads', companyId: 'travelers-companies' },
      { protocol: 'nas', companyId: 'samsung-electronics' },
    ]);
  });

  it("counts how many of the fake's 4-character tokens an answer takes before a reader could see anything", () => {
    // '{"te' 'xt":' '"Cre' — the prose starts in the third token.
    expect(tokensToFirstVisible('turn', '{"text":"Credit holds up.","claims":[],"questions":[]}')).toBe(3);
    // A preamble and a fence (35 characters) come first: the prose's first letter is character 45, in token 12.
    expect(tokensToFirstVisible('turn', 'Sure, here it is as JSON:\n\n```json\n{"text":"Credit holds up."}\n```')).toBe(12);
    // Claims before the prose: the first claim's text is visible as it is written.
    expect(tokensToFirstVisible('turn', '{"claims":[{"id":"D1-c1","text":"Orders grew."}],"text":"x"}')).toBe(9);
    // A report's card shows its overview and the sources it cites, as a finished one does: an
    // objective or a summary written first is not on it (the overview's "x" is character 39, in
    // token 10; 50, in token 13), a topic's cited source is (its "D" is character 71, in token 18).
    expect(tokensToFirstVisible('report', '{"objective":"Assess it.","overview":"x"}')).toBe(10);
    expect(tokensToFirstVisible('report', '{"favorableSummary":["Orders grew."],"overview":"x"}')).toBe(13);
    expect(
      tokensToFirstVisible('report', '{"topics":[{"topic":"Orders","factor":"other","citations":[{"source":"DART","date":"2024-01-01"}]}],"overview":"x"}'),
    ).toBe(18);
    // Ids, numbers and enum codes are never visible text: the judge's key insight (character 67) and the draft's text (85) are the first.
    expect(tokensToFirstVisible('rubricJudgment', '{"scores":[{"argumentId":"A1","logic":7}],"overall":{"keyInsight":"Liquidity."}}')).toBe(17);
    expect(tokensToFirstVisible('stanceDraft', '{"stance":"adverse","horizons":[{"horizon":"12 months","outlook":"adverse"}],"text":"Adverse."}')).toBe(22);
    expect(tokensToFirstVisible('turn', '')).toBeNull();
  });

  it('knows the demo pool items dated after the as-of date', () => {
    const later = laterDemoItems(REALISTIC_AS_OF);
    expect(later.length).toBeGreaterThan(5);
    expect(later.every((i) => i.publishedDate > REALISTIC_AS_OF && i.sourceName)).toBe(true);
    expect(later.some((i) => i.id.startsWith('tesla-'))).toBe(true);
  });
});

describe('realistic benchmark, two runs', () => {
  let handle: DatabaseHandle;
  let fake: FakeLlm;
  beforeAll(async () => {
    handle = await createTestDatabase('pglite');
    await seedDemo(handle.db, { accounts: false });
    fake = await startFakeLlm({
      seed: 14,
      mode: 'realistic',
      realistic: { rates: { ...NO_QUIRKS, fence: 1, dateFormat: 1, inventedCitation: 1, afterAsOfCitation: 1 }, laterItems: laterDemoItems(REALISTIC_AS_OF) },
    });
  });
  afterAll(async () => {
    await fake?.close();
    await handle?.close();
  });

  it('succeeds, keeps every planted citation unverified and measures the first prose', async () => {
    const requests = async () => fake.requests.map(({ headers: _h, body: _b, ...rest }): RequestSummary => rest);
    const figures = await measureRealistic({
      db: handle.db,
      baseURL: fake.url,
      requests,
      plan: realisticPlan({ nas: 2 }).map((r, i) => ({ ...r, companyId: i ? 'tesla' : 'samsung-electronics' })),
      concurrency: 2,
    });
    expect(figures.failures).toEqual([]);
    expect(figures).toMatchObject({ runs: 2, succeeded: 2, byProtocol: { nas: { runs: 2, succeeded: 2 } } });
    // NAS writes its report as section calls and an overview (docs/protocols.md, "Sections"):
    // every answer is fenced; dates and citations are planted in the calls whose fields carry them.
    // A part whose factors have no material at the as-of date is not asked (section-not-asked).
    const calls = sectionCalls(getProtocol('nas').steps.find((s) => s.sections)!.sections!).length;
    const notAsked = figures.repairs['section-not-asked'] ?? 0;
    expect(notAsked).toBeLessThan(calls);
    expect(figures.requests).toBe(2 * calls - notAsked);
    expect(figures.behaviours.fence).toBe(2 * calls - notAsked);
    const planting = figures.behaviours.inventedCitation;
    expect(planting).toBeGreaterThanOrEqual(2);
    expect(planting).toBeLessThan(2 * calls);
    expect(figures.behaviours).toMatchObject({ dateFormat: planting, afterAsOfCitation: planting });
    // Tesla's post-as-of citation names a real pool item: the case the engine must not verify by id.
    const planted = fake.requests.flatMap((r) => r.planted ?? []);
    expect(planted.some((p) => p.kind === 'after-as-of' && laterDemoItems(REALISTIC_AS_OF).some((i) => i.id === p.evidenceId))).toBe(true);
    // Two planted per planting answer. The fake keeps a section's topics to its factors, as the
    // section's part asks, so every planted citation reaches the saved report, and none reads as verified.
    expect(figures.planted.sent).toBe(2 * planting);
    expect(figures.planted.saved).toBe(figures.planted.sent);
    expect(figures.planted).toMatchObject({ shownVerified: 0, shownVerifiedIds: [] });
    expect(figures.repairs['date-normalised']).toBeGreaterThanOrEqual(2);
    expect(figures.firstProseMs).toHaveLength(2);
    for (const ms of figures.firstProseMs) expect(ms).toBeGreaterThanOrEqual(0);
    expect(figures.stepsWithoutProse).toBe(0);
    // The prose comes first here, so the first visible text is the first prose.
    expect(figures.firstVisibleMs).toHaveLength(2);
    expect(figures.stepsWithoutVisibleText).toBe(0);
  });
});

describe('realistic benchmark, prose written last', () => {
  let handle: DatabaseHandle;
  let fake: FakeLlm;
  beforeAll(async () => {
    handle = await createTestDatabase('pglite');
    await seedDemo(handle.db, { accounts: false });
    // Paced, so that what comes first on the bus comes measurably first.
    fake = await startFakeLlm({ seed: 14, mode: 'realistic', tokensPerSecond: 2_000, realistic: { rates: NO_QUIRKS, laterItems: [] } });
  });
  afterAll(async () => {
    await fake?.close();
    await handle?.close();
  });

  it("counts the sources the report's sections cite before its overview as the first visible text, and the prose-only figure apart", async () => {
    const requests = async () => fake.requests.map(({ headers: _h, body: _b, ...rest }): RequestSummary => rest);
    const figures = await measureRealistic({
      db: handle.db,
      baseURL: fake.url,
      requests,
      plan: [{ protocol: 'nas', companyId: 'samsung-electronics' }],
      concurrency: 1,
    });
    expect(figures.failures).toEqual([]);
    expect(figures.firstVisibleMs).toHaveLength(1);
    expect(figures.firstProseMs).toHaveLength(1);
    // The prose is the overview's, which reads the sections: what they write shows well before it.
    expect(figures.firstVisibleMs[0]).toBeLessThan(figures.firstProseMs[0]);
    expect(figures.stepsWithoutVisibleText).toBe(0);
  });
});
