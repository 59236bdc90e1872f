// What we rely on in pg-boss, checked on the exact version package.json pins. pg-boss 12 declares
// Node >= 22.12 and we run it on Node 20 (docs/operations.md, "The job queue's Node exception"), so
// this file is the guard: a pg-boss patch that stops working here, or changes a behaviour the queue
// code (lib/jobs/boss.ts, worker.ts, watch-scheduler.ts, lib/db/queries/queue.ts) counts on, fails
// it. Most of it needs a real PostgreSQL (TEST_DATABASE_URL); the last part runs on PGlite.
// Besides what the queue uses today it covers what the next steps of docs/jobs-queue-spike.md build
// on: heartbeats, the per-job abort signal on cancel, and sending inside our own transaction.
import { sql } from 'drizzle-orm';
import { fromDrizzle, fromPglite, PgBoss, type ConstructorOptions, type DrizzleTransactionLike, type Job, type Queue } from 'pg-boss';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db, Tx } from '@/lib/db/client';
import { executeRows } from '@/lib/db/rows';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { waitFor } from '@/lib/jobs/test-wait';

const SCHEMA = 'crosscheck_jobs';
type Data = { n?: number; runId?: string };

/** pg-boss's view of our transaction (drizzle's generic `execute` result is `unknown` in our types). */
const inTx = (tx: Tx) => fromDrizzle(tx as unknown as DrizzleTransactionLike, sql);

