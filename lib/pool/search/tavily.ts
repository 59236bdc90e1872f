// Tavily: POST /search with a JSON body and the key as a Bearer token (never in the body, where
// it would end up in any request log that records payloads).
import { normaliseDate } from './dates';
import { WebSearchError } from './errors';
import { asRecord, createProvider, type ProviderSpec } from './provider';
import { cleanText, hostName } from './text';
import type { ProviderConfig, WebResult, WebSearchProvider } from './types';

export const TAVILY_DEFAULT_BASE_URL = 'https://api.tavily.com';

const spec: ProviderSpec = {
  info: { name: 'tavily', label: 'Tavily', keyEnv: 'TAVILY_API_KEY' },
  maxCount: 20,

  buildRequest(query, opts, { apiKey, baseUrl, count, window }) {
    const body: Record<string, unknown> = {
      query,
      max_results: count,
      search_depth: 'basic',
      include_answer: false,
      include_raw_content: false,
      topic: 'general',
    };
    // Only the news topic returns `published_date`. When the run bounds dates we need them —
    // otherwise every result would be undated and the as-of rule could not check it.
    if (window.to) {
      // A past as-of date: an explicit range, because `days` always counts back from today.
      body.topic = 'news';
      body.end_date = window.to;
      if (window.from) body.start_date = window.from;
    } else if (opts.recencyDays !== undefined) {
      body.topic = 'news';
      body.days = Math.max(1, opts.recencyDays);
    }
    return {
      url: new URL('search', baseUrl),
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}` },
      body,
    };
  },

  parse(body, retrievedAt) {
    const json = asRecord(body);
    if (!json || !Array.isArray(json.results)) {
      throw new WebSearchError('bad_response', 'Tavily answered without a results list.', 'tavily');
    }
    return json.results.flatMap((item): WebResult[] => {
      const r = asRecord(item);
      if (!r || typeof r.url !== 'string') return [];
      return [
        {
          title: cleanText(r.title),
          url: r.url,
          snippet: cleanText(r.content),
          publishedDate: normaliseDate(r.published_date, retrievedAt),
          sourceName: hostName(r.url),
          provider: 'tavily',
          retrievedAt,
        },
      ];
    });
  },
};

export function createTavilyProvider(config: ProviderConfig): WebSearchProvider {
  return createProvider(spec, config);
}
