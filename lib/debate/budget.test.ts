// Finding 9 of the security review: budgets were checked only between steps, so a NAS run (one
// long step) with a 1,000-token budget used 8,474 tokens and succeeded. Now every call is
// bounded by what is left (max_tokens, the prompt counted first), a stream that goes past the
// budget is stopped, and the run ends budget_exceeded with the tokens it spent in its totals.
// With the offline analyst and with the OpenAI-compatible provider against the fake server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { getRun, listRunSteps } from '@/lib/db/queries/runs';
import { seedDemo } from '@/lib/demo/seed';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { RunBudgetMeter } from '@/lib/debate/budget';
import { runBus } from '@/lib/debate/bus';
import { createRun, executeRun } from '@/lib/debate/engine';
import { BudgetExceeded } from '@/lib/debate/limits';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { createOpenAiProvider, estimatePromptTokens } from '@/lib/llm/openai';
import { promptTokens as fakePromptTokens } from '../../scripts/fake-llm/reply';
import { startFakeLlm, type FakeLlm, type RecordedRequest } from '../../scripts/fake-llm/server';

// NAS on Travelers as of mid-2025: a short prompt and a longer answer (354 + 818 tokens on the
// offline analyst), so a 1,000-token budget is crossed mid-answer, not before it.
const COMPANY = 'travelers-companies';
const params = { asOf: '2025-06-30', language: 'en' as const };

const tokensOf = (run: { promptTokens: number; completionTokens: number }) => run.promptTokens + run.completionTokens;

describe('the run budget meter', () => {
  it('lets steps in flight share what is left and stops them all once, the moment their total goes past it', () => {
    const stops: BudgetExceeded[] = [];
    const meter = new RunBudgetMeter({ maxTokens: 1_000 }, { promptTokens: 100, completionTokens: 100, costUsd: 0 }, (r) => stops.push(r));
    const a = meter.call('A', 'gpt-4o-mini');
    const b = meter.call('B', 'gpt-4o-mini');
    // 800 left: A's prompt of 300 leaves it 500; B's prompt, counted after A's, leaves it 300.
    expect(a.allow(300)).toBe(500);
    expect(b.allow(200)).toBe(300);
    a.spend(200);
    b.spend(100);
    expect(stops).toEqual([]);
    b.spend(1);
    expect(stops.map((s) => s.message)).toEqual(['The run reached its token budget of 1,000 tokens: 1,001 used.']);
    expect(meter.unsaved()).toMatchObject({ promptTokens: 500, completionTokens: 301 });
    // Nothing is left for another call: it is refused before it is sent.
    expect(() => meter.call('C', 'gpt-4o-mini').allow(10)).toThrow(BudgetExceeded);
  });

  it("converts a cost budget into tokens at the model's prices", () => {
    const meter = new RunBudgetMeter({ maxCostUsd: 0.01 }, { promptTokens: 0, completionTokens: 0, costUsd: '0.004' }, () => {});
    // gpt-4o: $2.50 in, $10 out per million. $0.006 left; a 1,000-token prompt costs $0.0025.
    expect(meter.call('A', 'gpt-4o').allow(1_000)).toBe(350);
  });

  it('gives a cut-off answer the room the budget leaves after its prompt, and none when that is no more than it had', () => {
    const meter = new RunBudgetMeter({ maxTokens: 2_000 }, { promptTokens: 0, completionTokens: 500, costUsd: 0 }, () => {});
    // 1,500 left; a prompt of 300 leaves 1,200 for the answer, under any model's output cap.
    expect(meter.moreRoom('gpt-4o-mini', 800, 300)).toBe(1_200);
    expect(meter.moreRoom('gpt-4o-mini', 1_200, 300)).toBeUndefined();
  });

  it('stops the run between steps at its budget only with work left, and past it always', () => {
    const stops: BudgetExceeded[] = [];
    const at = new RunBudgetMeter({ maxTokens: 1_000 }, { promptTokens: 400, completionTokens: 600, costUsd: 0 }, (r) => stops.push(r));
    at.stopIfOver(false);
    expect(stops).toEqual([]);
    at.stopIfOver(true);
    expect(stops).toHaveLength(1);
    const past = new RunBudgetMeter({ maxTokens: 1_000 }, { promptTokens: 400, completionTokens: 601, costUsd: 0 }, (r) => stops.push(r));
    past.stopIfOver(false);
    expect(stops).toHaveLength(2);
  });
});

