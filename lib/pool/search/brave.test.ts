import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBraveProvider } from './brave';
import { WebSearchError } from './errors';
import { startFakeServer, type FakeServer } from './fake-server';

const KEY = 'BSA-secret-0123456789';
const NOW = new Date('2024-06-15T12:00:00Z');

// Shaped like Brave's web search response: {type, query, web: {type, results: [...]}}.
function braveResponse(results: Record<string, unknown>[]) {
  return {
    type: 'search',
    query: { original: 'q' },
    web: { type: 'search', family_friendly: true, results: results.map((r) => ({ type: 'search_result', ...r })) },
  };
}

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const brave = () => createBraveProvider({ apiKey: KEY, baseUrl: server.url, now: () => NOW, maxRetryWaitMs: 2_000 });

describe('Brave provider', () => {
  it('sends the key in X-Subscription-Token (not the URL) with count, freshness range and language', async () => {
    server.handle = () => ({ body: braveResponse([]) });
    await brave().search('윈텍오토메이션 특허', { maxResults: 4, recencyDays: 30, asOf: '2024-03-31', language: 'ko' });

    const req = server.requests[0];
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/res/v1/web/search');
    expect(req.headers['x-subscription-token']).toBe(KEY);
    expect(req.query.get('q')).toBe('윈텍오토메이션 특허');
    expect(req.query.get('count')).toBe('8');
    expect(req.query.get('freshness')).toBe('2024-03-01to2024-03-31');
    expect(req.query.get('search_lang')).toBe('ko');
    expect(req.query.get('country')).toBe('KR');
    expect(req.query.toString()).not.toContain(KEY);
  });

  it('ends a recency-only range on the retrieval day, caps count at 20, and omits freshness without bounds', async () => {
    server.handle = () => ({ body: braveResponse([]) });
    await brave().search('x', { maxResults: 15, recencyDays: 7 });
    await brave().search('x', { maxResults: 2 });
    expect(server.requests[0].query.get('freshness')).toBe('2024-06-08to2024-06-15');
    expect(server.requests[0].query.get('count')).toBe('20');
    expect(server.requests[1].query.has('freshness')).toBe(false);
  });

  it('parses web.results: description without markup, page_age before age, profile name as source', async () => {
    server.handle = () => ({
      body: braveResponse([
        {
          title: 'Tesla <strong>10-K</strong>',
          url: 'https://www.sec.gov/tsla-10k',
          description: 'Tesla&#x27;s <strong>annual</strong> report',
          age: 'February 2, 2024',
          page_age: '2024-01-29T00:00:00',
          profile: { name: 'SEC', url: 'https://www.sec.gov' },
          meta_url: { hostname: 'www.sec.gov' },
        },
        { title: 'Recall', url: 'https://news.example.com/recall', description: 'Recall news', age: '2 days ago' },
        { title: 'Undated', url: 'https://wiki.example.org/Tesla', description: 'Encyclopedia' },
      ]),
    });
    const results = await brave().search('tesla', { maxResults: 5 });
    expect(results).toEqual([
      {
        title: 'Tesla 10-K',
        url: 'https://www.sec.gov/tsla-10k',
        snippet: "Tesla's annual report",
        publishedDate: '2024-01-29',
        sourceName: 'SEC',
        provider: 'brave',
        retrievedAt: NOW,
      },
      {
        title: 'Recall',
        url: 'https://news.example.com/recall',
        snippet: 'Recall news',
        publishedDate: '2024-06-13',
        sourceName: 'news.example.com',
        provider: 'brave',
        retrievedAt: NOW,
      },
      {
        title: 'Undated',
        url: 'https://wiki.example.org/Tesla',
        snippet: 'Encyclopedia',
        publishedDate: null,
        sourceName: 'wiki.example.org',
        provider: 'brave',
        retrievedAt: NOW,
      },
    ]);
  });

  it('returns an empty list when the answer has no web section', async () => {
    server.handle = () => ({ body: { type: 'search', query: { original: 'q' } } });
    await expect(brave().search('x', { maxResults: 5 })).resolves.toEqual([]);
  });

  it('retries a 5xx once and then reports the provider unavailable', async () => {
    server.handle = () => ({ status: 503, headers: { 'Retry-After': '0' }, body: '<html>Service Unavailable</html>' });
    const error = (await brave()
      .search('x', { maxResults: 5 })
      .catch((e: unknown) => e)) as WebSearchError;
    expect(server.requests).toHaveLength(2);
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/^Brave Search is unavailable \(HTTP 503\)/);
  });

  it('says the API key was rejected on 401, without the key', async () => {
    server.handle = () => ({
      status: 401,
      body: {
        type: 'ErrorResponse',
        error: { id: 'x', status: 401, code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.' },
      },
    });
    const error = (await brave()
      .search('x', { maxResults: 5 })
      .catch((e: unknown) => e)) as WebSearchError;
    expect(error.message).toBe('Brave Search rejected the API key (HTTP 401). Check BRAVE_SEARCH_API_KEY.');
    expect(server.requests).toHaveLength(1);
  });
});
