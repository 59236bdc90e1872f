import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebSearchError } from './errors';
import { startFakeServer, type FakeServer } from './fake-server';
import { createSerpApiProvider } from './serpapi';
import type { ProviderConfig } from './types';

const KEY = 'serp-secret-key-0123456789';
const NOW = new Date('2024-06-15T12:00:00Z');

// Shaped like SerpAPI's Google engine response (search_metadata, organic_results[]).
function serpResponse(items: Record<string, unknown>[]) {
  return {
    search_metadata: { id: 'abc', status: 'Success' },
    search_parameters: { engine: 'google', q: 'query' },
    organic_results: items.map((item, i) => ({ position: i + 1, displayed_link: 'example', ...item })),
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

function serpapi(config: Partial<ProviderConfig> = {}) {
  return createSerpApiProvider({ apiKey: KEY, baseUrl: server.url, now: () => NOW, ...config });
}

describe('SerpAPI provider', () => {
  it('sends the key as api_key and asks Google for a date range ending on the as-of date', async () => {
    server.handle = () => ({ body: serpResponse([]) });
    await serpapi().search('삼성전자 신용', { maxResults: 5, recencyDays: 30, asOf: '2024-03-31', language: 'ko' });

    expect(server.requests).toHaveLength(1);
    const req = server.requests[0];
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/search.json');
    expect(req.query.get('api_key')).toBe(KEY);
    expect(req.query.get('engine')).toBe('google');
    expect(req.query.get('q')).toBe('삼성전자 신용');
    expect(req.query.get('num')).toBe('10');
    expect(req.query.get('tbs')).toBe('cdr:1,cd_min:3/1/2024,cd_max:3/31/2024');
    expect(req.query.get('hl')).toBe('ko');
    expect(req.query.get('gl')).toBe('kr');
  });

  it('uses qdr for a recency window without an as-of date, and nothing without either', async () => {
    server.handle = () => ({ body: serpResponse([]) });
    await serpapi().search('tesla', { maxResults: 3, recencyDays: 7 });
    await serpapi().search('tesla', { maxResults: 3 });
    expect(server.requests[0].query.get('tbs')).toBe('qdr:d7');
    expect(server.requests[0].query.get('num')).toBe('6');
    expect(server.requests[1].query.has('tbs')).toBe(false);
  });

  it('keeps a path prefix in the base URL (a proxy in front of SerpAPI)', async () => {
    server.handle = () => ({ body: serpResponse([]) });
    await serpapi({ baseUrl: `${server.url}/serp` }).search('x', { maxResults: 1 });
    expect(server.requests[0].path).toBe('/serp/search.json');
  });

  it('parses organic results: title, link, snippet, dates in several forms, source', async () => {
    server.handle = () => ({
      body: serpResponse([
        {
          title: 'Samsung <b>Q1</b> profit',
          link: 'https://www.reuters.com/a',
          snippet: 'Operating profit rose &amp; more.',
          date: 'Jun 10, 2024',
          source: 'Reuters',
        },
        { title: 'Chip demand', link: 'https://news.example.com/b', snippet: 'Demand recovers.', date: '3 days ago' },
        { title: '삼성전자 실적', link: 'https://news.example.kr/c', snippet: '영업이익 증가', date: '2024. 6. 1.' },
        { title: 'Company profile', link: 'https://www.undated.example/d', snippet: 'About us.' },
      ]),
    });
    const results = await serpapi().search('samsung', { maxResults: 10 });
    expect(results).toEqual([
      {
        title: 'Samsung Q1 profit',
        url: 'https://www.reuters.com/a',
        snippet: 'Operating profit rose & more.',
        publishedDate: '2024-06-10',
        sourceName: 'Reuters',
        provider: 'serpapi',
        retrievedAt: NOW,
      },
      {
        title: 'Chip demand',
        url: 'https://news.example.com/b',
        snippet: 'Demand recovers.',
        publishedDate: '2024-06-12',
        sourceName: 'news.example.com',
        provider: 'serpapi',
        retrievedAt: NOW,
      },
      {
        title: '삼성전자 실적',
        url: 'https://news.example.kr/c',
        snippet: '영업이익 증가',
        publishedDate: '2024-06-01',
        sourceName: 'news.example.kr',
        provider: 'serpapi',
        retrievedAt: NOW,
      },
      {
        title: 'Company profile',
        url: 'https://www.undated.example/d',
        snippet: 'About us.',
        publishedDate: null,
        sourceName: 'undated.example',
        provider: 'serpapi',
        retrievedAt: NOW,
      },
    ]);
  });

  it('applies the shared rules to what Google returns despite the date filter', async () => {
    server.handle = () => ({
      body: serpResponse([
        { title: 'after as-of', link: 'https://a.example/1', date: 'Apr 2, 2024' },
        { title: 'in window', link: 'https://a.example/2', date: 'Mar 20, 2024' },
        { title: 'too old', link: 'https://a.example/3', date: 'Jan 5, 2024' },
        { title: 'duplicate', link: 'https://a.example/2#top', date: 'Mar 20, 2024' },
        { title: 'not web', link: 'ftp://a.example/4', date: 'Mar 21, 2024' },
        { title: 'undated', link: 'https://a.example/5' },
        { title: 'over the cap', link: 'https://a.example/6', date: 'Mar 22, 2024' },
      ]),
    });
    const results = await serpapi().search('x', { maxResults: 2, recencyDays: 30, asOf: '2024-03-31' });
    expect(results.map((r) => r.title)).toEqual(['in window', 'undated']);
  });

  it('treats "no results" (HTTP 200 with an error string) as an empty list', async () => {
    server.handle = () => ({
      body: { search_metadata: { status: 'Success' }, error: "Google hasn't returned any results for this query." },
    });
    await expect(serpapi().search('zzzz', { maxResults: 5 })).resolves.toEqual([]);
  });

  it('says the API key was rejected on 401, without the key and without retrying', async () => {
    server.handle = () => ({ status: 401, body: { error: 'Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key' } });
    const error = await serpapi()
      .search('x', { maxResults: 5 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebSearchError);
    expect((error as WebSearchError).kind).toBe('auth');
    expect((error as WebSearchError).message).toBe('SerpAPI rejected the API key (HTTP 401). Check SERPAPI_API_KEY.');
    expect(String((error as Error).message)).not.toContain(KEY);
    expect(server.requests).toHaveLength(1);
  });
});
