// Which attempt may execute a run, on a real PostgreSQL (TEST_DATABASE_URL) and the real queue:
// the run row names one attempt (a job and its retry), a second live job is refused, a job that
// pg-boss failed (its worker died) or cancelled is taken over, and so is the next try of the same
// job; the old attempt's writes are refused from then on. Health and metrics count what a live
// attempt executes. Runs with no job are queued at start-up (also those whose job waited in
// pg-boss 10's schema), and a run whose job used up its retries is failed with a reason. The
// "workers" here are bare pg-boss fetches and claims, exactly what lib/jobs/worker.ts does first.
import { sql } from 'drizzle-orm';
import type { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { claimRun, getRun, LeaseLostError, markStepRunning } from '@/lib/db/queries/runs';
import { executeRows } from '@/lib/db/rows';
import { companies, runs, runSteps } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { BOSS_SCHEMA, enqueueRun, failRunsOfDeadJobs, getBoss, queueOrphanedRuns, RUN_QUEUE, stopBoss, type RunJob } from '@/lib/jobs/boss';
import { resetEnvForTests } from '@/lib/env';
import { waitFor } from '@/lib/jobs/test-wait';
import { queueHealth } from '@/lib/ops/health';
import { collectMetrics, formatPrometheus } from '@/lib/ops/metrics';

const QUEUE = { schema: BOSS_SCHEMA, name: RUN_QUEUE };

if (testBackends().includes('postgres')) {
  describe('run attempts on the PostgreSQL queue', () => {
    let handle: DatabaseHandle;
    let db: Db;
    let url: string;
    let boss: PgBoss;

    const jobsOf = async (runId: string) =>
      (
        (await db.execute(
          sql`select id::text as id, state::text as state, retry_count as "retryCount" from ${sql.raw(BOSS_SCHEMA)}.job where name = ${RUN_QUEUE} and singleton_key = ${runId} order by created_on`,
        )) as unknown as { rows: { id: string; state: string; retryCount: number }[] }
      ).rows;

    /** What a worker does first: pg-boss hands it the job (now `active`). */
    async function fetchJob(runId: string) {
      const [job] = (await boss.fetch<RunJob>(RUN_QUEUE)) ?? [];
      expect(job?.data.runId).toBe(runId);
      return job!;
    }

    async function newRun() {
      const [run] = await db
        .insert(runs)
        .values({ companyId: 'acme', protocol: 'kpd-mads', provider: 'offline', model: 'm', status: 'running' })
        .returning({ id: runs.id });
      await db.insert(runSteps).values({ runId: run.id, stepId: 'D1', ordinal: 1, agent: 'first affirmative', team: 'affirmative', act: 'constructive' });
      return run.id;
    }

    beforeAll(async () => {
      handle = await createTestDatabase('postgres');
      db = handle.db;
      const server = new URL(process.env.TEST_DATABASE_URL!);
      server.pathname = `/${handle.location.split('/')[1]}`;
      url = server.toString();
      boss = await getBoss(db);
      await db.insert(companies).values({ id: 'acme', name: 'Acme', country: 'KR' });
    }, 60_000);

    afterAll(async () => {
      await stopBoss();
      await handle?.close();
    });

    it('one live attempt at a time: a second job is refused; a failed job, a cancelled one and an earlier try of the same job are taken over', async () => {
      const runId = await newRun();
      await enqueueRun({ db, runId });
      const first = await fetchJob(runId);
      // A second job for the run while the first is active (`short` allows one waiting beside it).
      await enqueueRun({ db, runId });
      const second = await fetchJob(runId);
      const a = `w1/${first.id}/0`;
      const b = `w2/${second.id}/0`;
      const claims = await Promise.all([claimRun({ db, id: runId, attempt: a, queue: QUEUE }), claimRun({ db, id: runId, attempt: b, queue: QUEUE })]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      const [holder, holderJob, other, otherJob] = claims[0] ? [a, first, b, second] : [b, second, a, first];
      expect(await claimRun({ db, id: runId, attempt: other, queue: QUEUE })).toBeUndefined();
      expect(await queueHealth(db)).toEqual({ ok: true, queued: 0, active: 1 });

      // The holder's worker died: pg-boss failed its job (into retry). The other job takes the
      // run, and the holder can no longer write to it.
      await boss.fail(RUN_QUEUE, holderJob.id, { message: 'heartbeat timeout' });
      expect(await claimRun({ db, id: runId, attempt: other, queue: QUEUE })).toBeDefined();
      await expect(markStepRunning({ db, runId, stepId: 'D1', workerId: holder })).rejects.toBeInstanceOf(LeaseLostError);
      await markStepRunning({ db, runId, stepId: 'D1', workerId: other });
      await boss.cancel(RUN_QUEUE, holderJob.id);

      // The other job's heartbeat lapses too; pg-boss hands the same job out again, and its next
      // try takes over from its first.
      await boss.fail(RUN_QUEUE, otherJob.id, { message: 'heartbeat timeout' });
      const again = await fetchJob(runId);
      expect({ id: again.id, retryCount: again.retryCount }).toEqual({ id: otherJob.id, retryCount: 1 });
      const retry = `w3/${otherJob.id}/1`;
      expect(await claimRun({ db, id: runId, attempt: retry, queue: QUEUE })).toBeDefined();
      await expect(markStepRunning({ db, runId, stepId: 'D1', workerId: other })).rejects.toBeInstanceOf(LeaseLostError);
      expect(await queueHealth(db)).toEqual({ ok: true, queued: 0, active: 1 });

      // A cancelled job's attempt is no one's either.
      await boss.cancel(RUN_QUEUE, otherJob.id);
      expect(await queueHealth(db)).toEqual({ ok: true, queued: 0, active: 0 });
      expect(await claimRun({ db, id: runId, attempt: 'w4/x/0', queue: QUEUE })).toBeDefined();
      const metrics = formatPrometheus(await collectMetrics({ db }));
      expect(metrics).toMatch(/crosscheck_runs_executing 0\b/);
      // A finished run is nobody's to claim.
      await db
        .update(runs)
        .set({ status: 'succeeded', workerId: null })
        .where(sql`${runs.id} = ${runId}`);
      expect(await claimRun({ db, id: runId, attempt: 'w5/y/0', queue: QUEUE })).toBeUndefined();
    });

    it("a run with no job is queued at start-up once, also one whose job waited in pg-boss 10's schema, which is left alone", async () => {
      const runId = await newRun();
      // pg-boss 10's job table as the upgrade leaves it (the columns read here), this run's job waiting.
      await db.execute(sql`create schema pgboss`);
      await db.execute(
        sql`create table pgboss.job (id uuid primary key default gen_random_uuid(), name text not null, state text not null, singleton_key text)`,
      );
      await db.execute(sql`insert into pgboss.job (name, state, singleton_key) values (${RUN_QUEUE}, 'created', ${runId})`);
      const saved = process.env.DATABASE_URL;
      process.env.DATABASE_URL = url;
      resetEnvForTests();
      try {
        // What lib/startup.ts does on PostgreSQL with the queue on.
        expect(await queueOrphanedRuns({ db })).toBe(1);
        expect(await queueOrphanedRuns({ db })).toBe(0);
      } finally {
        if (saved === undefined) delete process.env.DATABASE_URL;
        else process.env.DATABASE_URL = saved;
        resetEnvForTests();
      }
      expect((await jobsOf(runId)).map((j) => j.state)).toEqual(['created']);
      expect(await queueHealth(db)).toEqual({ ok: true, queued: 1, active: 0 });
      expect(await executeRows(db, sql`select state from pgboss.job where singleton_key = ${runId}`)).toEqual([{ state: 'created' }]);
      const job = await fetchJob(runId);
      await boss.complete(RUN_QUEUE, job.id);
      await db
        .update(runs)
        .set({ status: 'cancelled' })
        .where(sql`${runs.id} = ${runId}`);
    });

    it('a run whose job used up its retries is failed with a reason that says so and ends its attempt', async () => {
      const runId = await newRun();
      await db
        .update(runs)
        .set({ workerId: 'dead/x/0' })
        .where(sql`${runs.id} = ${runId}`);
      const dead = await failRunsOfDeadJobs({ db });
      // The last try: failing it sends the job to the dead-letter queue.
      await boss.send(RUN_QUEUE, { runId } satisfies RunJob, { singletonKey: runId, retryLimit: 0 });
      const job = await fetchJob(runId);
      await boss.fail(RUN_QUEUE, job.id, { message: 'heartbeat timeout' });
      const failed = await waitFor('the run to be failed', async () => {
        const run = await getRun({ db, id: runId });
        return run.status === 'failed' && run;
      });
      expect(failed.error).toBe('The workers executing this run stopped 13 times before it could finish. Retry it to continue from its finished steps.');
      expect(failed.errorPhrase).toEqual({ key: 'workersStopped', values: { n: 13 } });
      expect(failed.workerId).toBeNull();
      await boss.offWork('crosscheck-run-dead', { id: dead });
    }, 30_000);
  });
}
