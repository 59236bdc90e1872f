// A failure is said at once, and exactly as a reload says it (issue 14): the live page reduces the
// run's events (lib/report/run-state.ts) into the same banner reason, step errors, steps that
// could not start and totals as the state a reload builds from the database, in English and in
// Korean. Before, the banner read "The run stopped:" with nothing after it until a reload, and a
// failed step's spend was nowhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { seedDemo } from '@/lib/demo/seed';
import { eventsAfter } from '@/lib/debate/event-log';
import { cancelRun, createRun, executeRun } from '@/lib/debate/engine';
import type { RunParams } from '@/lib/domain/protocol';
import type { Locale } from '@/lib/i18n';
import { failureText, reasonText, stopPhrase, stopReason } from '@/lib/i18n/failures';
import { runFailureMessages } from '@/lib/i18n/messages/run-failures';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { withSpent, type GenerateRequest, type GenerateResult, type ModelProvider } from '@/lib/llm/types';
import { loadLiveState } from '@/lib/report/live-state';
import { blockedBy, reduceRun, type LiveRunState, type WireMessage } from '@/lib/report/run-state';
import type { RunViewTurn } from '@/lib/report/run-view';

/** What a viewer reads on the page: the banner, each step card, what could not start, the figures. */
function seen(s: LiveRunState, locale: Locale) {
  return {
    status: s.status,
    banner: s.error === null ? null : failureText(s.error, locale, s.errorPhrase),
    tokens: s.tokens,
    micros: Math.round(s.costUsd * 1e6),
    reportReady: s.reportReady,
    blocked: blockedBy(s.turns),
    turns: s.turns.map((t) => ({
      step: t.step,
      status: t.status,
      text: t.text,
      claims: t.claims.map((c) => c.id),
      error: t.error === null ? null : failureText(t.error, locale, t.errorPhrase),
      tokens: t.usage.promptTokens + t.usage.completionTokens,
      micros: Math.round(t.usage.costUsd * 1e6),
    })),
  };
}

/** The offline analyst's answers as if from a priced model, `change`d where a test breaks them. */
function priced(change?: (req: GenerateRequest, result: GenerateResult) => GenerateResult): ModelProvider {
  const inner = createOfflineAnalyst();
  return {
    name: 'openai',
    model: 'gpt-4o-mini',
    isLLM: true,
    async generate(req) {
      const result = await inner.generate(req);
      return change ? change(req, result) : result;
    },
  };
}

