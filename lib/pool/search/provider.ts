// What every provider shares: option checks, the request through fetchJson, parsing, then the
// rules of apply-rules.ts. A provider file only says how to build its request and read its
// response, so a new provider cannot forget the as-of rule or the result cap.
import { isoDay } from '@/lib/util/dates';
import { redact } from '@/lib/util/redact';
import { applyRules, dateWindow, validateOptions, type DateWindow } from './apply-rules';
import { WebSearchError } from './errors';
import { fetchJson, type HttpRequest, type ProviderInfo } from './http';
import type { ProviderConfig, WebResult, WebSearchOptions, WebSearchProvider } from './types';

export type RequestContext = {
  apiKey: string;
  /** Always ends with `/`, so `new URL('search', baseUrl)` keeps a base path (a proxy prefix, say). */
  baseUrl: string;
  /** How many results to ask the provider for. */
  count: number;
  /** The publication window, to pass upstream where the API supports it. */
  window: DateWindow;
  /** The retrieval day (YYYY-MM-DD): the end of a recency window when there is no as-of date. */
  today: string;
};

export type ProviderSpec = {
  info: ProviderInfo;
  /** The provider's ceiling on results per request. */
  maxCount: number;
  buildRequest(query: string, opts: WebSearchOptions, ctx: RequestContext): HttpRequest;
  /** Raw results in the provider's rank order; the shared rules filter them afterwards. */
  parse(body: unknown, retrievedAt: Date): WebResult[];
};

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_RETRY_WAIT_MS = 10_000;

/**
 * Ask for twice the results we may return (within the provider's ceiling): the as-of, recency,
 * URL and duplicate rules drop some, and the caller should still get close to `maxResults`.
 */
export function upstreamCount(maxResults: number, maxCount: number): number {
  return Math.min(maxCount, maxResults * 2);
}

export function createProvider(spec: ProviderSpec, config: ProviderConfig): WebSearchProvider {
  const now = config.now ?? (() => new Date());
  const baseUrl = config.baseUrl.endsWith('/') ? config.baseUrl : `${config.baseUrl}/`;
  const { info } = spec;

  async function search(query: string, opts: WebSearchOptions): Promise<WebResult[]> {
    const q = query.trim();
    if (!q) throw new WebSearchError('invalid_request', 'The search query is empty.', info.name);
    validateOptions(opts);
    const start = now();
    const request = spec.buildRequest(q, opts, {
      apiKey: config.apiKey,
      baseUrl,
      count: upstreamCount(opts.maxResults, spec.maxCount),
      window: dateWindow(opts, start),
      today: isoDay(start),
    });
    const body = await fetchJson(info, request, {
      apiKey: config.apiKey,
      timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRetryWaitMs: config.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS,
      signal: opts.signal,
    });
    const retrievedAt = now();
    return applyRules(spec.parse(body, retrievedAt), opts, retrievedAt);
  }

  return {
    name: info.name,
    async search(query, opts) {
      try {
        return await search(query, opts);
      } catch (error) {
        // Last line of defence: whatever failed, and however its message was built, the key
        // does not leave this function.
        if (error instanceof WebSearchError) {
          const message = redact(error.message, [config.apiKey]);
          if (message === error.message && error.provider) throw error;
          throw new WebSearchError(error.kind, message, info.name, error.status);
        }
        const message = error instanceof Error ? error.message : String(error);
        throw new WebSearchError('bad_response', `${info.label}: ${redact(message, [config.apiKey])}`, info.name);
      }
    },
  };
}

/** Narrowing helpers for parsing JSON we do not control. */
export function asRecord(v: unknown): Record<string, unknown> | null {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

export function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}
