// A worker's lease keeper (issue 25, finding 15). A run that ends here clears its own lease with
// its final status, while the worker still lists it until its execution has tidied up; a renewal
// on its way at that moment no longer finds the lease, and the keeper used to warn that it lost a
// run that had simply ended ("lost the lease" right after "run ended here"). It must stay quiet
// about a run that ended or that it handed back, and still warn when another worker took the run.
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { claimRun, getRun, releaseLease, setRunStatus } from '@/lib/db/queries/runs';
import { runs } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { createRun } from '@/lib/debate/engine';
import { seedDemo } from '@/lib/demo/seed';
import { resetEnvForTests } from '@/lib/env';
import { enqueueRun, stopBoss } from '@/lib/jobs/boss';
import { startLeaseKeeper } from '@/lib/jobs/lease-keeper';
import { startWorker } from '@/lib/jobs/worker';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { waitFor } from '@/lib/jobs/test-wait';

const HERE = 'keeper-here';
const params = { asOf: '2025-06-30', language: 'en' as const };


/** The JSON log lines written while `capture` is on (warnings and errors go to stderr, the rest to stdout). */
function captureLog() {
  const lines: Record<string, unknown>[] = [];
  const take = (chunk: unknown) => {
    for (const line of String(chunk).split('\n')) if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
    return true;
  };
  vi.spyOn(process.stderr, 'write').mockImplementation(take);
  vi.spyOn(process.stdout, 'write').mockImplementation(take);
  return lines;
}

describe.each(testBackends())('a worker’s lease keeper, on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  const saved = { ...process.env };
  const offline = createOfflineAnalyst();

  beforeAll(async () => {
    // One JSON object per log line, to read back.
    process.env.LOG_FORMAT = 'json';
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    resetEnvForTests();
    handle = await createTestDatabase(backend);
    db = handle.db;
    await seedDemo(db, { accounts: false });
  }, 90_000);
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    await stopBoss();
    await handle?.close();
    process.env = { ...saved };
    resetEnvForTests();
  });

  /** A run this worker holds, running. */
  async function heldRun() {
    const run = await createRun({ db, protocolId: 'nas', companyId: 'tesla', provider: offline, params });
    expect(await claimRun({ db, id: run.id, workerId: HERE, leaseMs: 60_000 })).toEqual({ id: run.id, status: 'queued' });
    expect(await setRunStatus({ db, id: run.id, status: 'running', workerId: HERE })).toBe(true);
    return run.id;
  }

  /** Keeps `ids` for `rounds` renewals (every 20 ms) and stops; returns how many renewals ran. */
  async function keep(ids: string[], rounds: number) {
    let renewals = 0;
    const keeper = startLeaseKeeper({ db, workerId: HERE, leaseMs: 60_000, renewMs: 20, held: () => (renewals++, ids) });
    await waitFor(`${rounds} renewals`, () => renewals >= rounds, 30_000, 20);
    await keeper.stop();
    return renewals;
  }

  const lostLines = (lines: Record<string, unknown>[]) => lines.filter((l) => typeof l.msg === 'string' && l.msg.startsWith('lost the lease'));

  it('stays quiet about a run that ended here, and one it handed back, while the worker still lists them', async () => {
    const ended = await heldRun();
    // Its final status clears the lease (what the engine writes when the run ends here).
    expect(await setRunStatus({ db, id: ended, status: 'succeeded', workerId: HERE })).toBe(true);
    const handedBack = await heldRun();
    expect(await releaseLease({ db, id: handedBack, workerId: HERE })).toBe(true);

    const lines = captureLog();
    expect(await keep([ended, handedBack], 3)).toBeGreaterThanOrEqual(3);
    vi.restoreAllMocks();
    expect(lines.filter((l) => l.workerId === HERE)).toEqual([]);
    expect(await getRun({ db, id: ended })).toMatchObject({ status: 'succeeded', workerId: null, leaseExpiresAt: null });
    expect(await getRun({ db, id: handedBack })).toMatchObject({ status: 'running', workerId: null, leaseExpiresAt: null });
  });

  it('warns on every renewal that finds the run going on under another worker’s lease, naming the run and its holder', async () => {
    const taken = await heldRun();
    // As if this worker had stalled past its lease and another had taken the run.
    await db.update(runs).set({ workerId: 'thief', leaseExpiresAt: sql`now() + interval '1 minute'` }).where(eq(runs.id, taken));

    const lines = captureLog();
    const renewals = await keep([taken], 2);
    vi.restoreAllMocks();
    const lost = lostLines(lines);
    expect(lost.map((l) => ({ level: l.level, msg: l.msg, component: l.component, workerId: l.workerId, runId: l.runId, holder: l.holder }))).toEqual(
      Array.from({ length: renewals }, () => ({ level: 'warn', msg: 'lost the lease on a run; another worker resumes it', component: 'worker', workerId: HERE, runId: taken, holder: 'thief' })),
    );
    // The other worker's lease is untouched.
    expect(await getRun({ db, id: taken })).toMatchObject({ status: 'running', workerId: 'thief' });
  });

  if (backend === 'postgres') {
    it('a worker renewing every 20 ms logs no lost lease for runs that finish normally', async () => {
      const server = new URL(process.env.TEST_DATABASE_URL!);
      server.pathname = `/${handle.location.split('/')[1]}`;
      const url = server.toString();
      const lines = captureLog();
      const worker = await startWorker({ concurrency: 3, workerId: 'keeper-worker', db, url, leaseMs: 2_000, renewMs: 20, reaperIntervalMs: 60_000, pollIntervalMs: 500 });
      try {
        const ids: string[] = [];
        for (let i = 0; i < 6; i++) {
          const run = await createRun({ db, protocolId: 'nas', companyId: 'tesla', provider: offline, params });
          await enqueueRun(run.id, url);
          ids.push(run.id);
        }
        const ended = () => lines.filter((l) => l.workerId === 'keeper-worker' && l.msg === 'run ended here');
        await waitFor('the six runs to end', () => ended().length >= ids.length, 30_000, 20);
        expect(ended().map((l) => ({ runId: l.runId, status: l.status })).sort((a, b) => String(a.runId).localeCompare(String(b.runId)))).toEqual(
          [...ids].sort().map((runId) => ({ runId, status: 'succeeded' })),
        );
      } finally {
        await worker.stop();
        vi.restoreAllMocks();
      }
      expect(lostLines(lines)).toEqual([]);
    }, 60_000);
  }
});
