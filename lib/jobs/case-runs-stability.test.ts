// "Run N times" on a case (docs/stability.md): the runs start in one transaction tagged as one
// stability set, each taking a run slot, each start audited with the set; a set beyond the RM's
// limit starts none. A model's runs on a case get decision-grade sampling unless turned off.
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { insertCase } from '@/lib/db/queries/cases';
import { auditLog, runs, users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { seedDemo } from '@/lib/demo/seed';
import { resetEnvForTests } from '@/lib/env';
import { startCaseRuns } from '@/lib/jobs/case-runs';
import { untilRunEnds, workOn } from '@/lib/jobs/test-wait';
import { decisionGradeParams } from '@/lib/llm';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import type { ModelProvider } from '@/lib/llm/types';

describe('decision-grade sampling', () => {
  it('asks a model for temperature 0 and the configured seed, the offline analyst for nothing', () => {
    const model = { isLLM: true };
    expect(decisionGradeParams(model, { OPENAI_DECISION_GRADE: true, OPENAI_SEED: 1 })).toEqual({ temperature: 0, seed: 1 });
    expect(decisionGradeParams(model, { OPENAI_DECISION_GRADE: true, OPENAI_SEED: 42 })).toEqual({ temperature: 0, seed: 42 });
    // OPENAI_SEED=none: an endpoint that takes no seed gets temperature 0 alone.
    expect(decisionGradeParams(model, { OPENAI_DECISION_GRADE: true, OPENAI_SEED: null })).toEqual({ temperature: 0 });
    expect(decisionGradeParams(model, { OPENAI_DECISION_GRADE: false, OPENAI_SEED: 1 })).toEqual({});
    expect(decisionGradeParams({ isLLM: false }, { OPENAI_DECISION_GRADE: true, OPENAI_SEED: 1 })).toEqual({});
  });
});

describe.each(testBackends())('a stability set on a case, on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let rmId: string;
  let work: Awaited<ReturnType<typeof workOn>> | undefined;
  const offline = createOfflineAnalyst();
  const saved = { ...process.env };

  beforeAll(async () => {
    process.env.AUDIT_SECRET ??= 'case-runs-test-audit-secret-0123456789abcdef';
    process.env.RUNS_PER_USER_LIMIT = '3';
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    delete process.env.OPENAI_DECISION_GRADE;
    delete process.env.OPENAI_SEED;
    resetEnvForTests();
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: true });
    [{ id: rmId }] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'rm'));
    work = await workOn(db);
  }, 90_000);
  afterAll(async () => {
    await work?.stop();
    await handle?.close();
    process.env = { ...saved };
    resetEnvForTests();
  });

  async function draftCase() {
    const kase = await insertCase({
      db,
      values: {
        companyId: 'tesla',
        ownerId: rmId,
        title: 'Stability case',
        loanAmount: '1000000',
        loanCurrency: 'USD',
        loanPurpose: 'Working capital',
        loanTenorMonths: 12,
        asOfDate: '2025-06-30',
        notes: null,
      },
    });
    return { id: kase.id, companyId: 'tesla', asOfDate: '2025-06-30' };
  }
  const params = { language: 'en' as const, recencyDays: 365, maxWebResults: 3 };

  it('starts N runs tagged as one set, audits each with the set, and they finish', async () => {
    const kase = await draftCase();
    const { stabilitySetId, runs: started } = await startCaseRuns({
      db,
      kase,
      actorId: rmId,
      protocolId: 'nas',
      provider: offline,
      mode: 'dag',
      params,
      count: 2,
    });
    expect(stabilitySetId).toMatch(/^[0-9a-f-]{36}$/);
    expect(started).toHaveLength(2);
    const rows = await db.select().from(runs).where(eq(runs.caseId, kase.id));
    expect(rows.map((r) => r.stabilitySetId)).toEqual([stabilitySetId, stabilitySetId]);
    // The offline analyst gets no sampling settings: it is deterministic.
    expect(rows.every((r) => r.params.temperature === undefined && r.params.seed === undefined)).toBe(true);
    const entries = await db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'run.start'),
          inArray(
            auditLog.entityId,
            started.map((r) => r.id),
          ),
        ),
      );
    expect(entries.map((e) => (e.detail as { stabilitySetId?: string }).stabilitySetId)).toEqual([stabilitySetId, stabilitySetId]);
    for (const r of started) expect((await untilRunEnds(db, r.id)).status).toBe('succeeded');
  });

  it('starts none of a set that does not fit in the run limit', async () => {
    const kase = await draftCase();
    const err = await startCaseRuns({ db, kase, actorId: rmId, protocolId: 'nas', provider: offline, mode: 'dag', params, count: 4 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'rate_limited' });
    expect(await db.$count(runs, eq(runs.caseId, kase.id))).toBe(0);
  });

  it('refuses more than five runs', async () => {
    const kase = await draftCase();
    await expect(startCaseRuns({ db, kase, actorId: rmId, protocolId: 'nas', provider: offline, mode: 'dag', params, count: 6 })).rejects.toThrow(RangeError);
  });

  it("gives a model's runs temperature 0 and seed 1 by default, the caller's own sampling when it sets one", async () => {
    const model: ModelProvider = { name: 'openai', model: 'stub-model', isLLM: true, generate: () => Promise.reject(new Error('not called')) };
    const kase = await draftCase();
    // Not queued: nothing executes these runs, only their parameters are read.
    const graded = await startCaseRuns({ db, kase, actorId: rmId, protocolId: 'nas', provider: model, mode: 'dag', params, count: 1, queue: false });
    expect(graded.stabilitySetId).toBeNull();
    expect(graded.runs[0].params).toMatchObject({ temperature: 0, seed: 1 });
    const own = await startCaseRuns({
      db,
      kase,
      actorId: rmId,
      protocolId: 'nas',
      provider: model,
      mode: 'dag',
      params: { ...params, temperature: 0.7 },
      count: 2,
      queue: false,
    });
    expect(own.runs.map((r) => r.params.temperature)).toEqual([0.7, 0.7]);
    expect(own.runs.map((r) => r.params.seed)).toEqual([1, 1]);
  });
});
