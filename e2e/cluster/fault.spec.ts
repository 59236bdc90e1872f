// Fault tests of a small deployment on PostgreSQL, each part a separate OS process: a private
// PostgreSQL server (so it can be restarted), two app instances (`next start`, no embedded
// worker), two queue workers (`npm run worker`) and the fake model server failing 20 % of calls
// with 429 or 500. Runs are started through app instance A's server action and watched through
// app instance B's event stream, as two people on different instances would. Last, a third
// instance with an embedded worker is stopped with SIGTERM in the middle of its runs.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, request, test } from '@playwright/test';
import pg from 'pg';
import { serverActionsOf } from '../../lib/auth/endpoints';
import { KPD_MADS } from '../../lib/debate/protocols/kpd-mads';
import { proseOf } from '../../lib/domain/outputs';
import { startPgCluster, type PgCluster } from '../../scripts/cluster/pg-cluster';
import { migrateAndSeed, startAll, startAppInstance, startFakeModel, startWorker, writeReferenceScript, type Proc } from '../../scripts/cluster/processes';
import { DEMO_PASSWORD, DEMO_USERS } from '../fixtures';
import { replayPartials, watchRun, type Viewer } from './sse';

const KPD_STEPS = 11;
const RUNS = 40;

let cluster: PgCluster;
let db: pg.Pool;
let fake: Proc & { url: string };
let appA: Proc & { url: string };
let appB: Proc & { url: string };
let workers: Proc[] = [];
/** Processes a test started for itself. */
const extra: Proc[] = [];
let commonEnv: Record<string, string>;
/**
 * The case the runs start on: the demo RM's, on a pool that clears the evidence threshold
 * (lib/debate/sufficiency.ts) — Travelers' three items on three factors, the smallest that does
 * (the demo's thin draft, Taeyoung E&C with one workout filing, ends as a red-flag screening).
 */
const FAULT_CASE = { companyId: 'travelers-companies', asOfDate: '2021-06-30' } as const;
let caseId = '';
/** The fake model's answer per step id: what a viewer must see streamed, token by token. */
let replies: Map<string, string>;
const workerEnv = () => ({ ...commonEnv, WORKER_CONCURRENCY: '8' });
const everything = () => [appA, appB, fake, ...workers, ...extra].filter(Boolean);

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  cluster = await startPgCluster();
  // One session secret for the seed and every process: the audit log is keyed from it.
  const authSecret = crypto.randomBytes(32).toString('base64');
  migrateAndSeed(cluster.url, { AUTH_SECRET: authSecret });
  db = testPool();
  const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'crosscheck-fault-')), 'script.json');
  const { rows: owners } = await db.query<{ id: string }>('select id from users where email = $1', [DEMO_USERS.rm.email]);
  const { rows: made } = await db.query<{ id: string }>(
    `insert into cases (company_id, owner_id, title, loan_amount, loan_currency, loan_purpose, loan_tenor_months, as_of_date)
     values ($1, $2, 'Travelers — fault test', 10000000, 'USD', 'Liquidity line', 12, $3) returning id`,
    [FAULT_CASE.companyId, owners[0].id, FAULT_CASE.asOfDate],
  );
  caseId = made[0].id;
  writeReferenceScript({
    databaseUrl: cluster.url,
    companyId: FAULT_CASE.companyId,
    asOf: FAULT_CASE.asOfDate,
    language: 'en',
    out: script,
    env: { AUTH_SECRET: authSecret },
  });
  const entries = JSON.parse(fs.readFileSync(script, 'utf8')) as { match: string[]; reply: string }[];
  replies = new Map(entries.map((e) => [/^Step (\S+) \(/.exec(e.match[0])![1], e.reply]));
  // A short retry-after and enough retries that 20 % failures never exhaust them (0.2^9 per call).
  fake = await startFakeModel({ ttftMs: 60, tokensPerSecond: 250, faultRate: 0.2, faultKinds: ['429', '500'], script });
  commonEnv = {
    DATABASE_URL: cluster.url,
    AUTH_SECRET: authSecret,
    AUTH_TRUST_HOST: 'true',
    DEMO: '1',
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: 'fake-key-for-tests',
    OPENAI_MODEL: 'fake-llm',
    OPENAI_MAX_RETRIES: '8',
    RUNS_PER_USER_LIMIT: '100',
    LOG_FORMAT: 'json',
  };
  const app = { ...commonEnv, CROSSCHECK_EMBEDDED_WORKER: '0' };
  [appA, appB] = await startAll([startAppInstance('app-a', app), startAppInstance('app-b', app)]);
  workers = await startAll([startWorker('worker-1', workerEnv()), startWorker('worker-2', workerEnv())]);
});