describe.each(testBackends())('budgets inside a step on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let fake: FakeLlm;
  /**
   * The offline analyst's NAS answer for the company, without a budget: what the fake replies, and
   * the size to cross. NAS runs in one call in these tests (`wholeCalls`): they are about one call
   * and its budget; a sectioned step's calls draw on the same meter.
   */
  let reference: { output: unknown; promptTokens: number; completionTokens: number; tokenEvents: number };

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: false });
    fake = await startFakeLlm({ ttftMs: 1, tokensPerSecond: 4_000 });
    const offline = createOfflineAnalyst();
    const run = await createRun({ db, protocolId: 'nas', companyId: COMPANY, provider: offline, params });
    let tokenEvents = 0;
    // How far the answer streamed: the spend goes out every few dozen tokens as it grows.
    const { unsubscribe } = runBus().subscribe(run.id, (e) => void (e.type === 'step-usage' && tokenEvents++));
    expect((await executeRun({ db, runId: run.id, provider: offline, wholeCalls: true })).status).toBe('succeeded');
    unsubscribe();
    const [step] = await listRunSteps({ db, runId: run.id });
    reference = { output: step.output, promptTokens: step.promptTokens, completionTokens: step.completionTokens, tokenEvents };
  }, 90_000);
  afterAll(async () => {
    await fake?.close();
    await handle?.close();
  });

  const chatRequests = (from: number): RecordedRequest[] => fake.requests.slice(from).filter((r) => r.path === '/v1/chat/completions');

  it('a NAS run with a 1,000-token budget on the offline analyst stops mid-answer as budget_exceeded, its spend within one streamed chunk of the budget', async () => {
    expect(reference.promptTokens).toBeLessThan(1_000);
    expect(reference.promptTokens + reference.completionTokens).toBeGreaterThan(1_000);
    const provider = createOfflineAnalyst();
    const run = await createRun({ db, protocolId: 'nas', companyId: COMPANY, provider, params: { ...params, maxTokens: 1_000 } });
    let tokenEvents = 0;
    // How far the answer streamed: the spend goes out every few dozen tokens as it grows.
    const { unsubscribe } = runBus().subscribe(run.id, (e) => void (e.type === 'step-usage' && tokenEvents++));
    const result = await executeRun({ db, runId: run.id, provider, wholeCalls: true });
    unsubscribe();

    expect(result.status).toBe('budget_exceeded');
    const saved = await getRun({ db, id: run.id });
    expect(saved.status).toBe('budget_exceeded');
    // The prompt and the part of the answer that streamed are counted: past 1,000 by at most one
    // chunk (the offline analyst streams its JSON at most 16 characters, about 4 tokens, at a time).
    expect(saved.promptTokens).toBe(reference.promptTokens);
    expect(tokensOf(saved)).toBeGreaterThan(1_000);
    expect(tokensOf(saved)).toBeLessThanOrEqual(1_000 + 7);
    expect(saved.error).toBe(`The run reached its token budget of 1,000 tokens: ${tokensOf(saved).toLocaleString('en-US')} used.`);
    // The stream stopped part-way, and the unfinished step is not saved.
    expect(tokenEvents).toBeGreaterThan(0);
    expect(tokenEvents).toBeLessThan(reference.tokenEvents);
    expect((await listRunSteps({ db, runId: run.id })).map((s) => s.status)).toEqual(['pending']);
  });

  it('a NAS run whose prompt alone does not fit its 1,000-token budget sends nothing to the endpoint and ends budget_exceeded', async () => {
    fake.setScript([{ match: 'Step NAS (', reply: JSON.stringify(reference.output) }]);
    const provider = createOpenAiProvider({ apiKey: 'sk-test-key-123456', baseURL: fake.url, model: 'gpt-4o-mini', maxRetries: 0 });
    const run = await createRun({ db, protocolId: 'nas', companyId: COMPANY, provider, params: { ...params, maxTokens: 1_000 } });
    const from = fake.requests.length;
    const result = await executeRun({ db, runId: run.id, provider, wholeCalls: true });
    expect(result.status).toBe('budget_exceeded');
    expect(result.error).toMatch(/^The run stopped at its budget: what is left \(1,000 tokens\) is not enough for step NAS's prompt of about [\d,]+ tokens\.$/);
    expect(chatRequests(from)).toEqual([]);
    expect(tokensOf(await getRun({ db, id: run.id }))).toBe(0);
  });

  it('a NAS run through the OpenAI-compatible provider asks for at most what is left (max_tokens) and ends budget_exceeded when the endpoint stops there', async () => {
    // An answer far longer than the budget: the endpoint stops it at max_tokens (finish_reason length).
    fake.setScript([{ match: 'Step NAS (', reply: { ...(reference.output as object), padding: 'x'.repeat(40_000) } }]);
    const provider = createOpenAiProvider({ apiKey: 'sk-test-key-123456', baseURL: fake.url, model: 'gpt-4o-mini', maxRetries: 0 });
    const budget = 4_000;
    const run = await createRun({ db, protocolId: 'nas', companyId: COMPANY, provider, params: { ...params, maxTokens: budget } });
    const from = fake.requests.length;
    const result = await executeRun({ db, runId: run.id, provider, wholeCalls: true });

    expect(result.status).toBe('budget_exceeded');
    const [request] = chatRequests(from);
    const body = request.body as Parameters<typeof estimatePromptTokens>[0] & { max_tokens?: number };
    const prompt = estimatePromptTokens(body);
    // What was left when the call started: the whole budget less the prompt it sends.
    expect(body.max_tokens).toBe(budget - prompt);
    expect(chatRequests(from)).toHaveLength(1);
    const saved = await getRun({ db, id: run.id });
    // The cut-off call counts what the endpoint reported for it, its prompt and every token it
    // streamed (issue 14: a failed or cut-off call's own count replaces our estimates; the fake
    // counts the prompt without the schema, so this is a little under the budget).
    expect(tokensOf(saved)).toBe(fakePromptTokens(request.body!) + body.max_tokens!);
    expect(tokensOf(saved)).toBeLessThanOrEqual(budget);
    expect((await listRunSteps({ db, runId: run.id })).map((s) => s.status)).toEqual(['pending']);
  });

  it('steps running at the same time share what is left: each asks for at most the remainder, and together they stop at the budget', async () => {
    // KPD-MADS in dag mode: D1 answers as the offline analyst did; after it several steps call
    // the endpoint at once, each answering at length.
    const offline = createOfflineAnalyst();
    const ref = await createRun({ db, protocolId: 'kpd-mads', companyId: COMPANY, provider: offline, params });
    expect((await executeRun({ db, runId: ref.id, provider: offline })).status).toBe('succeeded');
    const d1 = (await listRunSteps({ db, runId: ref.id })).find((s) => s.stepId === 'D1')!;
    fake.setScript([
      { match: 'Step D1 (', reply: JSON.stringify(d1.output) },
      { match: 'Step ', reply: (_req, { generated }) => ({ ...(generated() as object), padding: 'y'.repeat(40_000) }) },
    ]);
    const provider = createOpenAiProvider({ apiKey: 'sk-test-key-123456', baseURL: fake.url, model: 'gpt-4o-mini', maxRetries: 0 });
    const budget = 12_000;
    const run = await createRun({ db, protocolId: 'kpd-mads', companyId: COMPANY, provider, params: { ...params, maxTokens: budget } });
    const from = fake.requests.length;
    const result = await executeRun({ db, runId: run.id, provider });

    expect(result.status).toBe('budget_exceeded');
    expect((await listRunSteps({ db, runId: run.id })).filter((s) => s.status === 'done').map((s) => s.stepId)).toEqual(['D1']);
    const requests = chatRequests(from);
    // D1, then the steps that answer it, at the same time.
    expect(requests.length).toBeGreaterThan(2);
    for (const r of requests) {
      const body = r.body as Parameters<typeof estimatePromptTokens>[0] & { max_tokens?: number };
      expect(body.max_tokens! + estimatePromptTokens(body)).toBeLessThanOrEqual(budget);
    }
    const saved = await getRun({ db, id: run.id });
    // One chunk (one token) past the budget: the chunk that crossed it stopped every stream, and
    // what each stopped call spent is in the run's totals.
    expect(tokensOf(saved)).toBe(budget + 1);
    expect(saved.error).toBe('The run reached its token budget of 12,000 tokens: 12,001 used.');
  });

  it('never asks for more than the model writes in one answer, however much of the budget is left', async () => {
    // Before issue 14 a 5,000,000-token budget became max_tokens of almost 5,000,000, which an
    // endpoint answers with HTTP 400: gpt-4o-mini writes at most 16,384 tokens (lib/llm/output-caps.ts).
    fake.setScript([{ match: 'Step NAS (', reply: JSON.stringify(reference.output) }]);
    const provider = createOpenAiProvider({ apiKey: 'sk-test-key-123456', baseURL: fake.url, model: 'gpt-4o-mini', maxRetries: 0 });
    const run = await createRun({ db, protocolId: 'nas', companyId: COMPANY, provider, params: { ...params, maxTokens: 5_000_000 } });
    const from = fake.requests.length;
    expect((await executeRun({ db, runId: run.id, provider, wholeCalls: true })).status).toBe('succeeded');
    const body = chatRequests(from)[0].body as { max_tokens?: number };
    expect(body.max_tokens).toBe(16_384);
  });

  it("converts a cost budget into max_tokens at the model's price", async () => {
    fake.setScript([{ match: 'Step NAS (', reply: JSON.stringify(reference.output) }]);
    const provider = createOpenAiProvider({ apiKey: 'sk-test-key-123456', baseURL: fake.url, model: 'gpt-4o-mini', maxRetries: 0 });
    const run = await createRun({ db, protocolId: 'nas', companyId: COMPANY, provider, params: { ...params, maxCostUsd: 0.01 } });
    const from = fake.requests.length;
    expect((await executeRun({ db, runId: run.id, provider, wholeCalls: true })).status).toBe('succeeded');
    const body = chatRequests(from)[0].body as Parameters<typeof estimatePromptTokens>[0] & { max_tokens?: number };
    // gpt-4o-mini: $0.15 in, $0.60 out per million tokens.
    expect(body.max_tokens).toBe(Math.floor(((0.01 - (estimatePromptTokens(body) * 0.15) / 1e6) * 1e6) / 0.6));
  });
});
