// Finding 6 of the security review: work reran on a decided case. Retry and cancel check the
// case's state on the server, in the transaction of the write: on a submitted or decided case
// they are refused with a message that says why and change nothing (run, steps, audit log); on a
// draft or returned case they work. Evidence cited by a submitted or decided case is frozen.
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { countActiveRunsOfCase, insertCase } from '@/lib/db/queries/cases';
import { getRun, listRunSteps, markStepFailed, setRunStatus } from '@/lib/db/queries/runs';
import { auditLog, cases, users } from '@/lib/db/schema';
import type { CaseStatus } from '@/lib/domain/vocabulary';
import { seedDemo } from '@/lib/demo/seed';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { cancelCaseRun, retryCaseRun } from '@/lib/jobs/case-runs';
import { createRun } from '@/lib/debate/engine';
import { untilRunEnds, workOn } from '@/lib/jobs/test-wait';
import { resetEnvForTests } from '@/lib/env';
import { AppError } from '@/lib/errors';
import { createOfflineAnalyst } from '@/lib/llm/offline';

describe.each(testBackends())('the state of a case decides what happens to its runs, on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let rmId: string;
  let work: Awaited<ReturnType<typeof workOn>> | undefined;
  const offline = createOfflineAnalyst();

  beforeAll(async () => {
    // The offline analyst, executed by a worker on the test database; a fixed audit key.
    process.env.AUDIT_SECRET ??= 'case-runs-test-audit-secret-0123456789abcdef';
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
  });

  /** A case of the demo RM in `status` with one NAS run that failed (or is still queued: `active`). */
  async function caseWithRun(status: CaseStatus, { active = false } = {}) {
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
    const run = await createRun({
      db,
      protocolId: 'nas',
      companyId: 'tesla',
      provider: offline,
      params: { asOf: '2025-06-30', language: 'en' },
      caseId: kase.id,
      createdById: rmId,
    });
    if (!active) {
      await markStepFailed({ db, runId: run.id, stepId: 'NAS', error: 'injected' });
      await setRunStatus({ db, id: run.id, status: 'cancelled', error: 'Cancelled.' });
    }
    await db.update(cases).set({ status }).where(eq(cases.id, kase.id));
    return { caseId: kase.id, run: { id: run.id, caseId: kase.id, createdById: rmId } };
  }

  async function snapshot(runId: string) {
    const run = await getRun({ db, id: runId });
    const steps = await listRunSteps({ db, runId });
    const [{ n }] = await db.select({ n: count() }).from(auditLog);
    return { status: run.status, error: run.error, steps: steps.map((s) => ({ stepId: s.stepId, status: s.status, attempt: s.attempt })), audit: n };
  }

  const refusal = (err: unknown) => (err instanceof AppError ? { code: err.code, message: err.message } : err);

  it.each([
    ['decided', 'This case was decided; its runs cannot be retried.'],
    ['submitted', 'This case is with the credit committee; its runs cannot be retried.'],
  ] as const)('a cancelled run of a %s case is not retried: the refusal says why and nothing changes', async (status, message) => {
    const { run } = await caseWithRun(status);
    const before = await snapshot(run.id);
    const err = await retryCaseRun({ db, run, actorId: rmId }).catch((e: unknown) => e);
    expect(refusal(err)).toEqual({ code: 'conflict', message });
    expect(await snapshot(run.id)).toEqual(before);
    expect(before.status).toBe('cancelled');
  });

  it.each([
    ['decided', 'This case was decided; its runs cannot be cancelled.'],
    ['submitted', 'This case is with the credit committee; its runs cannot be cancelled.'],
  ] as const)('a queued run of a %s case is not cancelled: the refusal says why and nothing changes', async (status, message) => {
    const { run } = await caseWithRun(status, { active: true });
    const before = await snapshot(run.id);
    const err = await cancelCaseRun({ db, run, actorId: rmId }).catch((e: unknown) => e);
    expect(refusal(err)).toEqual({ code: 'conflict', message });
    expect(await snapshot(run.id)).toEqual(before);
    expect(before.status).toBe('queued');
  });

  it.each(['draft', 'returned'] as const)(
    "a %s case is the RM's: its cancelled run is retried to the end, and a queued one cancelled, each audited",
    async (status) => {
      const { run } = await caseWithRun(status);
      const audit = (await snapshot(run.id)).audit;
      await retryCaseRun({ db, run, actorId: rmId });
      expect((await untilRunEnds(db, run.id)).status).toBe('succeeded');
      const retried = await db.select({ action: auditLog.action, entityId: auditLog.entityId }).from(auditLog).where(eq(auditLog.entityId, run.id));
      // The retry, then the seal of the calls the run made when it ended (docs/case-file.md).
      expect(retried).toEqual([
        { action: 'run.retry', entityId: run.id },
        { action: 'run.calls_sealed', entityId: run.id },
      ]);

      const queued = await caseWithRun(status, { active: true });
      await cancelCaseRun({ db, run: queued.run, actorId: rmId });
      expect((await getRun({ db, id: queued.run.id })).status).toBe('cancelled');
      // The retry, its run's seal and the cancellation (the queued run asked nothing: no seal).
      expect((await snapshot(queued.run.id)).audit).toBe(audit + 3);
    },
  );

  it('counts the active runs that keep a case from being submitted', async () => {
    const { caseId, run } = await caseWithRun('draft', { active: true });
    expect(await countActiveRunsOfCase({ db, caseId })).toBe(1);
    await setRunStatus({ db, id: run.id, status: 'succeeded' });
    expect(await countActiveRunsOfCase({ db, caseId })).toBe(0);
  });
});
