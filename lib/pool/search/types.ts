// The web-search seam: every provider (SerpAPI, Tavily, Brave) answers this one interface, so the
// debate engine never knows which is behind it and tests can swap in a fake server.
import type { Language } from '@/lib/domain/protocol';

export type WebSearchProviderName = 'serpapi' | 'tavily' | 'brave';

export type WebSearchOptions = {
  /** At most this many results come back (the run's `m`). */
  maxResults: number;
  /** Recency window R in days: results dated before (as-of − R) are dropped. */
  recencyDays?: number;
  /** The case's as-of date (YYYY-MM-DD): results dated after it are dropped. */
  asOf?: string;
  /** Interface language hint for the search engine. */
  language?: Language;
  signal?: AbortSignal;
};

export type WebResult = {
  title: string;
  url: string;
  snippet: string;
  /** YYYY-MM-DD when the provider gave a parseable date; null means the page carried no date. */
  publishedDate: string | null;
  /** The site's name as the provider reports it, else the host name. */
  sourceName: string;
  provider: WebSearchProviderName;
  retrievedAt: Date;
};

export interface WebSearchProvider {
  name: WebSearchProviderName;
  search(query: string, opts: WebSearchOptions): Promise<WebResult[]>;
}

/** How one provider instance talks to its API. Only apiKey and baseUrl come from the env. */
export type ProviderConfig = {
  apiKey: string;
  baseUrl: string;
  /** Per attempt; a search that hangs must not stall a debate step. Default 15 s. */
  timeoutMs?: number;
  /** Longest Retry-After we are willing to sit out before the one retry. Default 10 s. */
  maxRetryWaitMs?: number;
  /** Clock, for tests: relative ages ("3 days ago") and the recency window are computed from it. */
  now?: () => Date;
};
