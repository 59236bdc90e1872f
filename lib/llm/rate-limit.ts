// Requests and tokens per minute to one provider and model, shared by every process on the
// database (issue 7): a provider's quota is per account, so one worker counting for itself
// would let four workers send four times the quota and collect 429s.
//
// Each call reserves one request and an estimate of its tokens in the current minute's row of
// provider_rate_windows with a single upsert whose WHERE clause refuses the update when the
// window is full: PostgreSQL locks the row for the upsert, so concurrent processes cannot
// both take the last slot. A refused call waits for the next minute (abortable, and shown as
// time, not an error) and tries again; after the call, the estimate is replaced by the usage
// the endpoint reported.
//
// It wraps the language model (lib/llm/types.ts), so every model call is limited: a step's, a
// judge's, a document reading's. One reservation per complete(): retries and web-search rounds
// inside the OpenAI model are not counted as extra requests (their tokens are, through the
// reported usage, and so are a failed or cancelled call's, through what its error says it spent).
import type { Db } from '@/lib/db/client';
import { adjustRateWindowTokens, pruneRateWindows, readRateWindowRequests, reserveRateWindow } from '@/lib/db/queries/rate-windows';
import { log } from '@/lib/ops/log';
import { abortableSleep, cancelled } from './openai';
import { spentBy, type LanguageModel, type ModelCall, type ModelResult } from './types';

export const WINDOW_MS = 60_000;
/** Windows older than this are deleted, once per window per process. */
const KEEP_MS = 60 * 60_000;
/** Output allowance of the estimate: a typical step's answer. */
const OUTPUT_ESTIMATE = 2_000;

/** Unset: unlimited. */
export type RateLimits = { rpm?: number; tpm?: number };

export type LimiterClock = { now: () => number; sleep: (ms: number, signal: AbortSignal) => Promise<void> };

/** A wait for quota, for logs and for a UI that wants to show it. */
export type RateWait = { key: string; limit: 'requests' | 'tokens'; max: number; waitMs: number; untilMs: number; runId?: string; stepId?: string };

export type Reservation = { key: string; windowStart: number; tokens: number; waitedMs: number };

export type SharedRateLimiter = {
  /** Resolves once one request and `tokens` fit in a window; waits for the next window otherwise. */
  reserve(options: {
    key: string;
    limits: RateLimits;
    tokens: number;
    signal: AbortSignal;
    runId?: string;
    stepId?: string;
    /** This call's own listener, besides the limiter's (which logs). */
    onWait?: (wait: RateWait) => void;
  }): Promise<Reservation>;
  /** Replaces the reserved estimate by the tokens the call really used. */
  settle(reservation: Reservation, actualTokens: number): Promise<void>;
};

const systemClock: LimiterClock = { now: () => Date.now(), sleep: abortableSleep };

const limitsLog = log.child({ component: 'limits' });

function logWait(wait: RateWait) {
  // `limit` says which quota is full (requests or tokens per minute), `max` its size.
  limitsLog.info('rate limit reached; waiting for the next minute', wait);
}

export function createSharedRateLimiter({
  db,
  clock = systemClock,
  onWait = logWait,
}: {
  /** The database, or how to open it lazily (the app's getDb). */
  db: Db | (() => Promise<Db>);
  clock?: LimiterClock;
  onWait?: (wait: RateWait) => void;
}): SharedRateLimiter {
  const database = typeof db === 'function' ? db : async () => db;
  let prunedWindow = 0;

  async function reserve({
    key,
    limits,
    tokens,
    signal,
    runId,
    stepId,
    onWait: onThisWait,
  }: Parameters<SharedRateLimiter['reserve']>[0]): Promise<Reservation> {
    const conn = await database();
    // A call larger than the whole TPM still goes, alone in its minute, rather than never.
    const reserved = Math.max(0, Math.ceil(limits.tpm !== undefined ? Math.min(tokens, limits.tpm) : tokens));
    let waitedMs = 0;
    for (;;) {
      if (signal.aborted) throw cancelled();
      const now = clock.now();
      const windowStart = now - (now % WINDOW_MS);
      if (windowStart !== prunedWindow) {
        prunedWindow = windowStart;
        await pruneRateWindows({ db: conn, before: new Date(windowStart - KEEP_MS) });
      }
      // One atomic attempt: refused, not waited for, when the window is full.
      if (await reserveRateWindow({ db: conn, key, windowStart: new Date(windowStart), tokens: reserved, rpm: limits.rpm, tpm: limits.tpm })) {
        return { key, windowStart, tokens: reserved, waitedMs };
      }
      const requests = await readRateWindowRequests({ db: conn, key, windowStart: new Date(windowStart) });
      const byRequests = limits.rpm !== undefined && requests >= limits.rpm;
      const waitMs = windowStart + WINDOW_MS - now;
      const wait: RateWait = {
        key,
        limit: byRequests ? 'requests' : 'tokens',
        max: (byRequests ? limits.rpm : limits.tpm) ?? 0,
        waitMs,
        untilMs: now + waitMs,
        runId,
        stepId,
      };
      onWait(wait);
      onThisWait?.(wait);
      await clock.sleep(waitMs, signal);
      waitedMs += waitMs;
    }
  }

  async function settle(reservation: Reservation, actualTokens: number) {
    const delta = Math.ceil(actualTokens) - reservation.tokens;
    if (delta === 0) return;
    const conn = await database();
    await adjustRateWindowTokens({ db: conn, key: reservation.key, windowStart: new Date(reservation.windowStart), delta });
  }

  return { reserve, settle };
}

/** Prompt and schema at about four characters a token, plus the output allowance. */
export function estimateTokens(call: Pick<ModelCall, 'system' | 'user' | 'output' | 'repair'>) {
  const chars =
    call.system.length +
    call.user.length +
    JSON.stringify(call.output?.jsonSchema ?? {}).length +
    (call.repair ? call.repair.previous.length + call.repair.problems.join('\n').length : 0);
  return Math.ceil(chars / 4) + OUTPUT_ESTIMATE;
}

/** The model with the shared limits in front of every call; without limits, the model itself. */
export function withSharedRateLimit(model: LanguageModel, { limiter, limits }: { limiter: SharedRateLimiter; limits: RateLimits }): LanguageModel {
  if (limits.rpm === undefined && limits.tpm === undefined) return model;
  const key = `${model.name}:${model.model}`;
  return {
    name: model.name,
    model: model.model,
    async complete(call) {
      const { runId, stepId } = call.tag ?? {};
      const reservation = await limiter.reserve({
        key,
        limits,
        tokens: estimateTokens(call),
        signal: call.signal,
        runId,
        stepId,
        onWait: call.onWait && ((wait) => call.onWait!({ reason: wait.limit, until: new Date(wait.untilMs).toISOString() })),
      });
      const settle = (tokens: number) =>
        limiter.settle(reservation, tokens).catch((err) => {
          limitsLog.error('could not record the usage of a call', { key, runId, stepId, err });
        });
      let result: ModelResult;
      try {
        result = await model.complete(call);
      } catch (err) {
        // A failed call counts what it spent when the model says (its prompts and what streamed
        // before the error or the cancellation); otherwise it keeps its estimate.
        const spent = spentBy(err);
        if (spent) await settle(spent.promptTokens + spent.completionTokens);
        throw err;
      }
      await settle(result.usage.promptTokens + result.usage.completionTokens);
      return result;
    },
  };
}
