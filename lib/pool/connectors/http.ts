// The one HTTP path every connector uses: a JSON GET with a timeout, retries with exponential
// backoff and jitter on rate limits, 5xx and network errors, and `Retry-After` honoured. Errors
// and retry notices pass through `redact` so an API key carried in a URL (OpenDART puts it in
// the query string) never reaches a log line, an error page or a warning stored in the DB.

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;
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

const KEY_PARAMS = /([?&](?:crtfc_key|api_key|apikey|access_token|key)=)[^&#\s"'<>]*/gi;

/** Removes secrets (raw and URL-encoded) and key-bearing query parameters from a text. */
export function redact(text: string, secrets: readonly (string | null | undefined)[] = []): string {
  let out = text.replace(KEY_PARAMS, '$1[redacted]');
  for (const secret of secrets) {
    // Very short values would blank out ordinary words; real keys are long.
    if (!secret || secret.length < 6) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join('[redacted]');
  }
  return out;
}

export const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Exponential backoff with "equal jitter": half fixed, half random, so retries from many
 * clients spread out but a single client still waits a predictable minimum. */
export function backoffDelay(retry: number, baseDelayMs: number, maxDelayMs: number, random: () => number = Math.random) {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** retry);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

const RETRYABLE_STATUS = (status: number) => status === 429 || status >= 500;

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
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await fetchImpl(url, { headers: { Accept: 'application/json', ...headers }, signal: combined });
    } catch (err) {
      if (signal?.aborted) throw signal.reason ?? err;
      const reason = timeout.aborted ? `timed out after ${timeoutMs} ms` : `network error: ${errorText(err)}`;
      return { kind: 'retry', reason: clean(reason), status: null, retryAfterMs: null };
    }
    if (!response.ok) {
      const snippet = clean((await response.text().catch(() => '')).slice(0, 200)).trim();
      if (RETRYABLE_STATUS(response.status)) {
        const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
        return { kind: 'retry', reason: `HTTP ${response.status}`, status: response.status, retryAfterMs };
      }
      const detail = snippet ? `: ${snippet}` : '';
      return { kind: 'fail', error: new HttpError(`GET ${safeUrl} failed: HTTP ${response.status}${detail}`, response.status, attempt) };
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      return { kind: 'fail', error: new HttpError(`GET ${safeUrl} returned a body that is not JSON`, response.status, attempt) };
    }
    const bodyReason = retryOnBody?.(body);
    if (bodyReason) {
      lastBody = body;
      return { kind: 'retry', reason: bodyReason, status: null, retryAfterMs: null, fromBody: true };
    }
    return { kind: 'ok', body };
  }
}

function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // undici hides the real reason (ECONNREFUSED, ENOTFOUND) in `cause`.
  const cause = err.cause instanceof Error ? ` (${err.cause.message})` : '';
  return `${err.message}${cause}`;
}
