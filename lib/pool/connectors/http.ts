// The one HTTP path every connector uses: a JSON GET with a timeout, retries with exponential
// backoff and jitter on rate limits, 5xx and network errors, and `Retry-After` honoured. The
// request itself is lib/util/http.ts; this file is the connectors' retry policy. Errors and retry
// notices pass through `redact` so an API key carried in a URL (OpenDART puts it in the query
// string) never reaches a log line, an error page or a warning stored in the DB.
import { backoffDelay, HttpRequestError, isRetryableStatus, requestJson, sleep as defaultSleep, type FetchLike } from '@/lib/util/http';
import { redact } from '@/lib/util/redact';

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export type RetryNotice = { attempt: number; delayMs: number; reason: string; url: string };

export type FetchJsonOptions = {
  headers?: Record<string, string>;
  /** The caller's cancel signal; an abort by the caller is never retried. */
  signal?: AbortSignal;
  /** Per attempt, not in total. */
  timeoutMs?: number;
  /** Retries after the first attempt. */
  retries?: number;
  baseDelayMs?: number;
  /** Longest single wait. A `Retry-After` asking for more fails at once rather than hang a request. */
  maxDelayMs?: number;
  /** Values to blank out of messages, besides any `crtfc_key=` / `api_key=` query parameter. */
  secrets?: string[];
  /** Some APIs signal "slow down" inside a 200 body (OpenDART status 020): retry on those too. */
  retryOnBody?: (body: unknown) => string | null;
  fetchImpl?: FetchLike;
  sleep?: Sleep;
  /** For tests: the jitter source. */
  random?: () => number;
  /** Called before each wait; the URL is already redacted. Use it to log retries. */
  onRetry?: (notice: RetryNotice) => void;
};

export class HttpError extends Error {
  constructor(
    message: string,
    /** HTTP status, or null for a network error or timeout. */
    readonly status: number | null,
    readonly attempts: number,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

type Attempt =
  | { kind: 'ok'; body: unknown }
  | { kind: 'retry'; reason: string; status: number | null; retryAfterMs: number | null; fromBody?: true }
  | { kind: 'fail'; error: HttpError };

export async function fetchJson<T = unknown>(url: string, options: FetchJsonOptions = {}): Promise<T> {
  const {
    headers,
    signal,
    timeoutMs = 15_000,
    retries = 3,
    baseDelayMs = 500,
    maxDelayMs = 30_000,
    secrets = [],
    retryOnBody,
    fetchImpl = fetch,
    sleep = defaultSleep,
    random = Math.random,
    onRetry,
  } = options;
  const safeUrl = redact(url, secrets);
  const clean = (text: string) => redact(text, secrets);
  // The last body that asked for a retry: when retries run out it goes back to the caller,
  // which knows how to explain its own status codes.
  let lastBody: unknown;

  for (let attempt = 1; ; attempt++) {
    const result = await attemptOnce(attempt);
    if (result.kind === 'ok') return result.body as T;
    if (result.kind === 'fail') throw result.error;

    const statusText = result.status === null ? result.reason : `HTTP ${result.status}`;
    if (attempt > retries) {
      if (result.fromBody) return lastBody as T;
      throw new HttpError(`GET ${safeUrl} failed after ${attempt} attempts: ${clean(statusText)}`, result.status, attempt);
    }
    const backoff = backoffDelay(attempt - 1, baseDelayMs, maxDelayMs, random);
    if (result.retryAfterMs !== null && result.retryAfterMs > maxDelayMs) {
      throw new HttpError(
        `GET ${safeUrl} was rate limited (${statusText}); the server asks to wait ${Math.ceil(result.retryAfterMs / 1000)} s. Try again later.`,
        result.status,
        attempt,
      );
    }
    const delayMs = result.retryAfterMs ?? backoff;
    onRetry?.({ attempt, delayMs, reason: clean(result.reason), url: safeUrl });
    await sleep(delayMs, signal);
  }

  async function attemptOnce(attempt: number): Promise<Attempt> {
    let body: unknown;
    try {
      // A cancel by the caller comes out of requestJson as the signal's reason and ends the loop.
      body = await requestJson(url, { headers, signal, timeoutMs, fetchImpl });
    } catch (err) {
      if (!(err instanceof HttpRequestError)) throw err;
      switch (err.kind) {
        case 'timeout':
          return { kind: 'retry', reason: err.message, status: null, retryAfterMs: null };
        case 'network':
          return { kind: 'retry', reason: clean(`network error: ${err.message}`), status: null, retryAfterMs: null };
        case 'not-json':
          return { kind: 'fail', error: new HttpError(`GET ${safeUrl} returned a body that is not JSON`, err.status, attempt) };
        case 'status': {
          const status = err.status!;
          if (isRetryableStatus(status)) return { kind: 'retry', reason: `HTTP ${status}`, status, retryAfterMs: err.details.retryAfterMs ?? null };
          const snippet = clean((err.details.body ?? '').slice(0, 200)).trim();
          const detail = snippet ? `: ${snippet}` : '';
          return { kind: 'fail', error: new HttpError(`GET ${safeUrl} failed: HTTP ${status}${detail}`, status, attempt) };
        }
      }
    }
    const bodyReason = retryOnBody?.(body);
    if (bodyReason) {
      lastBody = body;
      return { kind: 'retry', reason: bodyReason, status: null, retryAfterMs: null, fromBody: true };
    }
    return { kind: 'ok', body };
  }
}
