// Starting a run on a case (the case page's startRun action, lib/jobs/case-runs.ts): the run is
// created as of the case's date, the case becomes `analyzing` and the start is audited, all in one
// transaction, and only then does the runner take the run. A refusal (the case went to the
// committee, or the RM has as many runs going as allowed) says why and writes nothing.
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { insertCase } from '@/lib/db/queries/cases';
import { auditLog, cases, runs, users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { createRun } from '@/lib/debate/engine';
import { seedDemo } from '@/lib/demo/seed';
import type { CaseStatus } from '@/lib/domain/vocabulary';
import { resetEnvForTests } from '@/lib/env';
import { AppError } from '@/lib/errors';
import { startCaseRun } from '@/lib/jobs/case-runs';
import { untilRunEnds, workOn } from '@/lib/jobs/test-wait';
import { createOfflineAnalyst } from '@/lib/llm/offline';

describe.each(testBackends())('starting a run on a case, on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let rmId: string;
  let work: Awaited<ReturnType<typeof workOn>> | undefined;
  const offline = createOfflineAnalyst();
  const saved = { ...process.env };

  beforeAll(async () => {
    // The offline analyst, executed by a worker on the test database; a fixed audit key.
    process.env.AUDIT_SECRET ??= 'case-runs-test-audit-secret-0123456789abcdef';
    process.env.RUNS_PER_USER_LIMIT = '2';
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
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

  async function caseIn(status: CaseStatus) {
    const kase = await insertCase({
      db,
      values: {
        companyId: 'tesla',
        ownerId: rmId,
        title: `Case ${status}`,
        loanAmount: '1000000',
        loanCurrency: 'USD',
        loanPurpose: 'Working capital',
        loanTenorMonths: 12,
        asOfDate: '2025-06-30',
        notes: null,
      },
    });
    await db.update(cases).set({ status }).where(eq(cases.id, kase.id));
    return { id: kase.id, companyId: 'tesla', asOfDate: '2025-06-30' };
  }

  const start = (kase: { id: string; companyId: string; asOfDate: string }) =>
    startCaseRun({
      db,
      kase,
      actorId: rmId,
      protocolId: 'nas',
      provider: offline,
      mode: 'dag',
      params: { language: 'en', recencyDays: 365, maxWebResults: 3, maxTokens: 500_000 },
    });

  const starts = async () => (await db.select({ n: count() }).from(auditLog).where(eq(auditLog.action, 'run.start')))[0].n;

  it('creates the run as of the case date, marks the case analyzing, audits the start, and the run then finishes', async () => {
    const kase = await caseIn('draft');
    const run = await start(kase);
    expect(run).toMatchObject({ caseId: kase.id, createdById: rmId, protocol: 'nas', provider: 'offline', mode: 'dag' });
    expect(run.params).toMatchObject({ asOf: '2025-06-30', language: 'en', recencyDays: 365, maxWebResults: 3, maxTokens: 500_000 });
    expect((await db.select({ status: cases.status }).from(cases).where(eq(cases.id, kase.id)))[0].status).toBe('analyzing');
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'run.start'), eq(auditLog.entityId, run.id)));
    expect(entry).toMatchObject({ actorId: rmId, entityType: 'run' });
    expect(entry.detail).toEqual({
      caseId: kase.id,
      protocol: 'nas',
      provider: 'offline',
      model: offline.model,
      mode: 'dag',
      language: 'en',
      maxTokens: 500_000,
    });
    expect((await untilRunEnds(db, run.id)).status).toBe('succeeded');
  });

  it.each(['submitted', 'decided'] as const)('refuses a %s case with a conflict and writes nothing', async (status) => {
    const kase = await caseIn(status);
    const before = await starts();
    const err = await start(kase).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'conflict', message: 'This case is with the committee; start no new runs on it.' });
    expect(await db.$count(runs, eq(runs.caseId, kase.id))).toBe(0);
    expect(await starts()).toBe(before);
  });

  it('refuses a start beyond the run limit as rate limited and writes nothing', async () => {
    const kase = await caseIn('draft');
    // Two runs of the RM's queued (not started): the limit of two is reached.
    for (let i = 0; i < 2; i++)
      await createRun({
        db,
        protocolId: 'nas',
        companyId: 'tesla',
        provider: offline,
        params: { asOf: '2025-06-30', language: 'en' },
        caseId: kase.id,
        createdById: rmId,
      });
    const before = await starts();
    const err = await start(kase).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'rate_limited' });
    expect((err as Error).message).toMatch(/^You already have 2 analyses queued or running/);
    expect(await db.$count(runs, eq(runs.caseId, kase.id))).toBe(2);
    expect((await db.select({ status: cases.status }).from(cases).where(eq(cases.id, kase.id)))[0].status).toBe('draft');
    expect(await starts()).toBe(before);
  });
});
