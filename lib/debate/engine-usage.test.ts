// Every attempt counts (issue 14): what a step's attempts spent — the one its repair replaced, a
// call that failed part-way, a call cut off by a cancellation — is in the step's figures when the
// step is saved, and in the run's totals always. Before, a failed step saved nothing of its own,
// and a provider's failed call counted only our estimate of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { getRun, listRunSteps } from '@/lib/db/queries/runs';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { seedDemo } from '@/lib/demo/seed';
import { runBus } from '@/lib/debate/bus';
import { cancelRun, createRun, executeRun } from '@/lib/debate/engine';
import type { RunEvent } from '@/lib/domain/protocol';
import { failureText, stopPhrase } from '@/lib/i18n/failures';
import { cancelled, LlmError } from '@/lib/llm/openai';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { costOf } from '@/lib/llm/prices';
import { withSpent, type GenerateRequest, type GenerateResult, type ModelProvider } from '@/lib/llm/types';

const MODEL = 'gpt-4o-mini';
const params = { asOf: '2025-06-30', language: 'en' as const };

/** The offline analyst's answers as if from a priced model, each call's usage recorded by step. */
function priced(change?: (req: GenerateRequest, result: GenerateResult) => GenerateResult) {
  const inner = createOfflineAnalyst();
  const calls: { step: string; promptTokens: number; completionTokens: number }[] = [];
  const provider: ModelProvider = {
    name: 'openai',
    model: MODEL,
    isLLM: true,
    async generate(req) {
      const result = await inner.generate(req);
      calls.push({ step: req.step.id, ...result.usage });
      return change ? change(req, result) : result;
    },
  };
  return { provider, calls };
}

/** A provider whose one call streams a little, then fails or waits to be cancelled. */
function breaking(how: {
  promptTokens: number;
  chunks: number;
  then: 'error' | 'cancel';
  spent?: { promptTokens: number; completionTokens: number };
}): ModelProvider {
  return {
    name: 'openai',
    model: MODEL,
    isLLM: true,
    async generate(req) {
      req.budget?.allow(how.promptTokens);
      for (let i = 0; i < how.chunks; i++) {
        req.onToken('{"text":"Re');
        req.budget?.spend(10);
      }
      let err: Error;
      if (how.then === 'cancel') {
        cancelRun(req.runId);
        err = cancelled();
      } else {
        // As the provider says it (lib/llm/openai.ts): English text, and the phrase the page writes in Korean.
        err = new LlmError('server', stopPhrase('gaveUp', { reason: stopPhrase('endpointAnswered', { status: '500 Internal Server Error' }), n: 4 }), {
          status: 500,
          attempts: 4,
        });
      }
      throw how.spent ? withSpent(err, how.spent) : err;
    },
  };
}

const tokensOf = (r: { promptTokens: number; completionTokens: number }) => ({ promptTokens: r.promptTokens, completionTokens: r.completionTokens });

