import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from './fake-server';
import { getWebSearch, toRunEvidence, undatedNote, WEB_SEARCH_NOT_CONFIGURED, WebSearchError, type WebResult } from './index';

describe('getWebSearch', () => {
  it('is not configured without any key, and says what to set', () => {
    expect(getWebSearch({})).toEqual({ configured: false, reason: WEB_SEARCH_NOT_CONFIGURED });
    expect(WEB_SEARCH_NOT_CONFIGURED).toBe('Web search is not configured: set SERPAPI_API_KEY, TAVILY_API_KEY or BRAVE_SEARCH_API_KEY.');
  });

  it('picks the first key present: SerpAPI, then Tavily, then Brave', () => {
    const pick = (e: Parameters<typeof getWebSearch>[0]) => {
      const setup = getWebSearch(e);
      return setup.configured ? setup.provider.name : null;
    };
    expect(pick({ SERPAPI_API_KEY: 's', TAVILY_API_KEY: 't', BRAVE_SEARCH_API_KEY: 'b' })).toBe('serpapi');
    expect(pick({ TAVILY_API_KEY: 't', BRAVE_SEARCH_API_KEY: 'b' })).toBe('tavily');
    expect(pick({ BRAVE_SEARCH_API_KEY: 'b' })).toBe('brave');
    expect(pick({ SERPAPI_API_KEY: '   ' })).toBeNull();
  });

  it('follows WEB_SEARCH_PROVIDER when its key is set', () => {
    const setup = getWebSearch({ WEB_SEARCH_PROVIDER: 'brave', SERPAPI_API_KEY: 's', BRAVE_SEARCH_API_KEY: 'b' });
    expect(setup.configured && setup.provider.name).toBe('brave');
  });

  it('fails clearly when WEB_SEARCH_PROVIDER names a provider without a key', () => {
    const call = () => getWebSearch({ WEB_SEARCH_PROVIDER: 'tavily', SERPAPI_API_KEY: 's' });
    expect(call).toThrow(WebSearchError);
    expect(call).toThrow('WEB_SEARCH_PROVIDER is "tavily" but TAVILY_API_KEY is not set. Set the key or unset WEB_SEARCH_PROVIDER.');
  });

  describe('against a fake Tavily', () => {
    let server: FakeServer;
    beforeAll(async () => {
      server = await startFakeServer();
    });
    afterAll(() => server.close());

    it('sends the configured provider to the configured base URL', async () => {
      server.handle = () => ({ body: { results: [{ title: 't', url: 'https://a.example/', content: 'c', published_date: '2024-06-01' }] } });
      const setup = getWebSearch({ TAVILY_API_KEY: 'tvly-env-key', TAVILY_BASE_URL: server.url });
      if (!setup.configured) throw new Error(setup.reason);
      const results = await setup.provider.search('x', { maxResults: 1 });
      expect(results).toHaveLength(1);
      expect(server.requests[0].headers.authorization).toBe('Bearer tvly-env-key');
    });
  });
});

describe('toRunEvidence', () => {
  const base: WebResult = {
    title: 'Samsung raises capex',
    url: 'https://www.reuters.com/tech/samsung-capex',
    snippet: 'Samsung said it would raise capex.',
    publishedDate: '2024-03-20',
    sourceName: 'Reuters',
    provider: 'serpapi',
    retrievedAt: new Date('2024-06-15T12:00:00Z'),
  };

  it('turns a dated result into run evidence', () => {
    expect(toRunEvidence(base, { runId: 'run1', index: 3, companyId: 'samsung-electronics' })).toEqual({
      id: 'web-run1-3',
      companyId: 'samsung-electronics',
      category: 'news',
      title: 'Samsung raises capex',
      text: 'Samsung said it would raise capex.',
      value: null,
      eventDate: null,
      publishedDate: '2024-03-20',
      sourceName: 'Reuters',
      sourceUrl: 'https://www.reuters.com/tech/samsung-capex',
      language: 'en',
      upstream: 'websearch:serpapi',
      license: null,
      retrievedAt: base.retrievedAt,
    });
  });

  it('dates an undated result by its retrieval day and says so in the text', () => {
    const evidence = toRunEvidence({ ...base, publishedDate: null }, { runId: 'r', index: 0, companyId: 'c' });
    expect(evidence.publishedDate).toBe('2024-06-15');
    expect(evidence.text).toBe(`Samsung said it would raise capex. ${undatedNote('2024-06-15')}`);
    expect(evidence.text).toContain('gave no publication date');
  });

  it('guesses Korean from Hangul and falls back to the host for a missing source name', () => {
    const evidence = toRunEvidence(
      { ...base, title: '삼성전자, 설비투자 확대', snippet: 'Samsung capex', sourceName: '', provider: 'brave' },
      { runId: 'r', index: 1, companyId: 'c' },
    );
    expect(evidence.language).toBe('ko');
    expect(evidence.sourceName).toBe('reuters.com');
    expect(evidence.upstream).toBe('websearch:brave');
  });
});
