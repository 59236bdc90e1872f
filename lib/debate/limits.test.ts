// Budgets and the per-user run limit on a real database: a run over its token or cost budget
// stops as budget_exceeded with its finished steps kept and nothing more started; a user at the
// limit cannot start another run, and the refusal writes nothing.
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { getRun, listRunSteps, setRunStatus } from '@/lib/db/queries/runs';
import { seedDemo } from '@/lib/demo/seed';
import { runs, runSteps, users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { runBus } from '@/lib/debate/bus';
import { createRun, executeRun } from '@/lib/debate/engine';
import { getProtocol } from '@/lib/debate/protocols';
import { budgetOverrun, claimRunSlot, defaultBudget, RunLimitReached } from '@/lib/debate/limits';
import { reasonText } from '@/lib/i18n/failures';
import type { RunEvent } from '@/lib/domain/protocol';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import type { GenerateRequest, GenerateResult, ModelProvider } from '@/lib/llm/types';

/**
 * The offline analyst's answers with a model's usage: 1,000 prompt and 1,000 completion tokens a
 * step, reported when the step ends (it does not meter itself: the checks between steps stop it).
 */
function metered(hooks: { before?: (req: GenerateRequest) => Promise<void> | void } = {}) {
  const inner = createOfflineAnalyst();
  const calls: string[] = [];
  const provider: ModelProvider = {
    name: 'openai',
    // A listed price: 1,000 + 1,000 tokens cost $0.0125 a step.
    model: 'gpt-4o',
    isLLM: true,
    async generate(req): Promise<GenerateResult> {
      calls.push(req.step.id);
      await hooks.before?.(req);
      const result = await inner.generate({ ...req, budget: undefined });
      return { ...result, usage: { promptTokens: 1_000, completionTokens: 1_000 } };
    },
  };
  return { provider, calls };
}

function finishedEvents(runId: string) {
  const events: RunEvent[] = [];
  const { unsubscribe } = runBus().subscribe(runId, (e) => {
    if (e.type === 'run-finished') events.push(e);
  });
  return { events, stop: unsubscribe };
}

describe.each(testBackends())('run budgets and the per-user limit on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  const params = { asOf: '2025-06-30', language: 'en' as const };

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: false });
  });
  afterAll(() => handle?.close());

  it('stops a run over its token budget: finished steps kept, the step in flight back to pending, nothing more started', async () => {
    // The steps that answer D1 alone start together once it is done. D2 ends (4,000 tokens with
    // D1, budget 2,500) when the others are all in flight; they wait for the abort.
    const afterD1 = getProtocol('kpd-mads')
      .steps.filter((s) => s.context.length > 0 && s.context.every((c) => c === 'D1'))
      .map((s) => s.id);
    expect(afterD1).toContain('D2');
    let inFlight = 0;
    let othersStarted!: () => void;
    const others = new Promise<void>((resolve) => (othersStarted = resolve));
    const { provider, calls } = metered({
      before: async (req) => {
        if (req.step.id === 'D1') return;
        if (req.step.id === 'D2') return others;
        if (++inFlight === afterD1.length - 1) othersStarted();
        await new Promise((_, reject) => req.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
      },
    });
    const run = await createRun({ db, protocolId: 'kpd-mads', companyId: 'tesla', provider, params: { ...params, maxTokens: 2_500 } });
    const { events, stop } = finishedEvents(run.id);
    const result = await executeRun({ db, runId: run.id, provider });
    stop();

    expect(result.status).toBe('budget_exceeded');
    // Nothing started after D2: not the steps D2 made ready, nor anything later.
    expect(calls.sort()).toEqual(['D1', ...afterD1].sort());
    const steps = await listRunSteps({ db, runId: run.id });
    expect(steps.filter((s) => s.status === 'done').map((s) => s.stepId)).toEqual(['D1', 'D2']);
    expect(steps.filter((s) => s.status !== 'done').every((s) => s.status === 'pending')).toBe(true);
    const saved = await getRun({ db, id: run.id });
    expect(saved).toMatchObject({ status: 'budget_exceeded', promptTokens: 2_000, completionTokens: 2_000 });
    expect(saved!.finishedAt).not.toBeNull();
    expect(saved!.error).toBe('The run reached its token budget of 2,500 tokens: 4,000 used.');
    expect(events).toEqual([expect.objectContaining({ type: 'run-finished', status: 'budget_exceeded', error: saved!.error })]);

    // Started again, it is still over budget: it stops before calling the model.
    expect((await executeRun({ db, runId: run.id, provider })).status).toBe('budget_exceeded');
    expect(calls).toHaveLength(afterD1.length + 1);
  });

  it('stops a sequential run at its cost budget after the step that reached it', async () => {
    const { provider, calls } = metered();
    const run = await createRun({ db, protocolId: 'kpd-mads', companyId: 'tesla', provider, mode: 'sequential', params: { ...params, maxCostUsd: 0.02 } });
    const result = await executeRun({ db, runId: run.id, provider });
    expect(result).toMatchObject({ status: 'budget_exceeded', error: 'The run reached its cost budget of $0.0200: $0.0250 used.' });
    expect(calls).toEqual(['D1', 'D2']);
    expect((await listRunSteps({ db, runId: run.id })).filter((s) => s.status === 'done')).toHaveLength(2);
  });

  it('lets a run finish when its last step is the one that reaches the budget', async () => {
    const { provider } = metered();
    // NAS in one call is one step: it uses 2,000 tokens of a 2,000-token budget, and nothing is left to stop.
    const run = await createRun({ db, protocolId: 'nas', companyId: 'tesla', provider, params: { ...params, maxTokens: 2_000 } });
    expect((await executeRun({ db, runId: run.id, provider, wholeCalls: true })).status).toBe('succeeded');
  });

  it('takes budget defaults from RUN_MAX_TOKENS and RUN_MAX_COST_USD, and words an overrun with its limit and use', () => {
    expect(defaultBudget({ RUN_MAX_TOKENS: 50_000, RUN_MAX_COST_USD: undefined })).toEqual({ maxTokens: 50_000 });
    expect(defaultBudget({ RUN_MAX_TOKENS: undefined, RUN_MAX_COST_USD: 1.5 })).toEqual({ maxCostUsd: 1.5 });
    expect(budgetOverrun({}, { promptTokens: 1e9, completionTokens: 0, costUsd: '999' })).toBeNull();
    expect(budgetOverrun({ maxTokens: 10_000 }, { promptTokens: 6_000, completionTokens: 3_999, costUsd: 0 })).toBeNull();
    const overrun = budgetOverrun({ maxCostUsd: 0.5 }, { promptTokens: 0, completionTokens: 0, costUsd: '0.612300' })!;
    expect(reasonText(overrun)).toBe('The run reached its cost budget of $0.5000: $0.6123 used.');
    expect(reasonText(overrun, 'ko')).toBe('비용 예산 $0.5000에 도달했습니다: $0.6123 사용.');
    expect(reasonText(budgetOverrun({ maxTokens: 10_000 }, { promptTokens: 6_000, completionTokens: 4_500, costUsd: 0 })!, 'ko')).toBe(
      '토큰 예산 10,000개에 도달했습니다: 10,500개 사용.',
    );
  });

  it('refuses a fifth queued or running run of one user and writes nothing; a finished run frees a slot', async () => {
    const [user] = await db
      .insert(users)
      .values({ email: `limit-${backend}@example.test`, name: 'Limit RM', role: 'rm' })
      .returning({ id: users.id });
    const offline = createOfflineAnalyst();
    const start = () =>
      db.transaction(async (tx) => {
        await claimRunSlot({ db: tx, userId: user.id, limit: 4 });
        return createRun({ db: tx, protocolId: 'nas', companyId: 'tesla', provider: offline, params, createdById: user.id });
      });
    const started = [];
    for (let i = 0; i < 4; i++) started.push(await start());
    const totals = async () => ({
      runs: (await db.select({ n: count() }).from(runs))[0].n,
      steps: (await db.select({ n: count() }).from(runSteps))[0].n,
    });
    const before = await totals();

    const refused = await start().catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(RunLimitReached);
    expect((refused as Error).message).toBe(
      'You already have 4 analyses queued or running, the most one person may run at once. Wait for one to finish or cancel one, then start again.',
    );
    expect(await totals()).toEqual(before);

    await setRunStatus({ db, id: started[0].id, status: 'succeeded' });
    expect((await start()).createdById).toBe(user.id);
    expect(await db.select({ id: runs.id }).from(runs).where(eq(runs.createdById, user.id))).toHaveLength(5);
  });

  it('lets only one of two simultaneous starts take the last slot', async () => {
    const [user] = await db
      .insert(users)
      .values({ email: `race-${backend}@example.test`, name: 'Race RM', role: 'rm' })
      .returning({ id: users.id });
    const offline = createOfflineAnalyst();
    const start = () =>
      db.transaction(async (tx) => {
        await claimRunSlot({ db: tx, userId: user.id, limit: 2 });
        return createRun({ db: tx, protocolId: 'nas', companyId: 'tesla', provider: offline, params, createdById: user.id });
      });
    await start();
    const outcomes = await Promise.allSettled([start(), start()]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({ reason: expect.any(RunLimitReached) });
    expect(await db.select({ id: runs.id }).from(runs).where(eq(runs.createdById, user.id))).toHaveLength(2);
  });
});
