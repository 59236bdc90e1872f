// The shared rate limiter on a real database: limiters with their own connections (and, on
// PostgreSQL, one in a child process) share one quota; a full window means a wait for the next
// one, never an error; usage replaces the estimate. Clocks are injected: no test waits a minute.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle, type Db } from '@/lib/db/client';
import { providerRateWindows } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import type { StepWait } from '@/lib/domain/protocol';
import { rateLimitsOf } from '@/lib/llm';
import { createSharedRateLimiter, estimateTokens, WINDOW_MS, withSharedRateLimit, type RateWait, type Reservation } from '@/lib/llm/rate-limit';
import { stepWriter, withSpent, type GenerateRequest, type LanguageModel, type ModelCall } from '@/lib/llm/types';

/** 10 s into a minute: a reservation that waits has 50 s to go. */
const START = Date.UTC(2030, 0, 1, 9, 0, 10);
const W0 = START - (START % WINDOW_MS);

/** A clock that moves only when a limiter sleeps on it. */
function steppingClock(now = START) {
  const clock = { t: now, sleeps: [] as number[] };
  return Object.assign(clock, {
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.sleeps.push(ms);
      clock.t += ms;
    },
  });
}

/** A clock whose sleeps end only by abort: the reservation stays waiting in its window. */
function stoppedClock(now = START) {
  return {
    now: () => now,
    sleep: (_ms: number, signal: AbortSignal) =>
      new Promise<void>((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true })),
  };
}

async function windowRow(db: Db, key: string, windowStart: number) {
  const [row] = await db
    .select()
    .from(providerRateWindows)
    .where(and(eq(providerRateWindows.key, key), eq(providerRateWindows.windowStart, new Date(windowStart))));
  return row;
}

const run = promisify(execFile);

