// One HTTP request that answers JSON, for every client of an outside API (filing connectors,
// web-search providers): a timeout per request combined with the caller's cancel signal, the
// body read and parsed with a clear error, and a failed status as an error carrying the status,
// the body's text and the wait its Retry-After asks for. Retry policies differ (a connector backs
// off several times, a search provider retries once inside a debate step), so they stay with the
// callers; the pieces they share (the Retry-After parser, the backoff, an abortable sleep) are here.
//
// Messages never include the URL: callers redact it (lib/util/redact.ts) and word their own.

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

export type RequestJsonOptions = {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Sent as JSON, with its Content-Type. */
  json?: unknown;
  /** The caller's cancel signal: when it fires, its reason is thrown as it is, never wrapped. */
  signal?: AbortSignal;
  /** For the whole exchange, headers and body. */
  timeoutMs: number;
  fetchImpl?: FetchLike;
};

export type HttpFailureKind = 'timeout' | 'network' | 'status' | 'not-json';

/** A request that failed for a reason other than the caller's cancel. */
export class HttpRequestError extends Error {
  constructor(
    readonly kind: HttpFailureKind,
    message: string,
    readonly details: {
      /** The response status, or null when no response came. */
      status: number | null;
      /** The response body's text on a failed status ('' when unreadable). */
      body?: string;
      /** What the response's Retry-After asks for, in ms; null without one. */
      retryAfterMs?: number | null;
      /** The timeout or network error struck while the body was streaming, after the headers. */
      duringBody?: boolean;
    },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'HttpRequestError';
  }
  get status() {
    return this.details.status;
  }
}

/** An error's message with its cause's: undici hides the real reason (ECONNREFUSED, ENOTFOUND) in `cause`. */
export function errorWithCause(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? ` (${err.cause.message})` : '';
  return `${err.message}${cause}`;
}

/** Sends the request and returns the parsed JSON body of a 2xx answer; throws HttpRequestError otherwise. */
export async function requestJson(url: string | URL, options: RequestJsonOptions): Promise<unknown> {
  const { method = 'GET', headers, json, signal, timeoutMs, fetchImpl = fetch } = options;
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const failed = (err: unknown, duringBody: boolean, status: number | null = null): never => {
    if (signal?.aborted) throw signal.reason ?? err;
    if (timeout.aborted) throw new HttpRequestError('timeout', `timed out after ${timeoutMs} ms`, { status, duringBody }, { cause: err });
    throw new HttpRequestError('network', errorWithCause(err), { status, duringBody }, { cause: err });
  };

  let response: Response;
  try {
    response = await fetchImpl(url, {
      method,
      headers: { Accept: 'application/json', ...(json === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body: json === undefined ? undefined : JSON.stringify(json),
      signal: combined,
    });
  } catch (err) {
    return failed(err, false);
  }

  if (!response.ok) {
    // The body of an error explains it; an unreadable one is no reason to hide the status.
    const body = await response.text().catch(() => '');
    throw new HttpRequestError('status', `HTTP ${response.status}`, {
      status: response.status,
      body,
      retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
    });
  }
  let text: string;
  try {
    // The body streams under the same signal: a timeout or cancel can land mid-body.
    text = await response.text();
  } catch (err) {
    return failed(err, true, response.status);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new HttpRequestError('not-json', 'the body is not JSON', { status: response.status }, { cause: err });
  }
}

/** Retryable statuses: rate limits and server errors. */
export const isRetryableStatus = (status: number) => status === 429 || status >= 500;

/** The longest wait a timer can do (about 24.8 days); setTimeout fires at once for anything longer. */
export const MAX_WAIT_MS = 2 ** 31 - 1;

/**
 * `Retry-After` in ms: delta-seconds (fractions allowed) or an HTTP date; null when absent or
 * unreadable. Capped at MAX_WAIT_MS, so an absurd value cannot become an instant retry.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.min(MAX_WAIT_MS, Math.round(Number(trimmed) * 1000));
  // An HTTP date names its day and month (`Wed, 21 Oct 2015 07:28:00 GMT`); Date.parse alone
  // would also read junk such as "-5" as a year.
  const at = /[a-z]/i.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  return Number.isNaN(at) ? null : Math.min(MAX_WAIT_MS, Math.max(0, at - now));
}

/**
 * The wait a response asks for, in ms: `retry-after-ms` first (OpenAI sends it, more precise),
 * then `Retry-After`; undefined without either.
 */
export function retryAfterMs(headers: Headers | null | undefined, now: number = Date.now()): number | undefined {
  const exact = headers?.get('retry-after-ms')?.trim();
  const ms = exact && /^\d+(\.\d+)?$/.test(exact) ? Math.min(MAX_WAIT_MS, Number(exact)) : parseRetryAfter(headers?.get('retry-after'), now);
  return ms ?? undefined;
}

/**
 * Exponential backoff with "equal jitter": half fixed, half random, so retries from many
 * clients spread out but a single client still waits a predictable minimum.
 */
export function backoffDelay(retry: number, baseDelayMs: number, maxDelayMs: number, random: () => number = Math.random) {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** retry);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** Waits `ms`; rejects with the signal's reason as soon as it fires (at once when it already has). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
