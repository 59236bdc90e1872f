import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebSearchError } from './errors';
import { startFakeServer, type FakeServer } from './fake-server';
import { createTavilyProvider } from './tavily';

const KEY = 'tvly-secret-0123456789';
const NOW = new Date('2024-06-15T12:00:00Z');

// Shaped like Tavily's /search response.
function tavilyResponse(results: Record<string, unknown>[]) {
  return { query: 'q', answer: null, images: [], results: results.map((r) => ({ score: 0.9, raw_content: null, ...r })), response_time: 0.8 };
}

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const tavily = () => createTavilyProvider({ apiKey: KEY, baseUrl: server.url, now: () => NOW, maxRetryWaitMs: 2_000 });

describe('Tavily provider', () => {
  it('POSTs JSON to /search with a Bearer key and a date range for an as-of date', async () => {
    server.handle = () => ({ body: tavilyResponse([]) });
    await tavily().search('Taeyoung E&C workout', { maxResults: 5, recencyDays: 90, asOf: '2024-01-31' });

    const req = server.requests[0];
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/search');
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body).toMatchObject({
      query: 'Taeyoung E&C workout',
      max_results: 10,
      topic: 'news',
      start_date: '2023-11-02',
      end_date: '2024-01-31',
    });
    expect(req.body).not.toHaveProperty('days');
    expect(JSON.stringify(req.body)).not.toContain(KEY);
  });

  it('uses days for a recency window alone, and the general topic without any date bound', async () => {
    server.handle = () => ({ body: tavilyResponse([]) });
    await tavily().search('x', { maxResults: 3, recencyDays: 14 });
    await tavily().search('x', { maxResults: 15 });
    expect(server.requests[0].body).toMatchObject({ topic: 'news', days: 14, max_results: 6 });
    expect(server.requests[1].body).toMatchObject({ topic: 'general', max_results: 20 });
    expect(server.requests[1].body).not.toHaveProperty('days');
  });

  it('parses results: content as snippet, published_date in RFC 2822, host as source', async () => {
    server.handle = () => ({
      body: tavilyResponse([
        {
          title: 'Creditors approve workout',
          url: 'https://www.koreaherald.com/view.php?ud=1',
          content: 'Creditors agreed…',
          published_date: 'Wed, 10 Jan 2024 07:00:00 GMT',
        },
        { title: 'Background', url: 'https://example.org/bg', content: 'No date here.' },
      ]),
    });
    const results = await tavily().search('x', { maxResults: 5 });
    expect(results).toEqual([
      {
        title: 'Creditors approve workout',
        url: 'https://www.koreaherald.com/view.php?ud=1',
        snippet: 'Creditors agreed…',
        publishedDate: '2024-01-10',
        sourceName: 'koreaherald.com',
        provider: 'tavily',
        retrievedAt: NOW,
      },
      {
        title: 'Background',
        url: 'https://example.org/bg',
        snippet: 'No date here.',
        publishedDate: null,
        sourceName: 'example.org',
        provider: 'tavily',
        retrievedAt: NOW,
      },
    ]);
  });

  it('retries once on 429, honouring Retry-After, then succeeds', async () => {
    server.handle = (_req, n) =>
      n === 1
        ? { status: 429, headers: { 'Retry-After': '0' }, body: { detail: { error: 'Rate limit exceeded' } } }
        : { body: tavilyResponse([{ title: 'ok', url: 'https://ok.example/', content: 'fine', published_date: '2024-06-01' }]) };
    const results = await tavily().search('x', { maxResults: 5 });
    expect(server.requests).toHaveLength(2);
    expect(results.map((r) => r.title)).toEqual(['ok']);
  });

  it('says the API key was rejected on 401, without the key', async () => {
    server.handle = () => ({ status: 401, body: { detail: { error: 'Unauthorized: missing or invalid API key.' } } });
    const error = (await tavily()
      .search('x', { maxResults: 5 })
      .catch((e: unknown) => e)) as WebSearchError;
    expect(error.kind).toBe('auth');
    expect(error.message).toMatch(/^Tavily rejected the API key \(HTTP 401\)\. Check TAVILY_API_KEY\.$/);
    expect(error.message).not.toContain(KEY);
  });
});
