// Queue workers on a real PostgreSQL (TEST_DATABASE_URL): a worker process killed with SIGKILL
// mid-run loses its job when its heartbeat lapses and another worker finishes the run with every
// step saved once and finished steps kept, a worker whose run another attempt took stops, a
// graceful stop hands an in-flight run on at once, a queued run wakes an idle worker without
// waiting for its poll, and a cancel from another process stops the worker executing the run.
// (Which attempt may hold a run is tested on its own in lib/jobs/attempts.test.ts.) Runs use the OpenAI-compatible
// provider against the fake model server, slowed down so a run lasts long enough to interrupt.
import { spawn, type ChildProcess } from 'node:child_process';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { getRun, LeaseLostError, listRunSteps, markStepDone } from '@/lib/db/queries/runs';
import { runs } from '@/lib/db/schema';
import { seedDemo } from '@/lib/demo/seed';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { createRun, executeRun, isRunActive } from '@/lib/debate/engine';
import { resetEnvForTests } from '@/lib/env';
import { BOSS_SCHEMA, enqueueRun, getBoss, HEARTBEAT_SECONDS, RUN_QUEUE, stopBoss, type RunJob } from '@/lib/jobs/boss';
import { runner } from '@/lib/jobs/runner';
import { startWorker, type QueueWorker } from '@/lib/jobs/worker';
import { getProvider, resetProvidersForTests } from '@/lib/llm';
import { createOfflineAnalyst } from '@/lib/llm/offline';
import { startFakeLlm, type FakeLlm } from '../../scripts/fake-llm/server';
import { waitFor } from '@/lib/jobs/test-wait';

const POLL = { pollIntervalMs: 500 };
/** pg-boss's LISTEN connection in this process (its last statement is the LISTEN or the check that it still listens). */
const LISTENER = sql`datname = current_database() and application_name = 'crosscheck-queue' and (query ilike 'LISTEN %' or query ilike '%pg_listening_channels%')`;
const params = { asOf: '2024-12-31', language: 'en' as const };

