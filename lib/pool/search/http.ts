// One HTTP path for all providers: a timeout per attempt, one retry on 429/5xx that honours
// Retry-After, and errors that say what went wrong without ever carrying the API key.
import { setTimeout as sleep } from 'node:timers/promises';
import { redact, WebSearchError } from './errors';
import type { WebSearchProviderName } from './types';

export type ProviderInfo = {
  name: WebSearchProviderName;
  /** For messages: "SerpAPI", "Tavily", "Brave Search". */
  label: string;
  /** The env variable holding the key, so an auth error says what to fix. */
  keyEnv: string;
};

export type HttpRequest = {
  url: URL;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
};

export type HttpPolicy = {
  apiKey: string;
  timeoutMs: number;
  maxRetryWaitMs: number;
  signal?: AbortSignal;
};

// Without a Retry-After header a short pause is enough to get past a burst limit.
const DEFAULT_RETRY_WAIT_MS = 1_000;

/** Retry-After as milliseconds (delta-seconds or an HTTP date), or null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

// "0.1 s", "15 s": short test timeouts should not read as "0 s".
function seconds(ms: number) {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

function isRetryable(status: number) {
  return status === 429 || status >= 500;
}

/** The provider's own explanation from an error body, in whichever field it uses. */
function upstreamDetail(body: string): string {
  let detail = body;
  try {
    const json = JSON.parse(body) as Record<string, unknown>;
    const pick = (v: unknown): string | undefined => {
      if (typeof v === 'string') return v;
      if (v && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        return pick(o.detail) ?? pick(o.message) ?? pick(o.error);
      }
      return undefined;
    };
    // SerpAPI: {error}; Tavily: {detail: {error}}; Brave: {error: {detail, code}}.
    detail = pick(json.error) ?? pick(json.detail) ?? pick(json.message) ?? body;
  } catch {
    // Not JSON: an HTML error page from a proxy, say. The raw text, shortened, is still useful.
  }
  detail = detail.replace(/\s+/g, ' ').trim();
  return detail.length > 200 ? `${detail.slice(0, 200)}…` : detail;
}

function statusError(info: ProviderInfo, status: number, body: string, apiKey: string): WebSearchError {
  const detail = redact(upstreamDetail(body), [apiKey]);
  const suffix = detail ? `: ${detail}` : '.';
  if (status === 401 || status === 403) {
    return new WebSearchError('auth', `${info.label} rejected the API key (HTTP ${status}). Check ${info.keyEnv}.`, info.name, status);
  }
  if (status === 429) {
    return new WebSearchError('rate_limited', `${info.label} is rate-limiting requests or the plan's quota is used up (HTTP 429)${suffix}`, info.name, status);
  }
  if (status >= 500) {
    return new WebSearchError('unavailable', `${info.label} is unavailable (HTTP ${status})${suffix}`, info.name, status);
  }
  return new WebSearchError('bad_request', `${info.label} refused the search (HTTP ${status})${suffix}`, info.name, status);
}

export async function fetchJson(info: ProviderInfo, req: HttpRequest, policy: HttpPolicy): Promise<unknown> {
  const { apiKey, signal } = policy;
  for (let attempt = 0; ; attempt++) {
    const timeout = AbortSignal.timeout(policy.timeoutMs);
    let res: Response;
    try {
      res = await fetch(req.url, {
        method: req.method ?? 'GET',
        headers: { Accept: 'application/json', ...(req.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...req.headers },
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        redirect: 'follow',
      });
    } catch (error) {
      if (signal?.aborted) throw new WebSearchError('aborted', `${info.label} search was cancelled.`, info.name);
      if (timeout.aborted) {
        throw new WebSearchError('timeout', `${info.label} did not answer within ${seconds(policy.timeoutMs)}.`, info.name);
      }
      // undici hides the reason (refused, DNS, TLS) in `cause`; the URL is never part of it, but redact anyway.
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      throw new WebSearchError('unavailable', `${info.label} could not be reached: ${redact(cause, [apiKey])}`, info.name);
    }

    if (res.ok) {
      let text: string;
      try {
        text = await res.text();
      } catch {
        // The body stream shares the request's signal: a timeout or cancel can land mid-body.
        if (signal?.aborted) throw new WebSearchError('aborted', `${info.label} search was cancelled.`, info.name);
        throw new WebSearchError('timeout', `${info.label} did not finish answering within ${seconds(policy.timeoutMs)}.`, info.name);
      }
      try {
        return JSON.parse(text);
      } catch {
        throw new WebSearchError('bad_response', `${info.label} answered with something that is not JSON.`, info.name, res.status);
      }
    }

    const body = await res.text().catch(() => '');
    if (attempt === 0 && isRetryable(res.status)) {
      const wait = retryAfterMs(res.headers.get('retry-after')) ?? DEFAULT_RETRY_WAIT_MS;
      // A provider asking us to wait longer than a debate step can afford: fail now, clearly.
      if (wait <= policy.maxRetryWaitMs) {
        try {
          await sleep(wait, undefined, { signal });
        } catch {
          throw new WebSearchError('aborted', `${info.label} search was cancelled.`, info.name);
        }
        continue;
      }
    }
    throw statusError(info, res.status, body, apiKey);
  }
}
