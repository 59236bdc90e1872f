// SerpAPI's Google engine (the one the paper used): GET /search.json with the key as `api_key`
// in the query string, which is why every error path redacts URLs.
import { normaliseDate } from './dates';
import { WebSearchError } from './errors';
import { asArray, asRecord, createProvider, type ProviderSpec } from './provider';
import { cleanText, hostName } from './text';
import type { ProviderConfig, WebResult, WebSearchProvider } from './types';

export const SERPAPI_DEFAULT_BASE_URL = 'https://serpapi.com';

// Google's custom date range takes M/D/YYYY.
function googleDate(ymd: string): string {
  const [y, m, d] = ymd.split('-').map(Number);
  return `${m}/${d}/${y}`;
}

/**
 * Google's `tbs`: with an as-of date a custom range ending on it (`cdr`), so a back-test asks
 * Google for pages of that time rather than today's; with only a recency window, the last N days.
 */
export function googleTbs(window: { from: string | null; to: string | null }, recencyDays?: number): string | undefined {
  if (window.to) return `cdr:1,cd_min:${window.from ? googleDate(window.from) : ''},cd_max:${googleDate(window.to)}`;
  if (recencyDays !== undefined) return `qdr:d${Math.max(1, recencyDays)}`;
  return undefined;
}

const spec: ProviderSpec = {
  info: { name: 'serpapi', label: 'SerpAPI', keyEnv: 'SERPAPI_API_KEY' },
  // SerpAPI passes `num` to Google, which serves at most 100 results per page.
  maxCount: 100,

  buildRequest(query, opts, { apiKey, baseUrl, count, window }) {
    const url = new URL('search.json', baseUrl);
    url.searchParams.set('engine', 'google');
    url.searchParams.set('q', query);
    url.searchParams.set('num', String(count));
    const tbs = googleTbs(window, opts.recencyDays);
    if (tbs) url.searchParams.set('tbs', tbs);
    if (opts.language === 'ko') {
      url.searchParams.set('hl', 'ko');
      url.searchParams.set('gl', 'kr');
    } else if (opts.language === 'en') {
      url.searchParams.set('hl', 'en');
    }
    url.searchParams.set('api_key', apiKey);
    return { url };
  },

  parse(body, retrievedAt) {
    const json = asRecord(body);
    if (!json) throw new WebSearchError('bad_response', 'SerpAPI answered with an unexpected shape.', 'serpapi');
    // SerpAPI reports "no results" as HTTP 200 with an `error` string and no organic_results.
    if (typeof json.error === 'string' && !Array.isArray(json.organic_results)) {
      if (/hasn't returned any results/i.test(json.error)) return [];
      throw new WebSearchError('bad_response', `SerpAPI reported an error: ${json.error.slice(0, 200)}`, 'serpapi');
    }
    return asArray(json.organic_results).flatMap((item): WebResult[] => {
      const r = asRecord(item);
      if (!r || typeof r.link !== 'string') return [];
      return [
        {
          title: cleanText(r.title),
          url: r.link,
          snippet: cleanText(r.snippet),
          publishedDate: normaliseDate(r.date, retrievedAt),
          sourceName: cleanText(r.source) || hostName(r.link),
          provider: 'serpapi',
          retrievedAt,
        },
      ];
    });
  },
};

export function createSerpApiProvider(config: ProviderConfig): WebSearchProvider {
  return createProvider(spec, config);
}