test.afterAll(async () => {
  await Promise.allSettled(everything().map((p) => p.stop(5_000)));
  await db?.end().catch(() => {});
  cluster?.stop();
});

test.afterEach(async ({}, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) return;
  // Each process's output, as files next to the trace (the reporter would cut them short).
  for (const p of everything()) fs.writeFileSync(testInfo.outputPath(`${p.name}.log`), p.output());
  const failures = await db
    .query(
      "select r.id, r.status, r.error, s.step_id, s.error as step_error from runs r left join run_steps s on s.run_id = r.id and s.status = 'failed' where r.status <> 'succeeded'",
    )
    .then(
      (r) => r.rows,
      (err: Error) => [{ error: err.message }],
    );
  fs.writeFileSync(testInfo.outputPath('unfinished-runs.json'), JSON.stringify(failures, null, 2));
});

/** Signs in through Auth.js as a browser form would; returns the cookie header for that instance. */
async function signIn(baseURL: string, role: 'rm') {
  const context = await request.newContext({ baseURL, maxRedirects: 0 });
  const { csrfToken } = (await (await context.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const response = await context.post('/api/auth/callback/credentials', {
    form: { email: DEMO_USERS[role].email, password: DEMO_PASSWORD, csrfToken, callbackUrl: '/' },
  });
  expect(response.status(), `sign-in as ${role}`).toBe(302);
  const { cookies } = await context.storageState();
  await context.dispose();
  return cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

const startRunAction = () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(process.cwd(), '.next', 'server', 'server-reference-manifest.json'), 'utf8'));
  const action = serverActionsOf(manifest).find((a) => a.exportedName === 'startRun');
  if (!action) throw new Error('startRun is not in the build');
  return action;
};

