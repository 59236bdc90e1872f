import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseRetryAfter as retryAfterMs } from '@/lib/util/http';
import { redact } from '@/lib/util/redact';
import { WebSearchError } from './errors';
import { startFakeServer, type FakeServer } from './fake-server';
import { createSerpApiProvider } from './serpapi';
import type { ProviderConfig } from './types';

// SerpAPI carries its key in the URL, the worst case for leaks, so the shared HTTP behaviour is
// exercised through it.
const KEY = 'serp-secret-key-0123456789';
const OK = { search_metadata: { status: 'Success' }, organic_results: [{ position: 1, title: 'ok', link: 'https://ok.example/', date: 'Jun 1, 2024' }] };

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

function serpapi(config: Partial<ProviderConfig> = {}) {
  return createSerpApiProvider({ apiKey: KEY, baseUrl: server.url, ...config });
}

async function failure(p: Promise<unknown>): Promise<WebSearchError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebSearchError);
  expect((error as Error).message).not.toContain(KEY);
  expect((error as Error).stack ?? '').not.toContain(KEY);
  return error as WebSearchError;
}

describe('retries', () => {
  it('retries once on 429 after the Retry-After delay, then succeeds', async () => {
    server.handle = (_req, n) => (n === 1 ? { status: 429, headers: { 'Retry-After': '1' }, body: { error: 'Too many requests' } } : { body: OK });
    const started = Date.now();
    const results = await serpapi().search('x', { maxResults: 3 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(server.requests).toHaveLength(2);
    expect(results.map((r) => r.title)).toEqual(['ok']);
  });

  it('gives up after the one retry with a rate-limit message', async () => {
    server.handle = () => ({ status: 429, headers: { 'Retry-After': '0' }, body: { error: 'Your account has run out of searches.' } });
    const error = await failure(serpapi().search('x', { maxResults: 3 }));
    expect(server.requests).toHaveLength(2);
    expect(error.kind).toBe('rate_limited');
    expect(error.message).toBe("SerpAPI is rate-limiting requests or the plan's quota is used up (HTTP 429): Your account has run out of searches.");
  });

  it('does not sit out a Retry-After longer than the step can afford', async () => {
    server.handle = () => ({ status: 429, headers: { 'Retry-After': '120' }, body: {} });
    const error = await failure(serpapi({ maxRetryWaitMs: 5_000 }).search('x', { maxResults: 3 }));
    expect(server.requests).toHaveLength(1);
    expect(error.kind).toBe('rate_limited');
  });

  it('does not retry other client errors', async () => {
    server.handle = () => ({ status: 400, body: { error: 'Unsupported `tbs` parameter.' } });
    const error = await failure(serpapi().search('x', { maxResults: 3 }));
    expect(server.requests).toHaveLength(1);
    expect(error.kind).toBe('bad_request');
    expect(error.message).toBe('SerpAPI refused the search (HTTP 400): Unsupported `tbs` parameter.');
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2024-06-15T12:00:00Z');
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs('Sat, 15 Jun 2024 12:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Sat, 15 Jun 2024 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });
});

describe('failures never reveal the key', () => {
  it('redacts the key when the provider echoes it back', async () => {
    server.handle = () => ({ status: 400, body: { error: `Bad request for https://serpapi.com/search.json?q=x&api_key=${KEY}` } });
    const error = await failure(serpapi().search('x', { maxResults: 3 }));
    expect(error.message).toContain('[redacted]');
  });

  it('times out a slow provider', async () => {
    server.handle = () => ({ body: OK, delayMs: 1_000 });
    const error = await failure(serpapi({ timeoutMs: 100 }).search('x', { maxResults: 3 }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('SerpAPI did not answer within 0.1 s.');
  });

  it('stops when the caller aborts', async () => {
    server.handle = () => ({ body: OK, delayMs: 1_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await failure(serpapi().search('x', { maxResults: 3, signal: controller.signal }));
    expect(error.kind).toBe('aborted');
  });

  it('reports an unreachable provider', async () => {
    // A port that was free a moment ago: connecting to it is refused.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const error = await failure(serpapi({ baseUrl: `http://127.0.0.1:${port}` }).search('x', { maxResults: 3 }));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/^SerpAPI could not be reached/);
  });

  it('reports a 200 that is not JSON', async () => {
    server.handle = () => ({ body: '<html>captive portal</html>' });
    const error = await failure(serpapi().search('x', { maxResults: 3 }));
    expect(error.kind).toBe('bad_response');
  });

  it('rejects an empty query and bad options before sending anything', async () => {
    await failure(serpapi().search('  ', { maxResults: 3 }));
    await failure(serpapi().search('x', { maxResults: 0 }));
    await failure(serpapi().search('x', { maxResults: 3, asOf: '2024/03/31' }));
    expect(server.requests).toHaveLength(0);
  });
});

describe('redact', () => {
  it('removes the secret, its URL-encoded form and credential-looking parameters', () => {
    expect(redact('key a+b/c= and a%2Bb%2Fc%3D', ['a+b/c='])).toBe('key [redacted] and [redacted]');
    expect(redact('https://x/?q=1&api_key=abc123&num=3')).toBe('https://x/?q=1&api_key=[redacted]&num=3');
    expect(redact('Authorization: Bearer tvly-abc.def')).toBe('Authorization: Bearer [redacted]');
  });
});