describe.each(testBackends())('what every attempt spent, on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: false });
  }, 90_000);
  afterAll(() => handle?.close());

  it("saves both attempts of a step that failed after its repair, and the run's totals are its steps' sum", async () => {
    // D3 must make three claims; it answers with none, twice.
    const { provider, calls } = priced((req, result) =>
      req.step.id === 'D3' ? { ...result, raw: JSON.stringify({ ...JSON.parse(result.raw), claims: [] }) } : result,
    );
    const run = await createRun({ db, protocolId: 'kpd-mads', companyId: 'samsung-electronics', provider, params });
    const events: RunEvent[] = [];
    const { unsubscribe } = runBus().subscribe(run.id, (e) => events.push(e));
    const result = await executeRun({ db, runId: run.id, provider });
    unsubscribe();
    expect(result.status).toBe('failed');

    const d3Calls = calls.filter((c) => c.step === 'D3');
    expect(d3Calls).toHaveLength(2);
    const d3Tokens = {
      promptTokens: d3Calls[0].promptTokens + d3Calls[1].promptTokens,
      completionTokens: d3Calls[0].completionTokens + d3Calls[1].completionTokens,
    };
    const steps = await listRunSteps({ db, runId: run.id });
    const d3 = steps.find((s) => s.stepId === 'D3')!;
    expect(d3.status).toBe('failed');
    expect(d3.error).toMatch(/^The output did not meet the step's rules after one repair: .*needs at least 3 claims; got 0\./);
    expect(tokensOf(d3)).toEqual(d3Tokens);
    expect(Number(d3.costUsd)).toBeCloseTo(costOf(MODEL, d3Tokens), 6);
    expect(Number(d3.costUsd)).toBeGreaterThan(0);

    // The run's totals: every call, the failed step's included, and the sum of its steps'.
    const saved = await getRun({ db, id: run.id });
    const sum = (key: 'promptTokens' | 'completionTokens') => calls.reduce((n, c) => n + c[key], 0);
    expect(tokensOf(saved)).toEqual({ promptTokens: sum('promptTokens'), completionTokens: sum('completionTokens') });
    expect(saved.promptTokens).toBe(steps.reduce((n, s) => n + s.promptTokens, 0));
    expect(saved.completionTokens).toBe(steps.reduce((n, s) => n + s.completionTokens, 0));
    expect(Number(saved.costUsd)).toBeCloseTo(
      steps.reduce((n, s) => n + Number(s.costUsd), 0),
      6,
    );

    // Viewers hear the same at once: the step's usage with its failure, the run's reason and totals at its end.
    const failed = events.find((e): e is Extract<RunEvent, { type: 'step-failed' }> => e.type === 'step-failed')!;
    expect(failed).toMatchObject({ stepId: 'D3', error: d3.error, usage: { ...d3Tokens, costUsd: Number(d3.costUsd) } });
    const finished = events.find((e): e is Extract<RunEvent, { type: 'run-finished' }> => e.type === 'run-finished')!;
    expect(finished).toMatchObject({ status: 'failed', error: saved.error, totals: { ...tokensOf(saved), costUsd: Number(saved.costUsd) } });
    expect(saved.error).toBe('Step D3 failed; 6 steps could not start. Retry the failed step to continue.');
    expect(failureText(saved.error!, 'ko', saved.errorPhrase)).toBe(
      'D3 단계가 실패해 6개 단계를 시작하지 못했습니다. 실패한 단계를 다시 실행하면 이어서 진행합니다.',
    );
  });

  it('saves what a call that failed part-way spent on its step, as the provider counted it', async () => {
    // NAS in one call (its report's sections each spend alike: lib/debate/engine-sections.test.ts).
    const provider = breaking({ promptTokens: 300, chunks: 2, then: 'error', spent: { promptTokens: 640, completionTokens: 35 } });
    const run = await createRun({ db, protocolId: 'nas', companyId: 'travelers-companies', provider, params });
    expect((await executeRun({ db, runId: run.id, provider, wholeCalls: true })).status).toBe('failed');
    const [step] = await listRunSteps({ db, runId: run.id });
    // The provider's count (two attempts' prompts, what streamed) replaces the estimate of 300 + 20.
    expect(tokensOf(step)).toEqual({ promptTokens: 640, completionTokens: 35 });
    expect(step.error).toBe('Stopped by an error: The model endpoint answered 500 Internal Server Error (gave up after 4 attempts)');
    expect(failureText(step.error!, 'ko', step.errorPhrase)).toBe(
      '오류로 멈췄습니다: 모델 엔드포인트가 오류로 응답했습니다: 500 Internal Server Error (4회 시도 후 포기)',
    );
    const saved = await getRun({ db, id: run.id });
    expect(tokensOf(saved)).toEqual({ promptTokens: 640, completionTokens: 35 });
    expect(Number(saved.costUsd)).toBeCloseTo(costOf(MODEL, { promptTokens: 640, completionTokens: 35 }), 6);

    // Without the provider's count, the meter's estimate stands: the prompt and what streamed.
    const silent = breaking({ promptTokens: 300, chunks: 2, then: 'error' });
    const other = await createRun({ db, protocolId: 'nas', companyId: 'travelers-companies', provider: silent, params });
    await executeRun({ db, runId: other.id, provider: silent, wholeCalls: true });
    expect(tokensOf((await listRunSteps({ db, runId: other.id }))[0])).toEqual({ promptTokens: 300, completionTokens: 20 });
    expect(tokensOf(await getRun({ db, id: other.id }))).toEqual({ promptTokens: 300, completionTokens: 20 });
  });

  it("counts a call cut off by a cancellation in the run's totals; its step goes back to pending", async () => {
    const provider = breaking({ promptTokens: 500, chunks: 4, then: 'cancel', spent: { promptTokens: 510, completionTokens: 44 } });
    const run = await createRun({ db, protocolId: 'nas', companyId: 'travelers-companies', provider, params });
    const events: RunEvent[] = [];
    const { unsubscribe } = runBus().subscribe(run.id, (e) => events.push(e));
    expect((await executeRun({ db, runId: run.id, provider, wholeCalls: true })).status).toBe('cancelled');
    unsubscribe();
    const saved = await getRun({ db, id: run.id });
    expect(tokensOf(saved)).toEqual({ promptTokens: 510, completionTokens: 44 });
    expect(saved.error).toBe('Cancelled.');
    const [step] = await listRunSteps({ db, runId: run.id });
    expect(step.status).toBe('pending');
    expect(events.at(-1)).toMatchObject({
      type: 'run-finished',
      status: 'cancelled',
      error: 'Cancelled.',
      totals: { promptTokens: 510, completionTokens: 44 },
    });

    // The offline analyst cut off mid-answer: its prompt and the part it streamed.
    const offline = createOfflineAnalyst();
    const cut = await createRun({ db, protocolId: 'nas', companyId: 'travelers-companies', provider: offline, params });
    let streamed = 0;
    const sub = runBus().subscribe(cut.id, (e) => {
      if (e.type === 'step-usage' && ++streamed === 5) cancelRun(cut.id);
    });
    expect((await executeRun({ db, runId: cut.id, provider: offline })).status).toBe('cancelled');
    sub.unsubscribe();
    const partial = await getRun({ db, id: cut.id });
    expect(partial.promptTokens).toBeGreaterThan(0);
    expect(partial.completionTokens).toBeGreaterThan(0);
  });
});