describe.each(testBackends())('a failure on the live page and after a reload, on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: false });
  }, 90_000);
  afterAll(() => handle?.close());

  /** Runs a run with a viewer on it from the start (following its log): its live state, the state a reload then gives, and the events. */
  async function followed(protocolId: 'kpd-mads' | 'nas', provider: ModelProvider, params: Partial<RunParams> = {}) {
    // Travelers: a NAS prompt short enough that a 1,000-token budget is crossed mid-answer (lib/debate/budget.test.ts),
    // NAS in one call: these cases are about one call stopped part-way.
    const companyId = protocolId === 'nas' ? 'travelers-companies' : 'samsung-electronics';
    const run = await createRun({ db, protocolId, companyId, provider, params: { asOf: '2025-06-30', language: 'en', ...params } });
    const initial = await loadLiveState({ db, runId: run.id });
    await executeRun({ db, runId: run.id, provider, wholeCalls: protocolId === 'nas' });
    const events: WireMessage[] = (await eventsAfter(db, run.id, initial.seq ?? 0, 10_000)).map(({ seq, event }) => ({ ...event, seq }));
    return { live: events.reduce(reduceRun, initial), reloaded: await loadLiveState({ db, runId: run.id }), events, initial };
  }

  it('a step that fails after its repair: the same reason on the banner and the card, the same blocked steps and totals, in English and Korean', async () => {
    const provider = priced((req, result) => (req.step.id === 'D3' ? { ...result, raw: JSON.stringify({ ...JSON.parse(result.raw), claims: [] }) } : result));
    const { live, reloaded, events, initial } = await followed('kpd-mads', provider);
    expect(reloaded.status).toBe('failed');
    for (const locale of ['en', 'ko'] as const) expect(seen(live, locale)).toEqual(seen(reloaded, locale));

    expect(seen(live, 'en').banner).toBe('Step D3 failed; 6 steps could not start. Retry the failed step to continue.');
    expect(seen(live, 'ko').banner).toBe('D3 단계가 실패해 6개 단계를 시작하지 못했습니다. 실패한 단계를 다시 실행하면 이어서 진행합니다.');
    const d3 = (s: LiveRunState, locale: Locale) => seen(s, locale).turns.find((t) => t.step === 'D3')!;
    expect(d3(live, 'en').error).toMatch(/^The output did not meet the step's rules after one repair: .*needs at least 3 claims; got 0\./);
    expect(d3(live, 'ko').error).toMatch(/^한 번 고쳐 달라고 요청한 뒤에도 출력이 이 단계의 규칙에 맞지 않았습니다: .*needs at least 3 claims; got 0\./);
    expect(d3(live, 'en').tokens).toBeGreaterThan(0);
    expect(d3(live, 'en').micros).toBeGreaterThan(0);
    expect(blockedBy(live.turns)).toEqual({ D4: ['D3'], D5: ['D3'], D6: ['D3'], D9: ['D3'], D10: ['D3'], AG: ['D3'] });

    // Before the run's end the steps' own usage already adds up to what the run saved: the failed step's counted.
    const beforeEnd = events.slice(0, -1).reduce(reduceRun, initial);
    expect(beforeEnd.tokens).toEqual(reloaded.tokens);
    expect(beforeEnd.turns.find((t) => t.step === 'D3')).toMatchObject({ status: 'failed', error: reloaded.turns.find((t) => t.step === 'D3')!.error });
  });

  it('a run stopped at its budget mid-answer: the same reason and totals, the stopped call included', async () => {
    const { live, reloaded } = await followed('nas', createOfflineAnalyst(), { maxTokens: 1_000 });
    expect(reloaded.status).toBe('budget_exceeded');
    for (const locale of ['en', 'ko'] as const) expect(seen(live, locale)).toEqual(seen(reloaded, locale));
    const used = reloaded.tokens.prompt + reloaded.tokens.completion;
    expect(used).toBeGreaterThan(1_000);
    expect(seen(live, 'ko').banner).toBe(`토큰 예산 1,000개에 도달했습니다: ${used.toLocaleString('en-US')}개 사용.`);
  });

  it('a run cancelled mid-call: the same state, the cut-off call in the totals', async () => {
    const provider: ModelProvider = {
      name: 'openai',
      model: 'gpt-4o-mini',
      isLLM: true,
      async generate(req) {
        req.budget?.allow(400);
        req.onToken('{"text":"Sales');
        req.budget?.spend(4);
        cancelRun(req.runId);
        throw withSpent(new Error('The model call was cancelled.'), { promptTokens: 420, completionTokens: 4 });
      },
    };
    const { live, reloaded } = await followed('nas', provider);
    expect(reloaded.status).toBe('cancelled');
    for (const locale of ['en', 'ko'] as const) expect(seen(live, locale)).toEqual(seen(reloaded, locale));
    // No prompt cache was reported, so none is counted.
    expect(live.tokens).toEqual({ prompt: 420, completion: 4, cached: 0 });
    expect(seen(live, 'ko').banner).toBe('취소되었습니다.');
  });
});