/** Starts a KPD-MADS run on the OpenAI-compatible provider through instance A's server action. */
async function startRun(cookie: string): Promise<string> {
  const action = startRunAction();
  const caseUrl = `/cases/${caseId}`;
  const response = await fetch(`${appA.url}${caseUrl}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'Next-Action': action.id, 'Content-Type': 'text/plain;charset=UTF-8', Origin: appA.url, Accept: 'text/x-component' },
    body: JSON.stringify([{ case_id: caseId, protocol: 'kpd-mads', provider: 'openai', language: 'en', mode: 'dag', recency_days: 1095, max_web_results: 0 }]),
  });
  const location = response.headers.get('x-action-redirect') ?? '';
  const id = /\/runs\/([0-9a-f-]{36})/.exec(location)?.[1];
  if (!id) throw new Error(`startRun answered ${response.status} without a run: ${(await response.text()).slice(0, 300)}`);
  return id;
}

/**
 * The test's own connections. `end()` resolves once its clients are told to close, not once their
 * sockets are gone, so a restart right after it can still cut one: the server's "terminating
 * connection due to administrator command" then arrives as the pool's 'error' event, which would
 * throw without a listener. A query's own failure still rejects that query.
 */
function testPool() {
  const pool = new pg.Pool({ connectionString: cluster.url, max: 3 });
  pool.on('error', () => {});
  return pool;
}

/**
 * Polls `probe` until it gives a value. On timeout the error says what was awaited and, with
 * `state`, where things stood (the run statuses, say), so a failure on CI explains itself.
 */
async function waitUntil<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs: number, state?: () => Promise<unknown>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) {
      const seen = state
        ? await state().then(
            (v) => JSON.stringify(v),
            (err: Error) => `(state unreadable: ${err.message})`,
          )
        : '';
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${seen ? `; state: ${seen}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The unfinished runs of `ids` with their status, current step and any error: what a timeout reports. */
async function whereRunsStand(ids: string[]) {
  const { rows } = await db.query<{ id: string; status: string; error: string | null; worker_id: string | null; done: string; running: string | null }>(
    `select r.id, r.status, r.error, r.worker_id, count(*) filter (where s.status = 'done') as done,
            string_agg(s.step_id, ',') filter (where s.status = 'running') as running
       from runs r left join run_steps s on s.run_id = r.id
      where r.id = any($1) and r.status <> 'succeeded' group by r.id`,
    [ids],
  );
  return { statuses: await statuses(ids), unfinished: rows.slice(0, 8) };
}

async function statuses(ids: string[]) {
  const { rows } = await db.query<{ status: string; n: string }>('select status, count(*) as n from runs where id = any($1) group by status', [ids]);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** Every run has each protocol step exactly once, all done, and its totals equal its steps' sums. */
async function expectCompleteSteps(ids: string[]) {
  const { rows } = await db.query<{ run_id: string; steps: string; distinct_steps: string; done: string; step_tokens: string; run_tokens: string }>(
    `select s.run_id, count(*) as steps, count(distinct s.step_id) as distinct_steps, count(*) filter (where s.status = 'done') as done,
            sum(s.prompt_tokens + s.completion_tokens) as step_tokens, max(r.prompt_tokens + r.completion_tokens) as run_tokens
       from run_steps s join runs r on r.id = s.run_id where s.run_id = any($1) group by s.run_id`,
    [ids],
  );
  expect(rows).toHaveLength(ids.length);
  for (const r of rows) {
    expect({ run: r.run_id, steps: Number(r.steps), distinct: Number(r.distinct_steps), done: Number(r.done) }).toEqual({
      run: r.run_id,
      steps: KPD_STEPS,
      distinct: KPD_STEPS,
      done: KPD_STEPS,
    });
    // A step saved twice would add its usage to the run twice.
    expect(Number(r.run_tokens), `token totals of ${r.run_id}`).toBe(Number(r.step_tokens));
  }
}

/** The prose a viewer sees of a step's scripted answer: the field its output kind shows first (lib/domain/outputs.ts). */
function proseOfReply(stepId: string) {
  const step = KPD_MADS.steps.find((s) => s.id === stepId);
  const reply = replies.get(stepId);
  if (!step || reply === undefined) return undefined;
  return proseOf(step.output, JSON.parse(reply));
}

/** What a viewer on the other instance saw: every step's last partial answer before its end holds the prose of the model's whole answer. */
function expectFullStream(viewer: Viewer, runId: string) {
  const finished = viewer.messages.find((m) => m.type === 'run-finished');
  expect(finished && 'status' in finished ? finished.status : undefined, `run-finished of ${runId} on instance B`).toBe('succeeded');
  const steps = replayPartials(viewer.messages);
  expect(new Set(steps.map((s) => s.stepId)).size, `steps streamed live for ${runId}`).toBeGreaterThan(0);
  for (const s of steps) {
    // A partial's text is its prose only, never the answer's JSON (lib/debate/live-step.ts).
    expect(s.streamed, `${runId} ${s.stepId}: prose seen on instance B`).toBe(proseOfReply(s.stepId));
    expect(s.final.length, `${runId} ${s.stepId}: step-done text`).toBeGreaterThan(0);
  }
}

test('40 KPD-MADS runs with 20 % provider failures all succeed; a worker killed mid-run loses no step and duplicates none', async () => {
  test.setTimeout(540_000);
  const rmCookie = await signIn(appA.url, 'rm');
  const viewerCookie = await signIn(appB.url, 'rm');
  const ids: string[] = [];
  for (let i = 0; i < RUNS; i += 8) ids.push(...(await Promise.all(Array.from({ length: Math.min(8, RUNS - i) }, () => startRun(rmCookie)))));
  expect(new Set(ids).size).toBe(RUNS);
  // Viewers on instance B, which executes nothing: every partial answer reaches them through PostgreSQL.
  const viewers = ids.slice(-4).map((id) => ({ id, viewer: watchRun(appB.url, id, viewerCookie) }));

  // Kill worker 1 while it holds runs with finished steps in them.
  const victim = workers[0];
  const pid = victim.child.pid!;
  const held = await waitUntil(
    'worker 1 to hold runs with finished steps',
    async () => {
      const { rows } = await db.query<{ id: string; done: string }>(
        `select r.id, count(*) filter (where s.status = 'done') as done from runs r join run_steps s on s.run_id = r.id
          where r.status = 'running' and r.worker_id like $1 group by r.id`,
        [`%-${pid}-%`],
      );
      const withDone = rows.filter((r) => Number(r.done) >= 2);
      return withDone.length >= 2 ? withDone.map((r) => r.id) : undefined;
    },
    120_000,
  );
  const { rows: before } = await db.query<{ run_id: string; step_id: string; finished_at: Date }>(
    "select run_id, step_id, finished_at from run_steps where run_id = any($1) and status = 'done'",
    [held],
  );
  await victim.kill();

  const outcome = await waitUntil(
    'every run to end',
    async () => {
      const s = await statuses(ids);
      return (s.succeeded ?? 0) + (s.failed ?? 0) + (s.cancelled ?? 0) === RUNS ? s : undefined;
    },
    360_000,
    () => whereRunsStand(ids),
  );
  // A run that did not succeed says why in the assertion's message, not only in the files afterEach writes.
  expect(outcome, JSON.stringify((await whereRunsStand(ids)).unfinished)).toEqual({ succeeded: RUNS });
  await expectCompleteSteps(ids);

  // The killed worker's finished steps were kept as they were, not redone by the other worker.
  const { rows: after } = await db.query<{ run_id: string; step_id: string; finished_at: Date }>(
    'select run_id, step_id, finished_at from run_steps where run_id = any($1)',
    [held],
  );
  for (const b of before) {
    const a = after.find((x) => x.run_id === b.run_id && x.step_id === b.step_id)!;
    expect(a.finished_at.toISOString(), `${b.run_id} ${b.step_id}`).toBe(b.finished_at.toISOString());
  }
  // Worker 2 took over and finished the runs worker 1 held.
  for (const id of held) expect(workers[1].output(), `worker 2 log`).toContain(id);

  // The failures really happened, and the provider's error counter saw them.
  const { rows: errors } = await db.query<{ code: string; value: string }>(
    "select labels->>'code' as code, value from ops_counters where name = 'provider_errors'",
  );
  const byCode = Object.fromEntries(errors.map((e) => [e.code, Number(e.value)]));
  expect(byCode['429'] ?? 0).toBeGreaterThan(10);
  expect(byCode['500'] ?? 0).toBeGreaterThan(10);

  for (const { id, viewer } of viewers) {
    await viewer.done;
    expectFullStream(viewer, id);
  }
});

test('a PostgreSQL restart in the middle of runs: they resume and finish, each step once', async () => {
  test.setTimeout(300_000);
  // Worker 1 was killed above: start a fresh one, as an orchestrator would.
  workers[0] = await startWorker('worker-3', workerEnv());
  const rmCookie = await signIn(appA.url, 'rm');
  const ids = await Promise.all(Array.from({ length: 6 }, () => startRun(rmCookie)));
  await waitUntil(
    'runs with finished steps',
    async () => {
      const { rows } = await db.query<{ n: string }>("select count(distinct run_id) as n from run_steps where run_id = any($1) and status = 'done'", [ids]);
      return Number(rows[0].n) >= 3;
    },
    120_000,
  );
  await db.end();
  cluster.restart();
  db = testPool();

  const outcome = await waitUntil(
    'every run to end after the restart',
    async () => {
      const s = await statuses(ids).catch(() => ({}) as Record<string, number>);
      return (s.succeeded ?? 0) + (s.failed ?? 0) + (s.cancelled ?? 0) === ids.length ? s : undefined;
    },
    240_000,
    () => whereRunsStand(ids),
  );
  expect(outcome).toEqual({ succeeded: ids.length });
  await expectCompleteSteps(ids);
  // Both app instances and the workers came through the restart.
  for (const app of [appA, appB]) expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
  for (const w of workers) expect(w.child.exitCode).toBeNull();
});

test("an app instance stopped with SIGTERM finishes its embedded worker's runs for a moment, then hands the rest over at once", async () => {
  test.setTimeout(240_000);
  // Only the new instance's embedded worker executes runs. A run it did not hand over would wait
  // for its job's heartbeat to lapse; one it handed over is queued again at once.
  await Promise.all(workers.map((w) => w.stop()));
  const appC = await startAppInstance('app-c', { ...commonEnv, WORKER_CONCURRENCY: '4', WORKER_SHUTDOWN_TIMEOUT_MS: '1000' });
  extra.push(appC);
  const rmCookie = await signIn(appA.url, 'rm');
  const ids = await Promise.all(Array.from({ length: 4 }, () => startRun(rmCookie)));
  await waitUntil(
    'the embedded worker to hold runs with finished steps',
    async () => {
      const { rows } = await db.query<{ n: string }>(
        `select count(distinct r.id) as n from runs r join run_steps s on s.run_id = r.id
          where r.id = any($1) and r.status = 'running' and r.worker_id is not null and s.status = 'done'`,
        [ids],
      );
      return Number(rows[0].n) >= 2;
    },
    120_000,
  );

  const stoppedAt = Date.now();
  await appC.stop(30_000);
  expect(appC.child.exitCode, appC.output().slice(-2000)).toBe(0);
  expect(Date.now() - stoppedAt, 'stopped within the shutdown timeout, not killed after the grace period').toBeLessThan(20_000);
  expect(appC.output()).toContain('Crosscheck stopped');
  const { rows: left } = await db.query<{ id: string; status: string; worker_id: string | null; running_steps: string }>(
    `select r.id, r.status, r.worker_id, count(*) filter (where s.status = 'running') as running_steps
       from runs r join run_steps s on s.run_id = r.id where r.id = any($1) group by r.id`,
    [ids],
  );
  const unfinished = left.filter((r) => r.status !== 'succeeded');
  expect(unfinished.length, 'runs still going when the instance stopped').toBeGreaterThan(0);
  for (const r of unfinished)
    expect({ id: r.id, status: r.status, worker: r.worker_id, runningSteps: Number(r.running_steps) }).toEqual({
      id: r.id,
      status: 'running',
      worker: null,
      runningSteps: 0,
    });

  // A worker started now takes them at once: the handed-over runs are on the queue, not waiting for a heartbeat to lapse.
  extra.push(await startWorker('worker-4', workerEnv()));
  const outcome = await waitUntil(
    'every handed-over run to end',
    async () => {
      const s = await statuses(ids);
      return (s.succeeded ?? 0) + (s.failed ?? 0) + (s.cancelled ?? 0) === ids.length ? s : undefined;
    },
    90_000,
  );
  expect(outcome).toEqual({ succeeded: ids.length });
  await expectCompleteSteps(ids);
});
