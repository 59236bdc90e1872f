// Fifty run starts at once (issue 25, finding 13). On PostgreSQL a start sends its run's job in the
// transaction that commits the run, so under load a worker can take the run and finish it before
// its own start has answered; in-process the start hands the committed run to the runner, and a
// second tab can cancel it in that moment on either database. The runner then refuses the run as
// no longer queued, and the caller used to get "Something went wrong" for a run that existed. Every
// caller must get its run or a named refusal, and every run that exists must be some caller's answer.
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { getCaseById, insertCase } from '@/lib/db/queries/cases';
import { getRun } from '@/lib/db/queries/runs';
import { insertUser } from '@/lib/db/queries/users';
import { runs } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { createRun, isRunActive } from '@/lib/debate/engine';
import { seedDemo } from '@/lib/demo/seed';
import { resetEnvForTests } from '@/lib/env';
import { AppError } from '@/lib/errors';
import { getBoss, RUN_QUEUE, stopBoss } from '@/lib/jobs/boss';
import { retryCaseRun, startCaseRun } from '@/lib/jobs/case-runs';
import { runner } from '@/lib/jobs/runner';
import { startWorker, type QueueWorker } from '@/lib/jobs/worker';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { waitFor } from '@/lib/jobs/test-wait';

const USERS = 10;
const STARTS_PER_USER = 5;
const LIMIT = STARTS_PER_USER;
const FINAL = ['succeeded', 'failed', 'cancelled', 'insufficient_evidence'];

/**
 * The database as a start sees it, with `between` run after its transaction commits and before
 * it hands the run to the runner: what a slow caller (waiting for a pooled connection) lets happen.
 */
function slowAfterCommit(db: Db, between: (runId: string) => Promise<void>): Db {
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop !== 'transaction') return Reflect.get(target, prop, receiver);
      return async (...args: Parameters<Db['transaction']>) => {
        // A start's transaction commits its runs (one, or a stability set's several).
        const committed = (await target.transaction(...args)) as { id: string } | { id: string }[];
        for (const run of Array.isArray(committed) ? committed : [committed]) await between(run.id);
        return committed;
      };
    },
  });
}