describe('the live reducer on failures', () => {
  const turn = (step: string, status: RunViewTurn['status'], context: string[] = []): RunViewTurn => ({
    step,
    agent: 'A1',
    team: 'affirmative',
    act: 'constructive',
    context,
    status,
    text: status === 'running' ? '{"text":"Half' : '',
    claims: [],
    questions: [],
    citations: [],
    output: null,
    toolCalls: [],
    startedAt: null,
    finishedAt: null,
    usage: { promptTokens: 0, completionTokens: 0, costUsd: 0 },
    error: null,
    repairs: [],
  });
  const at = '2025-01-01T00:00:00.000Z';
  const state = (): LiveRunState => ({
    runId: 'r1',
    status: 'running',
    error: null,
    turns: [
      turn('D1', 'done'),
      turn('D2', 'running', ['D1']),
      turn('D3', 'pending', ['D2']),
      turn('D4', 'pending', ['D3', 'D1']),
      turn('D5', 'pending', ['D1']),
    ],
    evidence: {},
    tokens: { prompt: 1_000, completion: 200 },
    costUsd: 0.01,
    startedAt: at,
    finishedAt: null,
    reportReady: false,
  });

  it('takes a failed step as saved: no half-written text, its usage on the card and in the totals once; the steps after it cannot start', () => {
    const usage = { promptTokens: 700, completionTokens: 90, costUsd: 0.002 };
    const phrase = stopPhrase('stepError', { reason: stopPhrase('callCancelled') });
    const failed = { type: 'step-failed' as const, runId: 'r1', stepId: 'D2', at, error: reasonText(phrase), errorPhrase: phrase, usage };
    const s = [failed, failed].reduce(reduceRun, state());
    expect(s.turns[1]).toMatchObject({ status: 'failed', text: '', usage, error: 'Stopped by an error: The model call was cancelled.' });
    expect(s.tokens).toEqual({ prompt: 1_700, completion: 290 });
    expect(s.costUsd).toBeCloseTo(0.012, 9);
    expect(blockedBy(s.turns)).toEqual({ D3: ['D2'], D4: ['D2'] });
    expect(failureText(s.turns[1].error!, 'ko', s.turns[1].errorPhrase)).toBe('오류로 멈췄습니다: 모델 호출이 취소되었습니다.');

    const ended = stopPhrase('oneStepFailed', { steps: 'D2', n: 2 });
    const end = reduceRun(s, {
      type: 'run-finished',
      runId: 'r1',
      at,
      status: 'failed',
      error: reasonText(ended),
      errorPhrase: ended,
      totals: { promptTokens: 1_750, completionTokens: 300, costUsd: 0.0125 },
    });
    expect(end).toMatchObject({
      status: 'failed',
      error: 'Step D2 failed; 2 steps could not start. Retry the failed step to continue.',
      errorPhrase: ended,
      tokens: { prompt: 1_750, completion: 300 },
      costUsd: 0.0125,
      finishedAt: at,
    });
    expect(failureText(end.error!, 'ko', end.errorPhrase)).toBe(
      'D2 단계가 실패해 2개 단계를 시작하지 못했습니다. 실패한 단계를 다시 실행하면 이어서 진행합니다.',
    );
    // One step that could not start is one, not "1 steps".
    expect(stopReason('oneStepFailed', { steps: 'D2', n: 1 })).toBe('Step D2 failed; 1 step could not start. Retry the failed step to continue.');
  });

  it('writes every reason in Korean from its phrase, values and nested phrases kept, and shows text without a phrase as it came', () => {
    const left = stopPhrase('leftTokens', { tokens: 1_234 });
    const samples = {
      problems: 'claims: Required',
      reason: 'boom',
      tokens: 1_234,
      cost: '0.0100',
      status: '503 Service Unavailable',
      ms: 120000,
      n: 3,
      steps: 'D3, D7',
      budget: 1_000,
      used: 1_200,
      left,
      step: 'NAS',
    };
    for (const key of Object.keys(runFailureMessages.en) as (keyof typeof runFailureMessages.en)[]) {
      const phrase = stopPhrase(key, samples);
      const english = reasonText(phrase);
      const korean = failureText(english, 'ko', phrase);
      if (key !== 'leftCost') expect(korean, key).not.toBe(english);
      expect(korean, key).not.toMatch(/\{\w+/);
      expect(failureText(english, 'en', phrase)).toBe(english);
    }
    // Budget amounts are written in the reader's language too, not left in English.
    expect(reasonText(stopPhrase('usedAllLeft', { step: 'D4', left }), 'ko')).toBe('예산에 도달해 멈췄습니다: D4 단계가 남은 예산(1,234토큰)을 모두 썼습니다.');
    expect(reasonText(stopPhrase('usedAllLeft', { step: 'D4', left: stopPhrase('leftTokens', { tokens: 1 }) }))).toBe(
      'The run stopped at its budget: step D4 used all that was left (1 token).',
    );
    const nested = stopPhrase('stepError', { reason: stopPhrase('gaveUp', { reason: stopPhrase('endpointUnreachable', { reason: 'ECONNREFUSED' }), n: 4 }) });
    expect(reasonText(nested)).toBe('Stopped by an error: Could not reach the model endpoint: ECONNREFUSED (gave up after 4 attempts)');
    expect(failureText(reasonText(nested), 'ko', nested)).toBe('오류로 멈췄습니다: 모델 엔드포인트에 연결할 수 없습니다: ECONNREFUSED (4회 시도 후 포기)');
    // No text is matched back to a key: a reason without a phrase (stored before phrases were kept) shows as written.
    expect(failureText('Stopped by an error: The model call was cancelled.', 'ko')).toBe('Stopped by an error: The model call was cancelled.');
    expect(failureText('Something only the server knows.', 'ko', null)).toBe('Something only the server knows.');
  });
});
