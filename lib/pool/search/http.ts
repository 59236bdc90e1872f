// One HTTP path for all providers: a timeout per attempt, one retry on 429/5xx that honours
// Retry-After, and errors that say what went wrong without ever carrying the API key. The request
// itself is lib/util/http.ts; this file decides the retry and words the errors for an RM.
import { HttpRequestError, isRetryableStatus, requestJson, sleep } from '@/lib/util/http';
import { redact } from '@/lib/util/redact';
import { WebSearchError } from './errors';
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

// "0.1 s", "15 s": short test timeouts should not read as "0 s".
function seconds(ms: number) {
  return `${Number((ms / 1000).toFixed(1))} s`;
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
  const cancelled = () => new WebSearchError('aborted', `${info.label} search was cancelled.`, info.name);
  for (let attempt = 0; ; attempt++) {
    try {
      return await requestJson(req.url, { method: req.method, headers: req.headers, json: req.body, signal, timeoutMs: policy.timeoutMs });
    } catch (error) {
      if (signal?.aborted) throw cancelled();
      if (!(error instanceof HttpRequestError)) throw error;
      switch (error.kind) {
        case 'timeout':
          throw new WebSearchError(
            'timeout',
            `${info.label} did not ${error.details.duringBody ? 'finish answering' : 'answer'} within ${seconds(policy.timeoutMs)}.`,
            info.name,
          );
        case 'network': {
          // undici hides the reason (refused, DNS, TLS) in `cause`; the URL is never part of it, but redact anyway.
          const failure = error.cause;
          const why = failure instanceof Error && failure.cause instanceof Error ? failure.cause.message : String(failure);
          throw new WebSearchError('unavailable', `${info.label} could not be reached: ${redact(why, [apiKey])}`, info.name);
        }
        case 'not-json':
          throw new WebSearchError('bad_response', `${info.label} answered with something that is not JSON.`, info.name, error.status ?? undefined);
        case 'status': {
          const status = error.status!;
          if (attempt === 0 && isRetryableStatus(status)) {
            const wait = error.details.retryAfterMs ?? DEFAULT_RETRY_WAIT_MS;
            // A provider asking us to wait longer than a debate step can afford: fail now, clearly.
            if (wait <= policy.maxRetryWaitMs) {
              await sleep(wait, signal).catch(() => {
                throw cancelled();
              });
              continue;
            }
          }
          throw statusError(info, status, error.details.body ?? '', apiKey);
        }
      }
    }
  }
}
