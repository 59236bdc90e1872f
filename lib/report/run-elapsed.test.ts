// A retried run's elapsed time is its attempts' own lengths added up (issue 26: "after a retry
// 'Elapsed 17 min 38 s' for attempts that each took under a second"). On the demo pool: a run
// short of evidence retried after lying there for 17 minutes, and a debate whose last step
// failed, retried 17 minutes later; the run page's figure, the case page's list, the launcher's
// estimate and the latency metric all leave the wait out.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { listRecentRunStats, listRunsForCase } from '@/lib/db/queries/cases';
import { getRun, listRunSteps } from '@/lib/db/queries/runs';
import { runs, runSteps } from '@/lib/db/schema';
import { createTestDatabase } from '@/lib/db/test-db';
import { createRun, executeRun, retryFailedSteps } from '@/lib/debate/engine';
import { PROTOCOLS_BY_ID } from '@/lib/debate/protocols';
import { DEMO_IDS, seedDemo } from '@/lib/demo/seed';
import { resetEnvForTests } from '@/lib/env';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import type { ModelProvider } from '@/lib/llm/types';
import { loadLiveState } from '@/lib/report/live-state';
import { loadRunView } from '@/lib/report/run-view';
import { reduceRun, runElapsedMs } from '@/lib/report/run-state';

const WAIT_MS = 17 * 60 * 1000;

/** The run (and its steps) as if everything so far had happened 17 minutes ago: the wait before a retry. */
async function lieThere(db: Db, runId: string) {
  const back = sql.raw(`interval '${WAIT_MS / 1000} seconds'`);
  await db
    .update(runs)
    .set({ startedAt: sql`${runs.startedAt} - ${back}`, finishedAt: sql`${runs.finishedAt} - ${back}` })
    .where(eq(runs.id, runId));
  await db
    .update(runSteps)
    .set({ startedAt: sql`${runSteps.startedAt} - ${back}`, finishedAt: sql`${runSteps.finishedAt} - ${back}` })
    .where(eq(runSteps.runId, runId));
}

const length = (row: { startedAt: Date | null; finishedAt: Date | null }) => row.finishedAt!.getTime() - row.startedAt!.getTime();