if (testBackends().includes('postgres')) {
  describe('queue workers on PostgreSQL', () => {
    let handle: DatabaseHandle;
    let db: Db;
    let url: string;
    let fake: FakeLlm;
    const children = new Set<ChildProcess>();
    const workers = new Set<QueueWorker>();

    /** A `npm run worker` process (tsx scripts/worker.ts) on the test database and fake model. */
    function spawnWorker(extraEnv: Record<string, string> = {}) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts'], {
        env: {
          ...process.env,
          DATABASE_URL: url,
          OPENAI_BASE_URL: fake.url,
          OPENAI_API_KEY: '',
          OPENAI_MODEL: 'fake-llm',
          WORKER_CONCURRENCY: '2',
          WORKER_POLL_INTERVAL_MS: String(POLL.pollIntervalMs),
          // One JSON object per log line, for logLines() to read.
          LOG_FORMAT: 'json',
          ...extraEnv,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.add(child);
      let output = '';
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));
      child.on('exit', () => children.delete(child));
      const ready = waitFor('the worker process to start', async () => {
        if (child.exitCode !== null) throw new Error(`The worker process exited: ${output}`);
        return output.includes('ready:');
      });
      /** The structured log lines so far (the start-up and stop lines are plain text). */
      const logLines = () =>
        output
          .split('\n')
          .slice(0, -1) // the last piece is a line still being written
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>);
      return { child, ready, output: () => output, logLines };
    }

    async function inProcessWorker(workerId: string, concurrency = 2) {
      const worker = await startWorker({ concurrency, workerId, db, ...POLL });
      workers.add(worker);
      return worker;
    }

    async function newRun() {
      return createRun({ db, protocolId: 'kpd-mads', companyId: 'tesla', provider: getProvider({ provider: 'openai' }), mode: 'sequential', params });
    }

    const doneSteps = async (runId: string) => (await listRunSteps({ db, runId })).filter((s) => s.status === 'done');

    beforeAll(async () => {
      handle = await createTestDatabase('postgres');
      db = handle.db;
      const server = new URL(process.env.TEST_DATABASE_URL!);
      server.pathname = `/${handle.location.split('/')[1]}`;
      url = server.toString();
      await seedDemo(db, { accounts: false });

      // The fake answers each step with what the offline analyst wrote, so outputs pass the rules.
      const offline = createOfflineAnalyst();
      const reference = await createRun({ db, protocolId: 'kpd-mads', companyId: 'tesla', provider: offline, params });
      expect((await executeRun({ db, runId: reference.id, provider: offline })).status).toBe('succeeded');
      fake = await startFakeLlm({ ttftMs: 400, tokensPerSecond: 3000 });
      fake.setScript((await listRunSteps({ db, runId: reference.id })).map((s) => ({ match: `Step ${s.stepId} (`, reply: JSON.stringify(s.output) })));

      process.env.OPENAI_BASE_URL = fake.url;
      process.env.OPENAI_MODEL = 'fake-llm';
      delete process.env.OPENAI_API_KEY;
      process.env.DATABASE_URL = url;
      resetEnvForTests();
      resetProvidersForTests();
    }, 90_000);

    afterAll(async () => {
      await Promise.all([...children].map((child) => new Promise((r) => child.once('exit', r).kill('SIGKILL'))));
      for (const worker of workers) await worker.stop({ graceful: false });
      await stopBoss();
      await fake?.close();
      await handle?.close();
      delete process.env.DATABASE_URL;
      delete process.env.OPENAI_BASE_URL;
      delete process.env.OPENAI_MODEL;
      resetEnvForTests();
    });

    it('a worker process killed mid-run loses the run to another worker, which finishes it without redoing or duplicating a step', async () => {
      const doomed = spawnWorker();
      await doomed.ready;
      const run = await newRun();
      await enqueueRun({ db, runId: run.id });
      const before = await waitFor('three steps done in the worker process', async () => {
        const done = await doneSteps(run.id);
        return done.length >= 3 && done;
      });
      const held = await getRun({ db, id: run.id });
      expect(held.workerId).toMatch(new RegExp(`-${doomed.child.pid}-`));
      doomed.child.kill('SIGKILL');

      const survivor = await inProcessWorker('survivor');
      const killedAt = Date.now();
      await waitFor('the survivor to take the run', async () => (await getRun({ db, id: run.id })).workerId?.startsWith('survivor/'), 40_000);
      // Not before the heartbeat lapsed: until then the killed worker's attempt counted as alive.
      expect(Date.now() - killedAt).toBeGreaterThan((HEARTBEAT_SECONDS - 2) * 1000);
      const finished = await waitFor('the run to finish', async () => {
        const r = await getRun({ db, id: run.id });
        return (r.status === 'succeeded' || r.status === 'failed') && r;
      });
      expect(finished.status).toBe('succeeded');
      expect(finished.workerId).toBeNull();
      const steps = await listRunSteps({ db, runId: run.id });
      expect(steps.every((s) => s.status === 'done')).toBe(true);
      expect(new Set(steps.map((s) => s.stepId)).size).toBe(steps.length);
      // Steps finished before the kill were kept as they were, not executed again.
      for (const b of before) {
        const after = steps.find((s) => s.stepId === b.stepId)!;
        expect(after.finishedAt).toEqual(b.finishedAt);
        expect(after.attempt).toBe(1);
      }
      // Each step's usage was added to the run once.
      expect(finished.promptTokens).toBe(steps.reduce((sum, s) => sum + s.promptTokens, 0));
      // The killed worker's job came back by its lapsed heartbeat: the same job, on its second try.
      const jobs = (await db.execute(
        sql`select state::text as state, retry_count as "retryCount" from ${sql.raw(BOSS_SCHEMA)}.job where singleton_key = ${run.id}`,
      )) as unknown as {
        rows: { state: string; retryCount: number }[];
      };
      expect(jobs.rows).toEqual([{ state: 'completed', retryCount: 1 }]);
      await survivor.stop();
    }, 60_000);

    it('a worker whose run another attempt took stops without ending it and can no longer save a step; when that attempt dies too, the run finishes', async () => {
      // One slot, busy with the run: the victim cannot take the thief's job before the thief does.
      const victim = await inProcessWorker('victim', 1);
      const run = await newRun();
      await enqueueRun({ db, runId: run.id });
      await waitFor('a step done', async () => (await doneSteps(run.id)).length >= 1);
      const attempt = (await getRun({ db, id: run.id })).workerId!;
      expect(attempt).toMatch(/^victim\//);
      // As if the victim had stalled and another worker had taken the run: a second job, handed
      // to a "thief" that never beats its heartbeat (a bare fetch), names itself on the run.
      const boss = await getBoss(db);
      await enqueueRun({ db, runId: run.id });
      const [stolen] = (await boss.fetch<RunJob>(RUN_QUEUE)) ?? [];
      expect(stolen?.data.runId).toBe(run.id);
      await db
        .update(runs)
        .set({ workerId: `thief/${stolen!.id}/0` })
        .where(eq(runs.id, run.id));
      await waitFor('the victim to stop executing', async () => !isRunActive(run.id));

      const left = await getRun({ db, id: run.id });
      expect(left.status).toBe('running');
      expect(left.workerId).toBe(`thief/${stolen!.id}/0`);
      const steps = await listRunSteps({ db, runId: run.id });
      expect(steps.some((s) => s.status === 'failed')).toBe(false);
      const pending = steps.find((s) => s.status !== 'done')!;
      await expect(
        markStepDone({
          db,
          runId: run.id,
          stepId: pending.stepId,
          text: 'late',
          output: {} as never,
          usage: { promptTokens: 1, completionTokens: 1, costUsd: 0 },
          workerId: attempt,
        }),
      ).rejects.toBeInstanceOf(LeaseLostError);

      // The thief beats no heartbeat: pg-boss fails its job back into the queue, the victim's
      // worker takes that job's next try, and the run completes.
      const finished = await waitFor(
        'the run to finish',
        async () => {
          const r = await getRun({ db, id: run.id });
          return (r.status === 'succeeded' || r.status === 'failed') && r;
        },
        45_000,
      );
      expect(finished.status).toBe('succeeded');
      await victim.stop();
    }, 60_000);

    it('a graceful stop hands an in-flight run to another worker at once, and that worker completes it', async () => {
      const leaving = await inProcessWorker('leaving');
      const run = await newRun();
      await enqueueRun({ db, runId: run.id });
      const before = await waitFor('two steps done', async () => {
        const done = await doneSteps(run.id);
        return done.length >= 2 && done;
      });
      await leaving.stop({ graceful: true, timeoutMs: 0 });
      const released = await getRun({ db, id: run.id });
      expect(released.status).toBe('running');
      expect(released.workerId).toBeNull();
      expect((await listRunSteps({ db, runId: run.id })).some((s) => s.status === 'running')).toBe(false);

      const taker = await inProcessWorker('taker');
      const finished = await waitFor('the run to finish', async () => {
        const r = await getRun({ db, id: run.id });
        return (r.status === 'succeeded' || r.status === 'failed') && r;
      });
      expect(finished.status).toBe('succeeded');
      const steps = await listRunSteps({ db, runId: run.id });
      for (const b of before) expect(steps.find((s) => s.stepId === b.stepId)!.finishedAt).toEqual(b.finishedAt);
      await taker.stop();
    }, 60_000);

    it('a queued run wakes an idle worker at once instead of waiting for its next poll, also after the wake-up connection was cut', async () => {
      // Polling once a minute: only pg-boss's LISTEN/NOTIFY can make the worker take a run within seconds.
      // No other worker of this process may take the runs first.
      for (const other of workers) await other.stop({ graceful: false });
      const sleeper = await startWorker({ concurrency: 2, workerId: 'sleeper', db, pollIntervalMs: 60_000 });
      workers.add(sleeper);
      const pickedUp = async () => {
        const run = await newRun();
        await new Promise((r) => setTimeout(r, 1_000)); // both slots are asleep by now
        await enqueueRun({ db, runId: run.id });
        await waitFor('the sleeping worker to take the run', async () => (await getRun({ db, id: run.id })).workerId?.startsWith('sleeper/'), 15_000);
        expect(await runner.cancel({ db, runId: run.id })).toBe(true);
        await waitFor('the worker to let go of the run', async () => (await getRun({ db, id: run.id })).workerId === null);
      };
      await pickedUp();

      const cut = (await db.execute(sql`select pg_terminate_backend(pid) as cut from pg_stat_activity where ${LISTENER}`)) as unknown as {
        rows: { cut: boolean }[];
      };
      expect(cut.rows).toEqual([{ cut: true }]);
      await waitFor('the wake-up connection to come back', async () => {
        const back = (await db.execute(sql`select count(*)::int as n from pg_stat_activity where ${LISTENER}`)) as unknown as {
          rows: { n: number }[];
        };
        return back.rows[0].n === 1;
      });
      await pickedUp();
      await sleeper.stop();
    }, 60_000);

    it("a worker process takes the portfolio watch's passes and the daily retention purge: it schedules both cron jobs and says so", async () => {
      const watcher = spawnWorker({ WATCH_PASS_MINUTES: '7' });
      await watcher.ready;
      expect(watcher.output()).toContain('takes portfolio watch passes (every 7 min); takes the daily retention purge (18:15 UTC)');
      const { rows } = (await db.execute(
        sql`select name, cron from ${sql.raw(BOSS_SCHEMA)}.schedule where name in ('crosscheck-watch', 'crosscheck-retention') order by name`,
      )) as unknown as {
        rows: { name: string; cron: string }[];
      };
      expect(rows.map((r) => [r.name, r.cron])).toEqual([
        ['crosscheck-retention', '15 18 * * *'],
        ['crosscheck-watch', '*/7 * * * *'],
      ]);
      watcher.child.kill('SIGTERM');
      await waitFor('the worker to stop', async () => watcher.child.exitCode !== null);
      expect(watcher.child.exitCode).toBe(0);
    });

    it('a cancel from another process stops the worker process executing the run', async () => {
      const remote = spawnWorker();
      await remote.ready;
      const run = await newRun();
      await enqueueRun({ db, runId: run.id });
      await waitFor('a step done in the worker process', async () => (await doneSteps(run.id)).length >= 1);

      expect(await runner.cancel({ db, runId: run.id })).toBe(true);
      // The cancel ended the attempt and put the running steps back in its transaction.
      const stopped = await getRun({ db, id: run.id });
      expect({ status: stopped.status, workerId: stopped.workerId }).toEqual({ status: 'cancelled', workerId: null });
      const steps = await listRunSteps({ db, runId: run.id });
      expect(steps.some((s) => s.status === 'running')).toBe(false);
      expect(steps.filter((s) => s.status === 'done').length).toBeLessThan(steps.length);
      // The worker's job signal aborts at its next heartbeat, and it stops executing the run.
      await waitFor(
        'the worker log line',
        async () => remote.logLines().some((l) => l.component === 'worker' && l.msg === 'run ended here' && l.runId === run.id && l.status === 'released'),
        15_000,
      );
      const after = await listRunSteps({ db, runId: run.id });
      expect(after.map((s) => [s.stepId, s.status])).toEqual(steps.map((s) => [s.stepId, s.status]));
      // SIGTERM: the process stops gracefully and exits by itself.
      const exited = new Promise((r) => remote.child.once('exit', r));
      remote.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(remote.output()).toContain('[worker] stopped');
    }, 60_000);
  });
}