describe.each(testBackends())('shared rate limiter on %s', (backend) => {
  let handle: DatabaseHandle;
  /** A second connection to the same database (PGlite in memory has only one). */
  let other: DatabaseHandle | undefined;
  let url: string | undefined;
  const second = () => (other ?? handle).db;
  const never = () => new AbortController().signal;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    if (backend === 'postgres') {
      const u = new URL(process.env.TEST_DATABASE_URL!);
      u.pathname = handle.location.slice(handle.location.indexOf('/'));
      url = u.toString();
      other = await openDatabase({ kind: 'postgres', url, poolSize: 4 });
    }
  });
  afterAll(async () => {
    await other?.close();
    await handle?.close();
  });

  it('admits exactly RPM concurrent requests across two limiters; the others wait in the window', async () => {
    const key = 'openai:concurrent';
    const waits: RateWait[] = [];
    const clock = stoppedClock();
    const a = createSharedRateLimiter({ db: handle.db, clock, onWait: (w) => waits.push(w) });
    const b = createSharedRateLimiter({ db: second(), clock, onWait: (w) => waits.push(w) });
    const controller = new AbortController();
    const attempts = Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).reserve({ key, limits: { rpm: 3 }, tokens: 100, signal: controller.signal }));
    // Five calls find the window full and wait; then they give up.
    for (let i = 0; i < 200 && waits.length < 5; i++) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const outcomes = await Promise.allSettled(attempts);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    expect(waits).toHaveLength(5);
    expect(waits.every((w) => w.limit === 'requests' && w.max === 3 && w.waitMs === 50_000)).toBe(true);
    expect(await windowRow(handle.db, key, W0)).toMatchObject({ requests: 3, tokens: 300 });
  });

  it('lets the request after RPM wait for the next minute, on another limiter (and another process on PostgreSQL)', async () => {
    const key = 'openai:sequence';
    const clockA = steppingClock();
    const clockB = steppingClock();
    const a = createSharedRateLimiter({ db: handle.db, clock: clockA, onWait: () => {} });
    const b = createSharedRateLimiter({ db: second(), clock: clockB, onWait: () => {} });
    const limits = { rpm: 3 };
    await a.reserve({ key, limits, tokens: 10, signal: never() });
    await b.reserve({ key, limits, tokens: 10, signal: never() });
    const third = async (): Promise<Reservation> => {
      if (!url) return a.reserve({ key, limits, tokens: 10, signal: never() });
      const script = path.join(process.cwd(), 'lib/llm/rate-limit-child.ts');
      const { stdout } = await run(path.join(process.cwd(), 'node_modules/.bin/tsx'), [script, JSON.stringify({ url, key, rpm: 3, now: START })]);
      return JSON.parse(stdout) as Reservation;
    };
    expect(await third()).toMatchObject({ windowStart: W0, waitedMs: 0 });
    expect(clockA.sleeps).toEqual([]);

    const fourth = await b.reserve({ key, limits, tokens: 10, signal: never() });
    expect(clockB.sleeps).toEqual([50_000]);
    expect(fourth).toMatchObject({ windowStart: W0 + WINDOW_MS, waitedMs: 50_000 });
    expect(await windowRow(handle.db, key, W0)).toMatchObject({ requests: 3 });
    expect(await windowRow(handle.db, key, W0 + WINDOW_MS)).toMatchObject({ requests: 1 });
  }, 60_000);

  it('replaces the token estimate by the real usage, which frees the window for more', async () => {
    const key = 'openai:tokens';
    const clock = steppingClock();
    const waits: RateWait[] = [];
    const limiter = createSharedRateLimiter({ db: handle.db, clock, onWait: (w) => waits.push(w) });
    const limits = { tpm: 10_000 };
    const first = await limiter.reserve({ key, limits, tokens: 6_000, signal: never() });
    await limiter.settle(first, 1_500);
    expect(await windowRow(handle.db, key, W0)).toMatchObject({ requests: 1, tokens: 1_500 });
    // 1,500 + 8,000 fits; with the estimate kept (6,000 + 8,000) it would not.
    expect(await limiter.reserve({ key, limits, tokens: 8_000, signal: never() })).toMatchObject({ windowStart: W0, waitedMs: 0 });
    const third = await limiter.reserve({ key, limits, tokens: 1_000, signal: never() });
    expect(third.windowStart).toBe(W0 + WINDOW_MS);
    expect(waits).toEqual([expect.objectContaining({ limit: 'tokens', max: 10_000, waitMs: 50_000 })]);
    // A call larger than the whole TPM goes alone in a fresh minute instead of never.
    const huge = await limiter.reserve({ key: 'openai:huge', limits, tokens: 25_000, signal: never() });
    expect(huge).toMatchObject({ tokens: 10_000, waitedMs: 0 });
  });

  it('limits a language model: one request and its real usage per call, none without limits, and a cancelled wait calls nothing', async () => {
    const calls: (string | undefined)[] = [];
    const model: LanguageModel = {
      name: 'openai',
      model: 'scripted',
      async complete(call) {
        calls.push(call.tag?.stepId);
        return { raw: '{}', usage: { promptTokens: 120, completionTokens: 30 }, toolCalls: [], modelMs: 1 };
      },
    };
    const call = (signal: AbortSignal): ModelCall => ({
      system: 'You are an analyst.',
      user: 'Assess the borrower.',
      signal,
      tag: { runId: 'r1', stepId: 'D1' },
    });
    const limiter = createSharedRateLimiter({ db: handle.db, clock: stoppedClock(), onWait: () => {} });
    const limited = withSharedRateLimit(model, { limiter, limits: { rpm: 1 } });
    expect((await limited.complete(call(never()))).usage).toEqual({ promptTokens: 120, completionTokens: 30 });
    expect(await windowRow(handle.db, 'openai:scripted', W0)).toMatchObject({ requests: 1, tokens: 150 });

    // The call that waits tells its caller why and until when: the next minute.
    const controller = new AbortController();
    const told: StepWait[] = [];
    const waiting = limited.complete({ ...call(controller.signal), onWait: (w) => told.push(w) });
    setTimeout(() => controller.abort(), 50);
    await expect(waiting).rejects.toThrow();
    expect(calls).toEqual(['D1']);
    expect(told).toEqual([{ reason: 'requests', until: new Date(W0 + WINDOW_MS).toISOString() }]);

    expect(withSharedRateLimit(model, { limiter, limits: {} })).toBe(model);
  });

  it("counts a step and a call outside any run (a judge's, a document reading's) in the same window", async () => {
    const stepIds: (string | undefined)[] = [];
    const model: LanguageModel = {
      name: 'openai',
      model: 'shared-window',
      async complete(call) {
        stepIds.push(call.tag?.stepId);
        return { raw: '{}', usage: { promptTokens: 100, completionTokens: 10 }, toolCalls: [], modelMs: 1 };
      },
    };
    // As lib/llm/index.ts builds a provider: the step writer over the limited model.
    const provider = stepWriter(
      withSharedRateLimit(model, { limiter: createSharedRateLimiter({ db: handle.db, clock: steppingClock(), onWait: () => {} }), limits: { rpm: 10 } }),
    );
    const step = {
      runId: 'r1',
      step: { id: 'D1', output: 'turn' },
      params: {},
      tools: {},
      prompt: { system: 's', user: 'u' },
      jsonSchema: {},
      signal: never(),
      onToken: () => {},
    } as unknown as GenerateRequest;
    await provider.generate(step);
    await provider.languageModel!.complete({
      system: 'Judge.',
      user: 'Report A, Report B.',
      output: { name: 'pairwise_verdict', jsonSchema: {} },
      signal: never(),
      tag: { stepId: 'pairwise_verdict' },
    });
    expect(stepIds).toEqual(['D1', 'pairwise_verdict']);
    expect(await windowRow(handle.db, 'openai:shared-window', W0)).toMatchObject({ requests: 2, tokens: 220 });
  });

  it('counts what a failed call spent in its window, and keeps the estimate when the model cannot say', async () => {
    const failing = (spent?: { promptTokens: number; completionTokens: number }): LanguageModel => ({
      name: 'openai',
      model: spent ? 'fails-after-streaming' : 'fails-silently',
      async complete() {
        const err = new Error('The model endpoint answered 500 Internal Server Error');
        throw spent ? withSpent(err, spent) : err;
      },
    });
    const call: ModelCall = { system: 'You are an analyst.', user: 'Assess the borrower.', signal: never(), tag: { runId: 'r1', stepId: 'D1' } };
    const limiter = createSharedRateLimiter({ db: handle.db, clock: steppingClock(), onWait: () => {} });
    const limits = { tpm: 100_000 };

    await expect(withSharedRateLimit(failing({ promptTokens: 900, completionTokens: 250 }), { limiter, limits }).complete(call)).rejects.toThrow(/500/);
    // Its two attempts' prompts and the tokens streamed before the error, not the estimate.
    expect(await windowRow(handle.db, 'openai:fails-after-streaming', W0)).toMatchObject({ requests: 1, tokens: 1_150 });

    await expect(withSharedRateLimit(failing(), { limiter, limits }).complete(call)).rejects.toThrow(/500/);
    expect(await windowRow(handle.db, 'openai:fails-silently', W0)).toMatchObject({ requests: 1, tokens: estimateTokens(call) });
  });
});

describe('rate limits from the environment', () => {
  it('takes OPENAI_RPM and OPENAI_TPM, and a per-model override over them', () => {
    const e = { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', OPENAI_MODEL: undefined, OPENAI_RPM: 60, OPENAI_TPM: 90_000 };
    process.env.OPENAI_RPM_GPT_4O_MINI = '500';
    try {
      expect(rateLimitsOf('gpt-4o-mini', e)).toEqual({ rpm: 500, tpm: 90_000 });
      expect(rateLimitsOf('gpt-4.1', e)).toEqual({ rpm: 60, tpm: 90_000 });
      expect(rateLimitsOf('gpt-4.1', { ...e, OPENAI_RPM: undefined, OPENAI_TPM: undefined })).toEqual({ rpm: undefined, tpm: undefined });
      process.env.OPENAI_RPM_GPT_4O_MINI = 'lots';
      expect(() => rateLimitsOf('gpt-4o-mini', e)).toThrow(/OPENAI_RPM_GPT_4O_MINI/);
    } finally {
      delete process.env.OPENAI_RPM_GPT_4O_MINI;
    }
  });
});