describe('elapsed time over retries', () => {
  let handle: DatabaseHandle;
  let db: Db;

  beforeAll(async () => {
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    resetEnvForTests();
    handle = await createTestDatabase('pglite');
    db = handle.db;
    await seedDemo(db, { accounts: true });
  });
  afterAll(() => handle?.close());

  it('a run short of evidence, retried after 17 minutes: elapsed is its two attempts, not the 17 minutes between them', async () => {
    // Taeyoung E&C before its creditor-bank filing: nothing in the pool, no red flag.
    const run = await createRun({
      db,
      protocolId: 'kpd-mads',
      companyId: 'taeyoung-engineering-construction',
      caseId: DEMO_IDS.thinCase,
      provider: createOfflineAnalyst(),
      params: { asOf: '2023-12-31', language: 'en' },
    });
    expect((await executeRun({ db, runId: run.id, provider: createOfflineAnalyst() })).status).toBe('insufficient_evidence');
    await lieThere(db, run.id);
    const first = await getRun({ db, id: run.id });
    const firstLength = length(first);
    expect(firstLength).toBeLessThan(5_000);
    expect(first.priorElapsedMs).toBe(0);

    expect(await retryFailedSteps({ db, runId: run.id })).toBe(true);
    const queued = await getRun({ db, id: run.id });
    // The ended attempt's length is kept; the next start is the new attempt's.
    expect(queued.priorElapsedMs).toBe(firstLength);
    expect(queued.startedAt).toBeNull();
    expect(queued.finishedAt).toBeNull();
    // While it waits in the queue the page shows what the first attempt took, not nothing.
    expect(runElapsedMs({ startedAt: null, finishedAt: null, priorElapsedMs: queued.priorElapsedMs }, Date.now())).toBe(firstLength);

    expect((await executeRun({ db, runId: run.id, provider: createOfflineAnalyst() })).status).toBe('insufficient_evidence');
    const second = await getRun({ db, id: run.id });
    expect(second.startedAt!.getTime()).toBeGreaterThan(first.finishedAt!.getTime() + WAIT_MS - 1_000);
    const sum = firstLength + length(second);

    // The run page (the state the server paints and the SSE snapshot sends).
    const state = await loadLiveState({ db, runId: run.id });
    expect(runElapsedMs(state, null)).toBe(sum);
    expect(runElapsedMs(state, null)).toBeLessThan(10_000);
    // The span the page used to show: from the first start to the last end.
    expect(second.finishedAt!.getTime() - first.startedAt!.getTime()).toBeGreaterThan(WAIT_MS);

    // The case page's list.
    const row = (await listRunsForCase({ db, caseId: DEMO_IDS.thinCase })).find((r) => r.id === run.id)!;
    expect(runElapsedMs({ startedAt: row.startedAt!.toISOString(), finishedAt: row.finishedAt!.toISOString(), priorElapsedMs: row.priorElapsedMs }, null)).toBe(
      sum,
    );

    // A third attempt adds the second's length too.
    expect(await retryFailedSteps({ db, runId: run.id })).toBe(true);
    expect((await getRun({ db, id: run.id })).priorElapsedMs).toBe(sum);
  });

  it('a debate whose last step failed, retried 17 minutes later: elapsed, the latency metric and the launcher estimate leave the wait out', async () => {
    const protocol = PROTOCOLS_BY_ID['kpd-mads'];
    const last = protocol.steps[protocol.steps.length - 1];
    const offline = createOfflineAnalyst();
    const failingLast: ModelProvider = {
      name: offline.name,
      model: offline.model,
      isLLM: offline.isLLM,
      generate: (request) => (request.step === last ? Promise.reject(new Error('The model endpoint is not reachable.')) : offline.generate(request)),
    };
    const run = await createRun({
      db,
      protocolId: 'kpd-mads',
      companyId: 'samsung-electronics',
      provider: offline,
      params: { asOf: '2025-03-31', language: 'en' },
    });
    expect((await executeRun({ db, runId: run.id, provider: failingLast })).status).toBe('failed');
    const failedSteps = (await listRunSteps({ db, runId: run.id })).filter((s) => s.status !== 'done');
    expect(failedSteps.map((s) => s.stepId)).toEqual([last.id]);
    const spanBefore = (await loadRunView({ db, runId: run.id })).metrics.latencyMs!;
    await lieThere(db, run.id);
    const first = await getRun({ db, id: run.id });

    expect(await retryFailedSteps({ db, runId: run.id })).toBe(true);
    expect((await executeRun({ db, runId: run.id, provider: offline })).status).toBe('succeeded');
    const second = await getRun({ db, id: run.id });
    const sum = length(first) + length(second);
    expect(second.priorElapsedMs).toBe(length(first));

    const state = await loadLiveState({ db, runId: run.id });
    expect(runElapsedMs(state, null)).toBe(sum);
    expect(sum).toBeLessThan(60_000);

    // Latency: the ten steps of the first attempt plus the last step of the second, no wait.
    const steps = await listRunSteps({ db, runId: run.id });
    const retried = steps.find((s) => s.stepId === last.id)!;
    const latency = (await loadRunView({ db, runId: run.id })).metrics.latencyMs!;
    expect(latency).toBeLessThan(WAIT_MS);
    expect(latency).toBeGreaterThanOrEqual(length(retried));
    expect(latency).toBeLessThanOrEqual(spanBefore + length(retried));

    // The launcher's estimate reads the same lengths.
    const stats = await listRecentRunStats({ db, protocol: 'kpd-mads', provider: 'offline', model: offline.model });
    // Newest first: this run, then the demo's own succeeded run.
    expect(Math.abs(stats[0].ms - sum)).toBeLessThan(1);
  });

  it('live: a run-started after an end starts a new attempt and keeps the ended one', () => {
    const ended = {
      runId: 'r',
      status: 'failed' as const,
      error: 'x',
      turns: [],
      evidence: {},
      tokens: { prompt: 0, completion: 0 },
      costUsd: 0,
      reportReady: false,
      startedAt: '2025-01-01T09:00:00.000Z',
      finishedAt: '2025-01-01T09:00:00.800Z',
      priorElapsedMs: 300,
    };
    const again = reduceRun(ended, { type: 'run-started', runId: 'r', at: '2025-01-01T09:17:38.000Z', steps: [] });
    expect(again.startedAt).toBe('2025-01-01T09:17:38.000Z');
    expect(again.priorElapsedMs).toBe(1_100);
    const done = reduceRun(again, { type: 'run-finished', runId: 'r', at: '2025-01-01T09:17:38.600Z', status: 'failed' });
    expect(runElapsedMs(done, null)).toBe(1_700);
    // A resumed run (no end in between) keeps its attempt's start.
    const resumed = reduceRun(
      { ...ended, status: 'running', finishedAt: null },
      { type: 'run-started', runId: 'r', at: '2025-01-01T09:05:00.000Z', steps: [] },
    );
    expect(resumed.startedAt).toBe('2025-01-01T09:00:00.000Z');
    expect(resumed.priorElapsedMs).toBe(300);
  });
});
