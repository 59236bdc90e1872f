// The engine through the OpenAI-compatible provider against the fake server: real HTTP, SSE
// streaming, structured output, a web-search tool call, injected 429/500 and a malformed answer.
// The fake answers each step with what the offline analyst wrote for the same run, so the
// outputs also pass the protocol rules, and both runs can be compared.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { getRun, listRunSteps } from '@/lib/db/queries/runs';
import { seedDemo } from '@/lib/demo/seed';
import { createTestDatabase } from '@/lib/db/test-db';
import { runBus } from '@/lib/debate/bus';
import { createRun, executeRun, type WebSearchFn } from '@/lib/debate/engine';
import { getProtocol } from '@/lib/debate/protocols';
import type { RunEvent } from '@/lib/domain/protocol';
import { sectionCalls } from '@/lib/domain/sections';
import { runProviders } from '@/lib/llm';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { createOpenAiProvider } from '@/lib/llm/openai';
import { costOf } from '@/lib/llm/prices';
import { startFakeLlm, type FakeLlm } from '../../scripts/fake-llm/server';

describe('debate engine through the OpenAI-compatible provider', () => {
  let handle: DatabaseHandle;
  let db: Db;
  let fake: FakeLlm;
  const params = { asOf: '2024-12-31', language: 'en' as const };

  beforeAll(async () => {
    handle = await createTestDatabase('pglite');
    db = handle.db;
    await seedDemo(db, { accounts: false });
    fake = await startFakeLlm({ ttftMs: 5, tokensPerSecond: 2000 });
  });
  afterAll(async () => {
    await fake?.close();
    await handle?.close();
  });

  it('streams, searches, recovers from 429, 500 and malformed JSON, and gives the same debate as the offline run', async () => {
    const offline = createOfflineAnalyst();
    const reference = await createRun({ db, protocolId: 'kpd-mads', companyId: 'tesla', provider: offline, params });
    expect((await executeRun({ db, runId: reference.id, provider: offline })).status).toBe('succeeded');
    const expected = await listRunSteps({ db, runId: reference.id });

    fake.setScript(
      expected.map((s) => ({
        match: `Step ${s.stepId} (`,
        reply: JSON.stringify(s.output),
        ...(s.stepId === 'D5' ? { webSearch: ['Tesla Megapack contract 2024'] } : {}),
        // D3 is shown fewer than three adverse signals (Tesla's pool at the end of 2024 has two
        // factors): with search configured it must search (lib/debate/rules.ts); its search finds
        // nothing, so it is held to what the pool allows, like the offline reference.
        ...(s.stepId === 'D3' ? { webSearch: ['Tesla recall 2024'] } : {}),
      })),
    );
    fake.failNext({ status: 429, retryAfter: 1 });
    fake.failNext({ status: 500 });
    fake.failNext({ kind: 'malformed' });

    const sleeps: number[] = [];
    const provider = createOpenAiProvider({
      apiKey: 'sk-test-key-123456',
      baseURL: fake.url,
      model: 'gpt-4o-mini',
      sleep: async (ms: number) => void sleeps.push(ms),
    });
    const searched: string[] = [];
    const webSearch: WebSearchFn = async (query) => {
      searched.push(query);
      if (!query.includes('Megapack')) return [];
      return [
        {
          id: 'web-test-1',
          companyId: 'tesla',
          category: 'news',
          title: 'Tesla energy storage deployments',
          text: 'Deployments rose.',
          value: null,
          eventDate: null,
          publishedDate: '2024-10-23',
          sourceName: 'example.com',
          sourceUrl: 'https://example.com/tesla-storage',
          language: 'en',
          upstream: 'websearch:test',
          license: null,
          retrievedAt: new Date('2024-12-01T00:00:00Z'),
        },
      ];
    };

    const run = await createRun({ db, protocolId: 'kpd-mads', companyId: 'tesla', provider, params });
    const events: RunEvent[] = [];
    const { unsubscribe } = runBus().subscribe(run.id, (e) => events.push(e));
    const result = await executeRun({ db, runId: run.id, provider, webSearch });
    unsubscribe();
    expect(result.status, result.error).toBe('succeeded');

    const steps = await listRunSteps({ db, runId: run.id });
    expect(steps.map((s) => s.text)).toEqual(expected.map((s) => s.text));
    expect(steps.find((s) => s.stepId === 'D5')!.toolCalls).toEqual([{ name: 'web_search', query: 'Tesla Megapack contract 2024', results: 1 }]);
    expect(steps.find((s) => s.stepId === 'D3')!.toolCalls).toEqual([{ name: 'web_search', query: 'Tesla recall 2024', results: 0 }]);
    expect(searched).toEqual(['Tesla recall 2024', 'Tesla Megapack contract 2024']);
    expect(sleeps.length).toBeGreaterThanOrEqual(2);
    expect(sleeps.some((ms) => ms >= 1000)).toBe(true);
    // The malformed answer cost one step a repair attempt, which asked for corrected JSON.
    expect(steps.some((s) => s.attempt === 2)).toBe(true);
    expect(fake.requests.some((r) => JSON.stringify(r.body?.messages ?? []).includes('not valid JSON'))).toBe(true);
    // Structured output was requested with each step's JSON Schema.
    const chat = fake.requests.filter((r) => r.path === '/v1/chat/completions' && r.body);
    expect(chat.every((r) => (r.body as { response_format?: { type: string } }).response_format?.type === 'json_schema')).toBe(true);
    // Every step's answer streamed: a partial with prose before the step was done.
    for (const s of steps) {
      const done = events.findIndex((e) => e.type === 'step-done' && e.stepId === s.stepId);
      expect(
        events.slice(0, done).some((e) => e.type === 'step-partial' && e.stepId === s.stepId && e.text.length > 0),
        s.stepId,
      ).toBe(true);
    }
    // A3 and N3 (D4, D9; D2, D10) and the aggregator are never offered web search; A1, A2, N1, N2 are.
    const offered = (step: string) =>
      chat
        .filter((r) => JSON.stringify(r.body?.messages ?? []).includes(`Step ${step} (`))
        .some((r) => JSON.stringify((r.body as { tools?: unknown }).tools ?? []).includes('web_search'));
    for (const step of ['D2', 'D4', 'D9', 'D10', 'AG']) expect(offered(step), step).toBe(false);
    for (const step of ['D1', 'D3', 'D5', 'D6', 'D7', 'D8']) expect(offered(step), step).toBe(true);
    expect(steps.every((s) => s.promptTokens > 0 && s.completionTokens > 0)).toBe(true);
  }, 60_000);

  it("asks each role's own model when OPENAI_MODEL_<ROLE> names one, and prices the step by it", async () => {
    const offline = createOfflineAnalyst();
    const reference = await createRun({ db, protocolId: 'kpd-mads', companyId: 'travelers-companies', provider: offline, params });
    expect((await executeRun({ db, runId: reference.id, provider: offline })).status).toBe('succeeded');
    const expected = await listRunSteps({ db, runId: reference.id });
    fake.setScript(expected.map((s) => ({ match: `Step ${s.stepId} (`, reply: JSON.stringify(s.output) })));
    const e = { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'gpt-4o-mini', OPENAI_MAX_RETRIES: 0 } as unknown as Parameters<
      typeof runProviders
    >[1];
    const before = process.env.OPENAI_MODEL_AGGREGATOR;
    process.env.OPENAI_MODEL_AGGREGATOR = 'gpt-4o';
    try {
      const providers = runProviders('openai', e);
      const run = await createRun({ db, protocolId: 'kpd-mads', companyId: 'travelers-companies', provider: providers.provider, params });
      const from = fake.requests.length;
      expect((await executeRun({ db, runId: run.id, ...providers })).status).toBe('succeeded');
      const models = new Map(
        fake.requests
          .slice(from)
          .filter((r) => r.body?.messages)
          .map((r) => [/Step (\w+) \(/.exec(r.body!.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n'))?.[1], r.body!.model]),
      );
      expect(models.get('AG')).toBe('gpt-4o');
      for (const id of ['D1', 'D5', 'D10']) expect(models.get(id), id).toBe('gpt-4o-mini');
      // gpt-4o costs more per token than gpt-4o-mini: the aggregator's cost per token shows it.
      const steps = await listRunSteps({ db, runId: run.id });
      const perToken = (id: string) => {
        const s = steps.find((x) => x.stepId === id)!;
        return Number(s.costUsd) / (s.promptTokens + s.completionTokens);
      };
      expect(perToken('AG')).toBeGreaterThan(perToken('D10') * 5);
    } finally {
      if (before === undefined) delete process.env.OPENAI_MODEL_AGGREGATOR;
      else process.env.OPENAI_MODEL_AGGREGATOR = before;
    }
  }, 60_000);

  it("keeps on each step the prompt tokens the endpoint's cache served, sums them in the run's totals and bills them at the cached price", async () => {
    const offline = createOfflineAnalyst();
    const reference = await createRun({ db, protocolId: 'kpd-mads', companyId: 'samsung-electronics', provider: offline, params });
    expect((await executeRun({ db, runId: reference.id, provider: offline })).status).toBe('succeeded');
    const expected = await listRunSteps({ db, runId: reference.id });
    fake.setScript(expected.map((s) => ({ match: `Step ${s.stepId} (`, reply: JSON.stringify(s.output) })));
    fake.clearCache();
    const provider = createOpenAiProvider({ apiKey: 'sk-test', baseURL: fake.url, model: 'gpt-4o', maxRetries: 0 });
    const run = await createRun({ db, protocolId: 'kpd-mads', companyId: 'samsung-electronics', provider, mode: 'sequential', params });
    const from = fake.requests.length;
    expect((await executeRun({ db, runId: run.id, provider })).status).toBe('succeeded');

    // What the endpoint reported per step, summed over its requests (one each here, no searches
    // and no repairs, except the aggregator's section calls and overview).
    const reported = new Map<string, number>();
    const calls = new Map<string, number>();
    for (const r of fake.requests.slice(from).filter((x) => x.body?.messages)) {
      const stepId = /Step (\w+) \(/.exec(r.body!.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n'))![1];
      reported.set(stepId, (reported.get(stepId) ?? 0) + (r.cachedTokens ?? 0));
      calls.set(stepId, (calls.get(stepId) ?? 0) + 1);
    }
    expect(reported.size).toBe(11);
    expect(calls.get('AG')).toBe(sectionCalls(getProtocol('kpd-mads').steps.find((s) => s.id === 'AG')!.sections!).length);
    const steps = await listRunSteps({ db, runId: run.id });
    for (const s of steps) {
      expect(s.cachedTokens, s.stepId).toBe(reported.get(s.stepId));
      expect(Number(s.costUsd), s.stepId).toBeCloseTo(costOf('gpt-4o', s), 6);
    }
    // The first step finds the cache cold; every later one shares at least the run's system message.
    expect(steps.find((s) => s.stepId === 'D1')!.cachedTokens).toBe(0);
    for (const s of steps.filter((x) => x.stepId !== 'D1')) expect(s.cachedTokens, s.stepId).toBeGreaterThan(500);
    expect(steps.every((s) => s.cachedTokens < s.promptTokens)).toBe(true);
    const saved = await getRun({ db, id: run.id });
    expect(saved.cachedTokens).toBe(steps.reduce((n, s) => n + s.cachedTokens, 0));
    // Cheaper than the same tokens at the full input price, by half the cached tokens' price.
    const full = steps.reduce((n, s) => n + costOf('gpt-4o', { promptTokens: s.promptTokens, completionTokens: s.completionTokens }), 0);
    expect(Number(saved.costUsd)).toBeCloseTo(full - (saved.cachedTokens * 1.25) / 1e6, 5);
  }, 60_000);
});
