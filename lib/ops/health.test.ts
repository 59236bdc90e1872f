import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@/lib/db/client';
import { companies, runs } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { checkHealth, createProviderProbe, queueHealth, type HealthChecks, type ProviderHealth } from '@/lib/ops/health';
import { readQueueJobs } from '@/lib/ops/queue-stats';
import { startFakeLlm, type FakeLlm } from '@/scripts/fake-llm/server';

const providerOk: ProviderHealth = { kind: 'openai', ok: true, latencyMs: 12 };

function checks(overrides: Partial<HealthChecks> = {}): HealthChecks {
  return {
    database: async () => {},
    queue: async () => ({ ok: true, queued: 2, active: 1 }),
    provider: async () => providerOk,
    ...overrides,
  };
}

describe('checkHealth', () => {
  it('is ok when everything answers', async () => {
    const { httpStatus, body } = await checkHealth(checks());
    expect(httpStatus).toBe(200);
    expect(body.status).toBe('ok');
    expect(body.database).toMatchObject({ ok: true });
    expect(body.queue).toEqual({ ok: true, queued: 2, active: 1 });
    expect(body.provider).toEqual(providerOk);
  });

  it('answers 503 when the database is down, with a fixed message instead of the error text', async () => {
    const { httpStatus, body } = await checkHealth(
      checks({ database: async () => Promise.reject(new Error('password authentication failed for user "crosscheck" at db.internal')) }),
    );
    expect(httpStatus).toBe(503);
    expect(body.status).toBe('error');
    expect(body.database).toEqual({ ok: false, message: 'The database is not reachable.' });
    expect(JSON.stringify(body)).not.toContain('db.internal');
  });

  it('treats a database that does not answer in time as down', async () => {
    const { httpStatus, body } = await checkHealth(checks({ database: () => new Promise(() => {}) }), { databaseTimeoutMs: 20 });
    expect(httpStatus).toBe(503);
    expect(body.database.ok).toBe(false);
  });

  it('is degraded, not failed, when the queue is not initialised or the provider is down', async () => {
    const noQueue = await checkHealth(checks({ queue: async () => ({ ok: false, message: 'queue not initialised' }) }));
    expect(noQueue.httpStatus).toBe(200);
    expect(noQueue.body.status).toBe('degraded');
    expect(noQueue.body.queue).toEqual({ ok: false, message: 'queue not initialised' });

    const noProvider = await checkHealth(checks({ provider: async () => ({ kind: 'openai', ok: false, latencyMs: 2000, message: 'x' }) }));
    expect(noProvider.httpStatus).toBe(200);
    expect(noProvider.body.status).toBe('degraded');
  });

  it('fails on an unreadable queue only when configured to require it', async () => {
    const broken = checks({ queue: async () => Promise.reject(new Error('relation "crosscheck_jobs.job" is locked by secret-host')) });
    const lenient = await checkHealth(broken);
    expect(lenient.httpStatus).toBe(200);
    expect(lenient.body.queue).toEqual({ ok: false, message: 'The job queue could not be read.' });
    const strict = await checkHealth(broken, { requireQueue: true });
    expect(strict.httpStatus).toBe(503);
    expect(strict.body.status).toBe('error');
  });
});

describe('createProviderProbe', () => {
  let fake: FakeLlm;
  let silent: Server;
  let silentUrl: string;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    fake = await startFakeLlm();
    // Accepts connections and never answers: a hung endpoint.
    silent = createServer((s) => void sockets.add(s));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    await fake?.close();
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => silent?.close(resolve));
  });

  const modelRequests = () => fake.requests.filter((r) => r.method === 'GET' && r.path === '/v1/models');

  it('reaches the fake model server with the key, and reuses the answer until the cache expires', async () => {
    let clock = 1_000_000;
    const probe = createProviderProbe({ baseURL: fake.url, apiKey: 'sk-probe-0123456789', cacheMs: 30_000, now: () => clock });
    const before = modelRequests().length;
    const first = await probe();
    expect(first).toMatchObject({ kind: 'openai', ok: true });
    expect(first.latencyMs).toBeGreaterThanOrEqual(0);
    expect(modelRequests().at(-1)!.headers.authorization).toBe('Bearer sk-probe-0123456789');

    clock += 29_000;
    await Promise.all([probe(), probe(), probe()]);
    expect(modelRequests().length).toBe(before + 1);

    clock += 1_000;
    expect((await probe()).ok).toBe(true);
    expect(modelRequests().length).toBe(before + 2);
  });

  it('reports an endpoint nobody listens on as unreachable, without its address', async () => {
    // A port that was free a moment ago: nothing listens there now, so the connection is refused.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await createProviderProbe({ baseURL: `http://127.0.0.1:${port}/v1` })();
    expect(result).toMatchObject({ kind: 'openai', ok: false, message: 'The model endpoint is not reachable.' });
    expect(JSON.stringify(result)).not.toContain('127.0.0.1');
  });

  it('gives up on an endpoint that does not answer within the timeout', async () => {
    const result = await createProviderProbe({ baseURL: silentUrl, timeoutMs: 200 })();
    expect(result).toMatchObject({ ok: false, message: 'The model endpoint did not answer within 200 ms.' });
  });

  it('reports an HTTP error status as not ok', async () => {
    const result = await createProviderProbe({ baseURL: `${fake.url}/nowhere` })();
    expect(result).toMatchObject({ ok: false, message: 'The model endpoint answered HTTP 404.' });
  });
});