describe.each(testBackends())('fifty run starts at once, on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let worker: QueueWorker | undefined;
  const saved = { ...process.env };
  const offline = createOfflineAnalyst();

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    if (backend === 'postgres') {
      // The queue runner, and a worker.
      const server = new URL(process.env.TEST_DATABASE_URL!);
      server.pathname = `/${handle.location.split('/')[1]}`;
      process.env.DATABASE_URL = server.toString();
    } else {
      delete process.env.DATABASE_URL;
    }
    process.env.RUNS_PER_USER_LIMIT = String(LIMIT);
    process.env.AUDIT_SECRET ??= 'case-runs-race-test-audit-secret-0123456789';
    resetEnvForTests();
    await seedDemo(db, { accounts: false });
    worker = await startWorker({ concurrency: 4, workerId: 'race-worker', db, pollIntervalMs: 500 });
  }, 90_000);

  afterAll(async () => {
    await worker?.stop({ timeoutMs: 0 });
    await stopBoss(db);
    await handle?.close();
    process.env = { ...saved };
    resetEnvForTests();
  });

  it('answers every caller with its run or the run limit, never an internal error, though runs are taken, finished or cancelled before their hand-over', async () => {
    const callers: { userId: string; kase: { id: string; companyId: string; asOfDate: string } }[] = [];
    const userIds: string[] = [];
    for (let u = 0; u < USERS; u++) {
      const user = await insertUser({ db, email: `race-${u}@example.test`, name: `Race RM ${u}`, role: 'rm', passwordHash: null });
      userIds.push(user.id);
      for (let c = 0; c < STARTS_PER_USER; c++) {
        const kase = await insertCase({
          db,
          values: {
            companyId: 'tesla',
            ownerId: user.id,
            title: `Race ${u}.${c}`,
            loanAmount: '1000000',
            loanCurrency: 'USD',
            loanPurpose: 'Working capital',
            loanTenorMonths: 12,
            asOfDate: '2025-06-30',
            notes: null,
          },
        });
        callers.push({ userId: user.id, kase: { id: kase.id, companyId: 'tesla', asOfDate: '2025-06-30' } });
      }
    }
    // The last user is at the limit already: runs executing on a worker elsewhere, so each of their
    // five starts is refused.
    const atLimit = userIds[USERS - 1];
    const held: string[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const run = await createRun({
        db,
        protocolId: 'nas',
        companyId: 'tesla',
        provider: offline,
        params: { asOf: '2025-06-30', language: 'en' },
        createdById: atLimit,
      });
      await db
        .update(runs)
        .set({ status: 'running', workerId: 'elsewhere', leaseExpiresAt: sql`now() + interval '10 minutes'` })
        .where(eq(runs.id, run.id));
      held.push(run.id);
    }

    const cancelled = new Set<string>();
    const finishedFirst = new Set<string>();
    const results = await Promise.allSettled(
      callers.map(({ userId, kase }, i) => {
        // Each user's first run is cancelled from another tab right after its commit; their second
        // is finished by the worker before its start answers.
        const between = async (runId: string) => {
          if (i % STARTS_PER_USER === 0) {
            if (await runner.cancel({ db, runId })) cancelled.add(runId);
          } else if (i % STARTS_PER_USER === 1) {
            await waitFor('the worker to finish the run', async () => FINAL.includes((await getRun({ db, id: runId })).status));
            finishedFirst.add(runId);
          }
        };
        return startCaseRun({
          db: slowAfterCommit(db, between),
          kase,
          actorId: userId,
          protocolId: 'nas',
          provider: offline,
          mode: 'dag',
          params: { language: 'en', recencyDays: 365, maxWebResults: 3 },
        });
      }),
    );

    // Not one internal error: a caller gets its run, or (the user at the limit) the limit's refusal.
    const unexpected = results.flatMap((result, i) =>
      result.status === 'rejected' && callers[i].userId !== atLimit
        ? [`${(result.reason as Error).constructor.name}: ${(result.reason as Error).message}`]
        : [],
    );
    expect(unexpected).toEqual([]);
    const answered = new Set<string>();
    const refusals: unknown[] = [];
    results.forEach((result, i) => {
      if (result.status === 'fulfilled') {
        expect(result.value).toMatchObject({ caseId: callers[i].kase.id, createdById: callers[i].userId });
        answered.add(result.value.id);
      } else {
        refusals.push(result.reason);
      }
    });
    expect(answered.size).toBe((USERS - 1) * STARTS_PER_USER);
    expect(refusals).toHaveLength(STARTS_PER_USER);
    for (const refusal of refusals) {
      expect(refusal).toBeInstanceOf(AppError);
      expect(refusal).toMatchObject({
        code: 'rate_limited',
        message: `You already have ${LIMIT} analyses queued or running, the most one person may run at once. Wait for one to finish or cancel one, then start again.`,
      });
    }
    // Every run that exists was some caller's answer (besides the runs held elsewhere).
    const existing = await db.select({ id: runs.id }).from(runs).where(inArray(runs.createdById, userIds));
    expect(new Set(existing.map((r) => r.id))).toEqual(new Set([...answered, ...held]));
    // The races happened: a run of each user was cancelled, and one finished, before its start answered.
    expect(cancelled.size).toBe(USERS - 1);
    expect(finishedFirst.size).toBe(USERS - 1);
    for (const id of cancelled) expect((await getRun({ db, id })).status).toBe('cancelled');
    for (const id of finishedFirst) expect((await getRun({ db, id })).status).toBe('succeeded');

    // Nothing is left executing when the database closes.
    for (const id of answered) await runner.cancel({ db, runId: id });
    await waitFor('nothing executing', () => [...answered].every((id) => !isRunActive(id)));
  }, 60_000);

  it('a start or a retry whose job cannot be sent writes nothing: no run without a job, and the case as it was', async () => {
    const user = await insertUser({ db, email: 'race-queue@example.test', name: 'Race RM queue', role: 'rm', passwordHash: null });
    const kase = await insertCase({
      db,
      values: {
        companyId: 'tesla',
        ownerId: user.id,
        title: 'Race queue',
        loanAmount: '1000000',
        loanCurrency: 'USD',
        loanPurpose: 'Working capital',
        loanTenorMonths: 12,
        asOfDate: '2025-06-30',
        notes: null,
      },
    });
    const retried = await createRun({
      db,
      protocolId: 'nas',
      companyId: 'tesla',
      provider: offline,
      params: { asOf: '2025-06-30', language: 'en' },
      caseId: kase.id,
      createdById: user.id,
    });
    await db.update(runs).set({ status: 'cancelled' }).where(eq(runs.id, retried.id));
    // Every send fails: as pg-boss does when it loses a deadlock or its connection.
    const boss = await getBoss(db);
    const send = vi.spyOn(boss, 'send').mockRejectedValue(Object.assign(new Error('deadlock detected'), { code: '40P01' }));
    try {
      await expect(
        startCaseRun({
          db,
          kase: { id: kase.id, companyId: 'tesla', asOfDate: '2025-06-30' },
          actorId: user.id,
          protocolId: 'nas',
          provider: offline,
          mode: 'dag',
          params: { language: 'en', recencyDays: 365, maxWebResults: 3 },
        }),
      ).rejects.toThrow('deadlock detected');
      await expect(retryCaseRun({ db, run: retried, actorId: user.id })).rejects.toThrow('deadlock detected');
      expect(send.mock.calls.filter(([queue]) => queue === RUN_QUEUE)).toHaveLength(2);
    } finally {
      send.mockRestore();
    }
    const ofCase = await db.select({ id: runs.id, status: runs.status }).from(runs).where(eq(runs.caseId, kase.id));
    expect(ofCase).toEqual([{ id: retried.id, status: 'cancelled' }]);
    expect((await getCaseById({ db, id: kase.id }))?.status).toBe('draft');
    const { rows: audit } = (await db.execute(
      sql`select count(*)::int as n from audit_log where entity_id = ${retried.id} or detail->>'caseId' = ${kase.id}`,
    )) as unknown as {
      rows: { n: number }[];
    };
    expect(audit[0].n).toBe(0);

    // Once sends work again, the same retry queues the run and a worker finishes it.
    await retryCaseRun({ db, run: retried, actorId: user.id });
    const finished = await waitFor('the worker to finish the retried run', async () => {
      const r = await getRun({ db, id: retried.id });
      return FINAL.includes(r.status) && r;
    });
    expect(finished.status).toBe('succeeded');
  });
});