if (testBackends().includes('postgres')) {
  describe('pg-boss on PostgreSQL', () => {
    let handle: DatabaseHandle;
    let db: Db;
    let url: string;
    let boss: PgBoss;
    const others: PgBoss[] = [];
    let queueNo = 0;

    /** A fresh queue per test, so no test sees another's jobs. */
    const queue = async (options: Omit<Queue, 'name'> = {}) => {
      const name = `feature-${++queueNo}`;
      await boss.createQueue(name, options);
      return name;
    };

    const open = async (options: ConstructorOptions = {}) => {
      const b = new PgBoss({
        connectionString: url,
        schema: SCHEMA,
        max: 3,
        superviseIntervalSeconds: 1,
        monitorIntervalSeconds: 1,
        schedule: false,
        ...options,
      });
      b.on('error', () => {});
      await b.start();
      return b;
    };

    const jobRows = (name: string) =>
      executeRows<{ id: string; state: string; singleton_key: string | null; retry_count: number; output: unknown }>(
        db,
        sql`select id::text as id, state::text as state, singleton_key, retry_count, output from ${sql.raw(SCHEMA)}.job where name = ${name} order by created_on, id`,
      );

    beforeAll(async () => {
      handle = await createTestDatabase('postgres');
      db = handle.db;
      const server = new URL(process.env.TEST_DATABASE_URL!);
      server.pathname = `/${handle.location.split('/')[1]}`;
      url = server.toString();
      // What an installation upgraded from pg-boss 10 has: its schema `pgboss` at version 24.
      await db.execute(sql`create schema pgboss`);
      await db.execute(sql`create table pgboss.version (version int primary key)`);
      await db.execute(sql`insert into pgboss.version values (24)`);
      boss = await open();
    }, 60_000);

    afterEach(async () => {
      await Promise.all(others.splice(0).map((b) => b.stop({ graceful: false }).catch(() => {})));
    });

    afterAll(async () => {
      await boss?.stop({ graceful: false }).catch(() => {});
      await handle?.close();
    });

    it('installs its own schema beside an old pg-boss schema and leaves the old one alone', async () => {
      expect(await boss.isInstalled()).toBe(true);
      expect(await boss.schemaVersion()).toBeGreaterThanOrEqual(25);
      expect(await executeRows(db, sql`select version from pgboss.version`)).toEqual([{ version: 24 }]);
      // Creating a queue that exists is harmless, and getQueue finds it.
      const name = await queue({ policy: 'short' });
      await boss.createQueue(name, { policy: 'short' });
      expect((await boss.getQueue(name))?.policy).toBe('short');
      expect(await boss.getQueue('no-such-queue')).toBeNull();
    });

    it('`short` keeps one waiting job per singleton key, and allows one more while it is active', async () => {
      const name = await queue({ policy: 'short' });
      const first = await boss.send(name, { runId: 'a' }, { singletonKey: 'a' });
      expect(first).toEqual(expect.any(String));
      expect(await boss.send(name, { runId: 'a' }, { singletonKey: 'a' })).toBeNull();
      expect(await boss.send(name, { runId: 'b' }, { singletonKey: 'b' })).toEqual(expect.any(String));
      const [taken] = await boss.fetch<Data>(name);
      expect(taken.id).toBe(first);
      expect(await boss.send(name, { runId: 'a' }, { singletonKey: 'a' })).toEqual(expect.any(String));
      expect(await boss.send(name, { runId: 'a' }, { singletonKey: 'a' })).toBeNull();
      expect((await jobRows(name)).map((j) => [j.singleton_key, j.state])).toEqual([
        ['a', 'active'],
        ['b', 'created'],
        ['a', 'created'],
      ]);
    });

    it('`singleton` accepts every job but lets one be active at a time', async () => {
      const name = await queue({ policy: 'singleton' });
      await boss.send(name, { n: 1 });
      await boss.send(name, { n: 2 });
      const taken = await boss.fetch<Data>(name, { batchSize: 2 });
      expect(taken.map((j) => j.data.n)).toEqual([1]);
      expect(await boss.fetch<Data>(name)).toEqual([]);
      await boss.complete(name, taken[0].id);
      expect((await boss.fetch<Data>(name)).map((j) => j.data.n)).toEqual([2]);
    });

    it('a worker gets its job in an array; resolving completes it, throwing retries it up to the limit, then fails it', async () => {
      const name = await queue({ policy: 'short', retryLimit: 1, retryDelay: 0 });
      const seen: { n: number | undefined; retryCount: number; batch: number }[] = [];
      await boss.work<Data>(name, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async (jobs) => {
        seen.push({ n: jobs[0].data.n, retryCount: jobs[0].retryCount, batch: jobs.length });
        if (jobs[0].data.n === 2) throw new Error('no good');
        return { ok: jobs[0].data.n };
      });
      await boss.send(name, { n: 1 }, { singletonKey: '1' });
      await boss.send(name, { n: 2 }, { singletonKey: '2' });
      const rows = await waitFor('both jobs settled', async () => {
        const r = await jobRows(name);
        return r.every((j) => j.state === 'completed' || j.state === 'failed') && r;
      });
      await boss.offWork(name);
      expect(rows.map((j) => [j.singleton_key, j.state, j.retry_count])).toEqual([
        ['1', 'completed', 0],
        ['2', 'failed', 1],
      ]);
      expect(rows[0].output).toEqual({ ok: 1 });
      expect(rows[1].output).toMatchObject({ message: 'no good' });
      expect(seen.filter((s) => s.n === 2).map((s) => s.retryCount)).toEqual([0, 1]);
      expect(seen.every((s) => s.batch === 1)).toBe(true);
    });

    it('notifyWorker makes an idle worker fetch at once instead of at its next poll', async () => {
      const name = await queue({ policy: 'short' });
      const started: number[] = [];
      const id = await boss.work<Data>(name, { batchSize: 1, pollingIntervalSeconds: 60 }, async () => void started.push(Date.now()));
      await new Promise((r) => setTimeout(r, 500)); // its first, empty fetch is over: asleep for a minute
      await boss.send(name, { n: 1 });
      const sent = Date.now();
      boss.notifyWorker(id);
      await waitFor('the woken worker to take the job', () => started.length === 1, 5_000);
      expect(started[0] - sent).toBeLessThan(2_000);
      await boss.offWork(name);
    });

    it('offWork without waiting stops the fetching at once; the job in hand completes when its handler ends', async () => {
      const name = await queue({ policy: 'short' });
      let release: () => void = () => {};
      const handled: number[] = [];
      const id = await boss.work<Data>(name, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
        handled.push(job.data.n!);
        await new Promise<void>((r) => (release = r));
      });
      await boss.send(name, { n: 1 });
      await waitFor('the handler to start', () => handled.length === 1);
      const before = Date.now();
      await boss.offWork(name, { id, wait: false });
      expect(Date.now() - before).toBeLessThan(500);
      await boss.send(name, { n: 2 });
      release();
      await waitFor('the first job completed', async () => (await jobRows(name))[0]?.state === 'completed');
      await new Promise((r) => setTimeout(r, 1_200)); // more than two polls
      expect(handled).toEqual([1]);
      expect((await jobRows(name)).map((j) => j.state)).toEqual(['completed', 'created']);
    });

    it('its job table takes our SQL: states ordered created < retry < active, a job failed by hand stays failed when its worker completes it late', async () => {
      const name = await queue({ policy: 'short' });
      await boss.send(name, { runId: 'r1' }, { singletonKey: 'r1' });
      await boss.send(name, { runId: 'r2' }, { singletonKey: 'r2' });
      const [job] = await boss.fetch<Data>(name);
      const waiting = await executeRows<{ key: string }>(
        db,
        sql`select singleton_key as key from ${sql.raw(SCHEMA)}.job where name = ${name} and state < 'active' and started_on is null`,
      );
      expect(waiting).toEqual([{ key: 'r2' }]);
      const failed = await executeRows<{ id: string }>(
        db,
        sql`update ${sql.raw(SCHEMA)}.job set state = 'failed', completed_on = now(), output = ${JSON.stringify({ message: 'by hand' })}::jsonb
            where name = ${name} and state = 'active' and started_on < now() + interval '1 minute' returning id::text as id`,
      );
      expect(failed).toEqual([{ id: job.id }]);
      await expect(boss.complete(name, job.id)).resolves.toBeDefined();
      expect((await jobRows(name)).map((j) => [j.singleton_key, j.state, j.output])).toEqual([
        ['r1', 'failed', { message: 'by hand' }],
        ['r2', 'created', null],
      ]);
    });

    it('a cron schedule is stored in its schedule table with its time zone', async () => {
      const name = await queue({ policy: 'singleton' });
      await boss.schedule(name, '*/7 * * * *', {}, { tz: 'UTC' });
      expect(await executeRows(db, sql`select name, cron, timezone from ${sql.raw(SCHEMA)}.schedule where name = ${name}`)).toEqual([
        { name, cron: '*/7 * * * *', timezone: 'UTC' },
      ]);
      await boss.unschedule(name);
    });

    it('a graceful stop that outlasts its timeout fails the job in hand into retry', async () => {
      const stopping = await open();
      const name = await queue({ policy: 'short', retryLimit: 3, retryDelay: 0 });
      let signal: AbortSignal | undefined;
      await stopping.work<Data>(name, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
        signal = job.signal;
        await new Promise((r) => job.signal.addEventListener('abort', r));
      });
      await stopping.send(name, { n: 1 });
      await waitFor('the handler to start', () => signal);
      await stopping.stop({ graceful: true, timeout: 1_000 });
      expect(signal!.aborted).toBe(true);
      // The row counts attempts when a job is claimed: the next worker's fetch makes this 1.
      expect((await jobRows(name)).map((j) => [j.state, j.retry_count])).toEqual([['retry', 0]]);
      const [again] = await boss.fetch<Data>(name);
      expect(again.retryCount).toBe(1);
    });

    it('a job whose worker stopped sending heartbeats is retried after heartbeatSeconds', async () => {
      const name = await queue({ policy: 'stately', heartbeatSeconds: 10, retryLimit: 2, retryDelay: 0 });
      await boss.send(name, { n: 1 }, { singletonKey: 'k' });
      // A fetch sends no heartbeats: the same as a worker that died holding the job.
      const [job] = await boss.fetch<Data>(name);
      const taken = Date.now();
      const back = await waitFor(
        'the job back for another try',
        async () => {
          const [row] = await jobRows(name);
          return row.state === 'retry' && row;
        },
        25_000,
        250,
      );
      expect(Date.now() - taken).toBeGreaterThanOrEqual(9_000);
      expect(back.id).toBe(job.id);
      const [again] = await boss.fetch<Data>(name);
      expect({ id: again.id, retryCount: again.retryCount }).toEqual({ id: job.id, retryCount: 1 });
    }, 30_000);

    it("a cancel from another instance aborts the handler's signal through the heartbeat", async () => {
      const name = await queue({ policy: 'stately', heartbeatSeconds: 10 });
      const other = await open();
      others.push(other);
      let handled: Job<Data> | undefined;
      let abortedAt = 0;
      await boss.work<Data>(name, { batchSize: 1, pollingIntervalSeconds: 0.5, heartbeatRefreshSeconds: 1 }, async ([job]) => {
        handled = job;
        await new Promise((r) => job.signal.addEventListener('abort', r));
        abortedAt = Date.now();
      });
      const id = await boss.send(name, { n: 1 }, { singletonKey: 'k' });
      await waitFor('the handler to start', () => handled);
      const cancelledAt = Date.now();
      await other.cancel(name, id!);
      await waitFor('the signal to abort', () => abortedAt > 0, 5_000);
      expect(abortedAt - cancelledAt).toBeLessThan(3_000);
      expect((await jobRows(name)).map((j) => j.state)).toEqual(['cancelled']);
      await boss.offWork(name);
    });

    it('send and cancel inside our drizzle transaction commit or roll back with it', async () => {
      const name = await queue({ policy: 'short' });
      await db.transaction(async (tx) => {
        await boss.send(name, { n: 1 }, { db: inTx(tx) });
        // Not visible outside the transaction before it commits.
        expect(await jobRows(name)).toEqual([]);
      });
      await expect(
        db.transaction(async (tx) => {
          await boss.send(name, { n: 2 }, { db: inTx(tx), singletonKey: 'two' });
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      const [kept] = await jobRows(name);
      expect((await jobRows(name)).map((j) => j.state)).toEqual(['created']);
      await expect(
        db.transaction(async (tx) => {
          await boss.cancel(name, kept.id, { db: inTx(tx) });
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect((await jobRows(name)).map((j) => j.state)).toEqual(['created']);
      await db.transaction(async (tx) => boss.cancel(name, kept.id, { db: inTx(tx) }));
      expect((await jobRows(name)).map((j) => j.state)).toEqual(['cancelled']);
    });
  });
}

describe('pg-boss on PGlite', () => {
  let handle: DatabaseHandle;
  let boss: PgBoss;

  beforeAll(async () => {
    handle = await createTestDatabase('pglite');
    const client = (handle.db as unknown as { $client: import('@electric-sql/pglite').PGlite }).$client;
    boss = new PgBoss({ db: fromPglite(client), backend: 'pglite', schema: SCHEMA, schedule: false, supervise: false });
    boss.on('error', () => {});
    await boss.start();
  }, 60_000);

  afterAll(async () => {
    await boss?.stop({ graceful: false }).catch(() => {});
    await handle?.close();
  });

  it("starts in the app's own PGlite and works a job beside the app's queries", async () => {
    await boss.createQueue('feature-pglite', { policy: 'short' });
    expect(await boss.send('feature-pglite', { n: 1 }, { singletonKey: 'a' })).toEqual(expect.any(String));
    expect(await boss.send('feature-pglite', { n: 1 }, { singletonKey: 'a' })).toBeNull();
    const seen: number[] = [];
    await boss.work<Data>('feature-pglite', { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
      // The app's own query, on the same connection, while pg-boss holds the job.
      const [row] = await executeRows<{ n: number }>(handle.db, sql`select count(*)::int as n from runs`);
      seen.push(job.data.n! + row.n);
    });
    await waitFor('the job completed', async () => {
      const rows = await executeRows<{ state: string }>(handle.db, sql`select state::text as state from ${sql.raw(SCHEMA)}.job where name = 'feature-pglite'`);
      return rows.length === 1 && rows[0].state === 'completed';
    });
    expect(seen).toEqual([1]);
    await boss.offWork('feature-pglite');
  });
});
