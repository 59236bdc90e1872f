// Brave Search: GET /res/v1/web/search with the key in the X-Subscription-Token header.
import { normaliseDate } from './dates';
import { WebSearchError } from './errors';
import { asArray, asRecord, createProvider, type ProviderSpec } from './provider';
import { cleanText, hostName } from './text';
import type { ProviderConfig, WebResult, WebSearchProvider } from './types';

export const BRAVE_DEFAULT_BASE_URL = 'https://api.search.brave.com';

// Brave's custom freshness range needs both ends; an as-of date without a recency window gets an
// open-looking start well before any web page.
const EARLIEST = '1990-01-01';

/** Brave's `freshness` as an exact range (`YYYY-MM-DDtoYYYY-MM-DD`), rather than pd/pw/pm/py. */
export function braveFreshness(window: { from: string | null; to: string | null }, today: string): string | undefined {
  if (!window.from && !window.to) return undefined;
  return `${window.from ?? EARLIEST}to${window.to ?? today}`;
}

const spec: ProviderSpec = {
  info: { name: 'brave', label: 'Brave Search', keyEnv: 'BRAVE_SEARCH_API_KEY' },
  maxCount: 20,

  buildRequest(query, opts, { apiKey, baseUrl, count, window, today }) {
    const url = new URL('res/v1/web/search', baseUrl);
    url.searchParams.set('q', query);
    url.searchParams.set('count', String(count));
    const freshness = braveFreshness(window, today);
    if (freshness) url.searchParams.set('freshness', freshness);
    if (opts.language) url.searchParams.set('search_lang', opts.language);
    if (opts.language === 'ko') url.searchParams.set('country', 'KR');
    return { url, headers: { 'X-Subscription-Token': apiKey } };
  },

  parse(body, retrievedAt) {
    const json = asRecord(body);
    if (!json) throw new WebSearchError('bad_response', 'Brave Search answered with an unexpected shape.', 'brave');
    // A query with no web hits comes back without a `web` section at all.
    return asArray(asRecord(json.web)?.results).flatMap((item): WebResult[] => {
      const r = asRecord(item);
      if (!r || typeof r.url !== 'string') return [];
      // page_age is an ISO timestamp; age is display text ("3 days ago", "March 5, 2024").
      const publishedDate = normaliseDate(r.page_age, retrievedAt) ?? normaliseDate(r.age, retrievedAt);
      return [
        {
          title: cleanText(r.title),
          url: r.url,
          snippet: cleanText(r.description),
          publishedDate,
          sourceName: cleanText(asRecord(r.profile)?.name) || hostName(r.url),
          provider: 'brave',
          retrievedAt,
        },
      ];
    });
  },
};

export function createBraveProvider(config: ProviderConfig): WebSearchProvider {
  return createProvider(spec, config);
}
