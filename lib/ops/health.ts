// What GET /api/health answers: the database, the job queue and the model provider, each
// checked behind an injectable function so the rules are testable without a server. Only a
// database that does not answer makes the instance unhealthy (503): without it nothing works,
// while a slow provider or a queue no worker has created yet leaves the app usable, so they
// answer 200 "degraded" for dashboards and alerts rather than pulling the instance out of a
// load balancer. Public: messages are fixed phrases, never an error's text, a URL or a key.
import { getDatabase, type Executor } from '@/lib/db/client';
import { pingDatabase } from '@/lib/db/queries/health';
import type { ProviderName } from '@/lib/domain/vocabulary';
import { env } from '@/lib/env';
import { openAiConfigured } from '@/lib/llm';
import { log } from '@/lib/ops/log';
import { countExecutingRuns } from '@/lib/db/queries/runs';
import { BOSS_SCHEMA, RUN_QUEUE } from '@/lib/jobs/boss';
import { readQueueJobs } from '@/lib/ops/queue-stats';

export type DatabaseHealth = { ok: true; latencyMs: number } | { ok: false; message: string };
export type QueueHealth = { ok: true; queued: number; active: number } | { ok: false; message: string };
export type ProviderHealth = { kind: ProviderName; ok: boolean; latencyMs: number; message?: string };
export type Health = { status: 'ok' | 'degraded' | 'error'; database: DatabaseHealth; queue: QueueHealth; provider: ProviderHealth };

export type HealthChecks = {
  /** Resolves when the database answers a query; throws otherwise. */
  database: () => Promise<void>;
  queue: () => Promise<QueueHealth>;
  provider: () => Promise<ProviderHealth>;
};

export type HealthOptions = {
  /** A queue that cannot be read fails the check (503) instead of degrading it. */
  requireQueue?: boolean;
  /** A database (or queue table) slower than this counts as down. Default 5 s. */
  databaseTimeoutMs?: number;
};

const healthLog = log.child({ component: 'health' });

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function checkHealth(checks: HealthChecks, options: HealthOptions = {}): Promise<{ httpStatus: number; body: Health }> {
  const started = performance.now();
  const [database, queue, provider] = await Promise.all([
    withTimeout(checks.database(), options.databaseTimeoutMs ?? 5_000, 'the database').then(
      (): DatabaseHealth => ({ ok: true, latencyMs: Math.round(performance.now() - started) }),
      (err): DatabaseHealth => {
        healthLog.error('database check failed', { err });
        return { ok: false, message: 'The database is not reachable.' };
      },
    ),
    withTimeout(checks.queue(), options.databaseTimeoutMs ?? 5_000, 'the job queue').catch((err): QueueHealth => {
      healthLog.warn('queue check failed', { err });
      return { ok: false, message: 'The job queue could not be read.' };
    }),
    checks.provider(),
  ]);
  const queueDown = 'ok' in queue && !queue.ok;
  const failed = !database.ok || (queueDown && options.requireQueue);
  const degraded = queueDown || !provider.ok;
  const status = failed ? 'error' : degraded ? 'degraded' : 'ok';
  return { httpStatus: failed ? 503 : 200, body: { status, database, queue, provider } };
}

/** Queue check: waiting run jobs (created, retry) and the runs a live attempt executes. */
export async function queueHealth(db: Executor): Promise<QueueHealth> {
  const jobs = await readQueueJobs({ db });
  if (!jobs) return { ok: false, message: 'queue not initialised' };
  return {
    ok: true,
    queued: (jobs.created ?? 0) + (jobs.retry ?? 0),
    active: await countExecutingRuns({ db, queue: { schema: BOSS_SCHEMA, name: RUN_QUEUE } }),
  };
}

export type ProviderProbeOptions = {
  /** The OpenAI-compatible base URL, ending in /v1 as OPENAI_BASE_URL does. */
  baseURL: string;
  apiKey?: string;
  /** Default 2 s. */
  timeoutMs?: number;
  /** How long one answer is reused, so frequent health probes do not hammer the endpoint. Default 30 s. */
  cacheMs?: number;
  now?: () => number;
};

/** `GET {baseURL}/models`, the cheapest call every compatible server has; one probe at a time, reused for cacheMs. */
export function createProviderProbe(options: ProviderProbeOptions): () => Promise<ProviderHealth> {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const cacheMs = options.cacheMs ?? 30_000;
  const now = options.now ?? Date.now;
  let cached: { at: number; result: Promise<ProviderHealth> } | undefined;

  async function probe(): Promise<ProviderHealth> {
    const started = performance.now();
    const latencyMs = () => Math.round(performance.now() - started);
    try {
      const response = await fetch(`${options.baseURL.replace(/\/+$/, '')}/models`, {
        headers: options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {},
        signal: AbortSignal.timeout(timeoutMs),
        cache: 'no-store',
      });
      await response.body?.cancel();
      if (response.ok) return { kind: 'openai', ok: true, latencyMs: latencyMs() };
      healthLog.warn('model endpoint answered an error', { status: response.status });
      return { kind: 'openai', ok: false, latencyMs: latencyMs(), message: `The model endpoint answered HTTP ${response.status}.` };
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError';
      healthLog.warn('model endpoint is not reachable', { err });
      return {
        kind: 'openai',
        ok: false,
        latencyMs: latencyMs(),
        message: timedOut ? `The model endpoint did not answer within ${timeoutMs} ms.` : 'The model endpoint is not reachable.',
      };
    }
  }

  return () => {
    if (!cached || now() - cached.at >= cacheMs) cached = { at: now(), result: probe() };
    return cached.result;
  };
}

const OFFLINE: ProviderHealth = { kind: 'offline', ok: true, latencyMs: 0 };

let probes: { key: string; probe: () => Promise<ProviderHealth> } | undefined;

/** The checks of this process's configuration: its database, pg-boss on PostgreSQL, the default provider. */
export function defaultHealthChecks(): HealthChecks {
  const e = env();
  let provider = async () => OFFLINE;
  if (openAiConfigured(e)) {
    const baseURL = e.OPENAI_BASE_URL ?? 'https://api.openai.com/v1';
    const key = `${baseURL}\n${e.OPENAI_API_KEY ?? ''}`;
    if (probes?.key !== key) probes = { key, probe: createProviderProbe({ baseURL, apiKey: e.OPENAI_API_KEY }) };
    provider = probes.probe;
  }
  return {
    database: async () => {
      const { db } = await getDatabase();
      await pingDatabase({ db });
    },
    // The same job queue on both databases (lib/jobs/boss.ts).
    queue: async () => queueHealth((await getDatabase()).db),
    provider,
  };
}