describe.each(testBackends())("queue counts from pg-boss's job table on %s", (backend) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase(backend);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('says "not initialised" before pg-boss created its schema, then counts waiting jobs, and as active the runs a live attempt holds', async () => {
    const { db } = handle;
    expect(await readQueueJobs({ db })).toBeNull();
    expect(await queueHealth(db)).toEqual({ ok: false, message: 'queue not initialised' });

    // pg-boss 10's schema, left behind by the upgrade, is not read: its jobs are not ours any more.
    await db.execute(sql`create schema pgboss`);
    await db.execute(sql`create table pgboss.job (name text not null, state text not null)`);
    await db.execute(sql`insert into pgboss.job values ('crosscheck-run', 'created')`);
    expect(await readQueueJobs({ db })).toBeNull();

    // The two columns read here, as pg-boss 12 declares them (state is an enum there too).
    await db.execute(sql`create schema crosscheck_jobs`);
    await db.execute(sql`create type crosscheck_jobs.job_state as enum ('created', 'retry', 'active', 'completed', 'cancelled', 'failed')`);
    await db.execute(
      sql`create table crosscheck_jobs.job (id uuid primary key default gen_random_uuid(), name text not null, state crosscheck_jobs.job_state not null default 'created', retry_count int not null default 0)`,
    );
    await db.execute(sql`insert into crosscheck_jobs.job (name, state) values
      ('crosscheck-run', 'created'), ('crosscheck-run', 'created'), ('crosscheck-run', 'retry'),
      ('crosscheck-run', 'active'), ('crosscheck-run', 'completed'), ('crosscheck-run', 'failed'),
      ('another-queue', 'created'), ('another-queue', 'active')`);

    expect(await readQueueJobs({ db })).toEqual({ created: 2, retry: 1, active: 1, completed: 1, cancelled: 0, failed: 1 });
    // Executing runs are those a live attempt holds: the job the run names is active with that try.
    expect(await queueHealth(db)).toEqual({ ok: true, queued: 3, active: 0 });
    const jobId = async (state: string, queue = 'crosscheck-run') =>
      (
        (await db.execute(
          sql`insert into crosscheck_jobs.job (name, state, retry_count) values (${queue}, ${state}::crosscheck_jobs.job_state, 1) returning id::text as id`,
        )) as unknown as { rows: { id: string }[] }
      ).rows[0].id;
    const active = await jobId('active');
    const failed = await jobId('failed');
    const elsewhere = await jobId('active', 'another-queue');
    await db.insert(companies).values({ id: 'acme', name: 'Acme', country: 'KR' });
    const run = { companyId: 'acme', protocol: 'kpd-mads' as const, provider: 'offline', model: 'm' };
    await db.insert(runs).values([
      { ...run, status: 'running' as const, workerId: `alive/${active}/1` },
      // The same job's earlier try, a job that pg-boss failed (its worker died), another queue's job.
      { ...run, status: 'running' as const, workerId: `earlier/${active}/0` },
      { ...run, status: 'running' as const, workerId: `dead/${failed}/1` },
      { ...run, status: 'running' as const, workerId: `other/${elsewhere}/1` },
      { ...run, status: 'queued' as const },
    ]);
    expect(await queueHealth(db)).toEqual({ ok: true, queued: 3, active: 1 });
  });
});
