// A killed worker's queue job on a real PostgreSQL (TEST_DATABASE_URL): pg-boss keeps it
// `active` until its expiry, hours later, because the worker never completes it. The reaper
// fails it when it hands the run to another worker, and health and metrics count executing runs
// from the runs' leases, so neither reports a dead worker's run as running. The worker here is
// a bare pg-boss fetch and a lease claim, exactly what lib/jobs/worker.ts does before executing.
import { sql } from 'drizzle-orm';
import type { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { claimRun } from '@/lib/db/queries/runs';
import { executeRows } from '@/lib/db/rows';
import { companies, runs } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { ABANDONED_JOB_OUTPUT, BOSS_SCHEMA, enqueueRun, failAbandonedJobs, getBoss, requeueUnheldRuns, RUN_QUEUE, stopBoss, type RunJob } from '@/lib/jobs/boss';
import { resetEnvForTests } from '@/lib/env';
import { resumeInterruptedRuns } from '@/lib/jobs/resume';
import { queueHealth } from '@/lib/ops/health';
import { collectMetrics, formatPrometheus } from '@/lib/ops/metrics';

type JobRow = { id: string; state: string; output: unknown };

if (testBackends().includes('postgres')) {
  describe('jobs of workers that died, on PostgreSQL', () => {
    let handle: DatabaseHandle;
    let db: Db;
    let url: string;
    let boss: PgBoss;

    const jobsOf = async (runId: string) =>
      ((await db.execute(sql`select id::text as id, state::text as state, output from ${sql.raw(BOSS_SCHEMA)}.job where name = ${RUN_QUEUE} and singleton_key = ${runId} order by created_on`)) as unknown as { rows: JobRow[] }).rows;

    /** What a worker does with a job: pg-boss hands it over (now `active`), the worker claims the run's lease. */
    async function takeJob(runId: string, workerId: string, leaseMs: number) {
      const [job] = (await boss.fetch<RunJob>(RUN_QUEUE)) ?? [];
      expect(job?.data.runId).toBe(runId);
      expect(await claimRun({ db, id: runId, workerId, leaseMs })).toBeDefined();
      return job!;
    }

    async function newRun() {
      const [run] = await db.insert(runs).values({ companyId: 'acme', protocol: 'kpd-mads', provider: 'offline', model: 'm', status: 'running' }).returning({ id: runs.id });
      return run.id;
    }

    beforeAll(async () => {
      handle = await createTestDatabase('postgres');
      db = handle.db;
      const server = new URL(process.env.TEST_DATABASE_URL!);
      server.pathname = `/${handle.location.split('/')[1]}`;
      url = server.toString();
      boss = await getBoss(url);
      await db.insert(companies).values({ id: 'acme', name: 'Acme', country: 'KR' });
    }, 60_000);

    afterAll(async () => {
      await stopBoss();
      await handle?.close();
    });

    it("a killed worker's job is failed when its run is handed on, and health and metrics stop counting it as running", async () => {
      const runId = await newRun();
      await enqueueRun(runId, url);
      const doomed = await takeJob(runId, 'doomed', 400);
      // Executing: pg-boss, health and metrics agree.
      expect(await queueHealth(db)).toEqual({ ok: true, queued: 0, active: 1 });
      expect(formatPrometheus(await collectMetrics({ db }))).toContain('crosscheck_runs_executing 1\n');
      // A reaper pass while the lease is live leaves the job alone, however long it has run.
      expect(await requeueUnheldRuns({ db, url, graceMs: 0 })).toBe(0);
      expect((await jobsOf(runId)).map((j) => j.state)).toEqual(['active']);

      // The worker is killed: it never renews its lease nor completes its job.
      await new Promise((r) => setTimeout(r, 600));
      // pg-boss still says active; health and metrics go by the lease.
      expect((await jobsOf(runId)).map((j) => j.state)).toEqual(['active']);
      expect(await queueHealth(db)).toEqual({ ok: true, queued: 0, active: 0 });
      expect(formatPrometheus(await collectMetrics({ db }))).toContain('crosscheck_runs_executing 0\n');

      // The reaper hands the run on: the dead worker's job is failed, a new one waits.
      expect(await requeueUnheldRuns({ db, url, graceMs: 0 })).toBe(1);
      const [old, fresh] = await jobsOf(runId);
      expect(old).toEqual({ id: doomed.id, state: 'failed', output: ABANDONED_JOB_OUTPUT });
      expect(fresh.state).toBe('created');
      const text = formatPrometheus(await collectMetrics({ db }));
      expect(text).toContain('crosscheck_queue_jobs{state="active"} 0\n');
      expect(text).toContain('crosscheck_queue_jobs{state="failed"} 1\n');
      expect(await queueHealth(db)).toEqual({ ok: true, queued: 1, active: 0 });

      // Another worker takes it; its job is active and stays so through reaper passes.
      const survivor = await takeJob(runId, 'survivor', 60_000);
      expect(await requeueUnheldRuns({ db, url, graceMs: 0 })).toBe(0);
      expect(await jobsOf(runId)).toEqual([
        { id: doomed.id, state: 'failed', output: ABANDONED_JOB_OUTPUT },
        expect.objectContaining({ id: survivor.id, state: 'active' }),
      ]);
      expect(await queueHealth(db)).toEqual({ ok: true, queued: 0, active: 1 });
      await boss.complete(RUN_QUEUE, survivor.id);
      await db.update(runs).set({ status: 'succeeded', workerId: null, leaseExpiresAt: null }).where(sql`${runs.id} = ${runId}`);
    });

    it('a job a worker has only just taken is not failed before the worker claims its run', async () => {
      const runId = await newRun();
      await enqueueRun(runId, url);
      const [job] = (await boss.fetch<RunJob>(RUN_QUEUE)) ?? [];
      expect(job?.data.runId).toBe(runId);
      // Not claimed yet, but within the grace: the worker is about to claim it.
      expect(await failAbandonedJobs({ db, graceMs: 60_000 })).toBe(0);
      expect((await jobsOf(runId)).map((j) => j.state)).toEqual(['active']);
      // A job whose run has finished while its worker died is failed too, not left active for hours.
      await db.update(runs).set({ status: 'cancelled' }).where(sql`${runs.id} = ${runId}`);
      expect(await failAbandonedJobs({ db, graceMs: 0 })).toBe(1);
      expect((await jobsOf(runId)).map((j) => j.state)).toEqual(['failed']);
    });

    it("a run whose job waited in pg-boss 10's schema is queued in the new schema at start-up, and the old schema is left alone", async () => {
      const runId = await newRun();
      // pg-boss 10's job table as the upgrade leaves it (the columns read here), this run's job waiting.
      await db.execute(sql`create schema pgboss`);
      await db.execute(sql`create table pgboss.job (id uuid primary key default gen_random_uuid(), name text not null, state text not null, singleton_key text)`);
      await db.execute(sql`insert into pgboss.job (name, state, singleton_key) values (${RUN_QUEUE}, 'created', ${runId})`);
      const saved = process.env.DATABASE_URL;
      process.env.DATABASE_URL = url;
      resetEnvForTests();
      try {
        // What lib/startup.ts does on PostgreSQL with the queue on.
        expect(await resumeInterruptedRuns({ db })).toBe(1);
      } finally {
        if (saved === undefined) delete process.env.DATABASE_URL;
        else process.env.DATABASE_URL = saved;
        resetEnvForTests();
      }
      expect((await jobsOf(runId)).map((j) => j.state)).toEqual(['created']);
      expect(await queueHealth(db)).toEqual({ ok: true, queued: 1, active: 0 });
      expect(await executeRows(db, sql`select state from pgboss.job where singleton_key = ${runId}`)).toEqual([{ state: 'created' }]);
      const [job] = (await boss.fetch<RunJob>(RUN_QUEUE)) ?? [];
      expect(job?.data.runId).toBe(runId);
      await boss.complete(RUN_QUEUE, job!.id);
      await db.update(runs).set({ status: 'cancelled' }).where(sql`${runs.id} = ${runId}`);
    });
  });
}
