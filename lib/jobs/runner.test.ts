// The runner on the embedded database with the offline analyst, executed by a queue worker in
// this process as the app's own process does: runs go on after start() returns, cancel stops
// them keeping finished steps, retry redoes only the failed steps, a retry is one transaction
// that the caller's own check can refuse, and a run a stopped process left executing resumes as
// soon as the queue opens again, not once a heartbeat lapses.
import type { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { claimRun, getRun, listRunSteps, markStepFailed, setRunStatus } from '@/lib/db/queries/runs';
import { seedDemo } from '@/lib/demo/seed';
import { createTestDatabase } from '@/lib/db/test-db';
import { createRun, isRunActive, retryFailedSteps } from '@/lib/debate/engine';
import { RunLimitReached } from '@/lib/debate/limits';
import { BOSS_SCHEMA, enqueueRun, getBoss, RUN_QUEUE, stopBoss, type RunJob } from '@/lib/jobs/boss';
import { runner } from '@/lib/jobs/runner';
import { untilRunEnds, waitFor, workOn } from '@/lib/jobs/test-wait';
import { resetEnvForTests } from '@/lib/env';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import type { ModelProvider } from '@/lib/llm/types';

describe('the runner on the embedded database', () => {
  let handle: DatabaseHandle;
  let db: Db;
  let work: Awaited<ReturnType<typeof workOn>> | undefined;
  const params = { asOf: '2025-03-31', language: 'en' as const };

  beforeAll(async () => {
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    resetEnvForTests();
    handle = await createTestDatabase('pglite');
    db = handle.db;
    await seedDemo(db, { accounts: false });
    work = await workOn(db);
  });
  afterAll(async () => {
    await work?.stop();
    await handle?.close();
  });

  it('starts a run in the background and returns before it ends; the run then succeeds on its own', async () => {
    const run = await createRun({ db, protocolId: 'kpd-mads', companyId: 'samsung-electronics', provider: createOfflineAnalyst(), params });
    await runner.start({ db, runId: run.id });
    expect((await getRun({ db, id: run.id })).status).not.toBe('succeeded');
    expect((await untilRunEnds(db, run.id)).status).toBe('succeeded');
    const steps = await listRunSteps({ db, runId: run.id });
    expect(steps.map((s) => s.status)).toEqual(Array(11).fill('done'));
    // Starting a finished run is refused, not repeated.
    await expect(runner.start({ db, runId: run.id })).rejects.toThrow(/succeeded/);
  });

  it('cancels a run that has just started, keeps what finished, and a retry completes it', async () => {
    const run = await createRun({ db, protocolId: 'kpd-mads', companyId: 'tesla', provider: createOfflineAnalyst(), params });
    await runner.start({ db, runId: run.id });
    expect(await runner.cancel({ db, runId: run.id })).toBe(true);
    expect((await getRun({ db, id: run.id })).status).toBe('cancelled');
    await waitFor('the run to stop executing here', () => !isRunActive(run.id));
    const after = await listRunSteps({ db, runId: run.id });
    expect(after.some((s) => s.status !== 'done')).toBe(true);
    expect(after.some((s) => s.status === 'running')).toBe(false);
    expect((await getRun({ db, id: run.id })).status).toBe('cancelled');
    // Nothing left to cancel.
    expect(await runner.cancel({ db, runId: run.id })).toBe(false);

    await runner.retry({ db, runId: run.id });
    expect((await untilRunEnds(db, run.id)).status).toBe('succeeded');
  });

  it('retry redoes only the failed steps', async () => {
    const run = await createRun({ db, protocolId: 'kpd-mads', companyId: 'samsung-electronics', provider: createOfflineAnalyst(), params });
    await runner.start({ db, runId: run.id });
    await untilRunEnds(db, run.id);
    // As if D10 had failed (and so the aggregator never ran).
    await markStepFailed({ db, runId: run.id, stepId: 'D10', error: 'injected' });
    await markStepFailed({ db, runId: run.id, stepId: 'AG', error: 'injected' });
    await setRunStatus({ db, id: run.id, status: 'failed', error: 'Step D10 failed' });
    const before = new Map((await listRunSteps({ db, runId: run.id })).map((s) => [s.stepId, s]));

    await expect(runner.retry({ db, runId: 'e0000000-0000-4000-8000-000000000000' })).rejects.toThrow(/does not exist/);
    await runner.retry({ db, runId: run.id });
    await untilRunEnds(db, run.id);
    const after = await listRunSteps({ db, runId: run.id });
    expect((await getRun({ db, id: run.id })).status).toBe('succeeded');
    for (const s of after) {
      expect(s.status).toBe('done');
      if (s.stepId === 'D10' || s.stepId === 'AG') expect(s.attempt, s.stepId).toBe(before.get(s.stepId)!.attempt + 1);
      else expect(s.attempt, s.stepId).toBe(before.get(s.stepId)!.attempt);
    }
    // A succeeded run cannot be retried.
    await expect(runner.retry({ db, runId: run.id })).rejects.toThrow(/succeeded/);
  });

  it("a retry refused inside its transaction (the owner's run limit) writes nothing, and two retries at once requeue the run once", async () => {
    const run = await createRun({ db, protocolId: 'nas', companyId: 'tesla', provider: createOfflineAnalyst(), params });
    await markStepFailed({ db, runId: run.id, stepId: 'NAS', error: 'injected' });
    await setRunStatus({ db, id: run.id, status: 'failed', error: 'Step NAS failed' });

    await expect(
      runner.retry({
        db,
        runId: run.id,
        alsoInTransaction: async () => {
          throw new RunLimitReached(4);
        },
      }),
    ).rejects.toBeInstanceOf(RunLimitReached);
    expect((await getRun({ db, id: run.id })).status).toBe('failed');
    expect((await listRunSteps({ db, runId: run.id })).map((s) => s.status)).toEqual(['failed']);

    const outcomes = await Promise.all([retryFailedSteps({ db, runId: run.id }), retryFailedSteps({ db, runId: run.id })]);
    expect(outcomes.sort()).toEqual([false, true]);
    expect((await getRun({ db, id: run.id })).status).toBe('queued');
    expect((await listRunSteps({ db, runId: run.id })).map((s) => s.status)).toEqual(['pending']);
  });

  it('fails a run whose provider is not configured here, with a message that says what to set', async () => {
    const openai: ModelProvider = { name: 'openai', model: 'gpt-4o-mini', isLLM: true, generate: () => Promise.reject(new Error('unused')) };
    const run = await createRun({ db, protocolId: 'nas', companyId: 'tesla', provider: openai, params });
    await runner.start({ db, runId: run.id });
    const row = await untilRunEnds(db, run.id);
    expect(row.status).toBe('failed');
    expect(row.error).toMatch(/OPENAI_BASE_URL/);
  });

  it('a run a stopped process left executing is taken back as soon as the queue opens again', async () => {
    await work!.stop();
    work = undefined;
    const run = await createRun({ db, protocolId: 'nas', companyId: 'tesla', provider: createOfflineAnalyst(), params });
    // A process took the job and named its attempt on the run, then stopped without a word.
    await enqueueRun({ db, runId: run.id });
    const boss: PgBoss = await getBoss(db);
    const [job] = (await boss.fetch<RunJob>(RUN_QUEUE)) ?? [];
    expect(job?.data.runId).toBe(run.id);
    expect(await claimRun({ db, id: run.id, attempt: `gone/${job!.id}/0`, queue: { schema: BOSS_SCHEMA, name: RUN_QUEUE } })).toBeDefined();
    await stopBoss(db);

    // The next start: its queue fails the stale job back at once, and its worker resumes the run.
    const opened = Date.now();
    work = await workOn(db);
    expect((await untilRunEnds(db, run.id)).status).toBe('succeeded');
    // Well before the 10 s a lapsed heartbeat would take.
    expect(Date.now() - opened).toBeLessThan(8_000);
  });
});
