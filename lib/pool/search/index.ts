// Entry point of the web-search seam. getWebSearch picks the provider from the env; without any
// key it says so instead of throwing, and agents work from the pool alone (docs/protocols.md).
import { env as readEnv, type Env } from '@/lib/env';
import { BRAVE_DEFAULT_BASE_URL, createBraveProvider } from './brave';
import { WebSearchError } from './errors';
import { createSerpApiProvider, SERPAPI_DEFAULT_BASE_URL } from './serpapi';
import { createTavilyProvider, TAVILY_DEFAULT_BASE_URL } from './tavily';
import type { ProviderConfig, WebSearchProvider, WebSearchProviderName } from './types';

export type { ProviderConfig, WebResult, WebSearchOptions, WebSearchProvider, WebSearchProviderName } from './types';
export { WebSearchError, type WebSearchErrorKind } from './errors';
export { toRunEvidence, undatedNote } from './evidence';
export { createBraveProvider } from './brave';
export { createSerpApiProvider } from './serpapi';
export { createTavilyProvider } from './tavily';

/** The env fields this module reads; base URLs fall back to the public APIs when absent. */
export type WebSearchEnv = Pick<Env, 'WEB_SEARCH_PROVIDER' | 'SERPAPI_API_KEY' | 'TAVILY_API_KEY' | 'BRAVE_SEARCH_API_KEY'> &
  Partial<Pick<Env, 'SERPAPI_BASE_URL' | 'TAVILY_BASE_URL' | 'BRAVE_SEARCH_BASE_URL'>>;

export type WebSearchSetup = { configured: true; provider: WebSearchProvider } | { configured: false; reason: string };

export const WEB_SEARCH_NOT_CONFIGURED = 'Web search is not configured: set SERPAPI_API_KEY, TAVILY_API_KEY or BRAVE_SEARCH_API_KEY.';

type Options = Omit<ProviderConfig, 'apiKey' | 'baseUrl'>;

// Order of preference when WEB_SEARCH_PROVIDER is not set: SerpAPI first, as in the paper.
const PROVIDERS: {
  name: WebSearchProviderName;
  keyEnv: string;
  key: (e: WebSearchEnv) => string | undefined;
  create: (e: WebSearchEnv, key: string, options: Options) => WebSearchProvider;
}[] = [
  {
    name: 'serpapi',
    keyEnv: 'SERPAPI_API_KEY',
    key: (e) => e.SERPAPI_API_KEY,
    create: (e, apiKey, o) => createSerpApiProvider({ ...o, apiKey, baseUrl: e.SERPAPI_BASE_URL ?? SERPAPI_DEFAULT_BASE_URL }),
  },
  {
    name: 'tavily',
    keyEnv: 'TAVILY_API_KEY',
    key: (e) => e.TAVILY_API_KEY,
    create: (e, apiKey, o) => createTavilyProvider({ ...o, apiKey, baseUrl: e.TAVILY_BASE_URL ?? TAVILY_DEFAULT_BASE_URL }),
  },
  {
    name: 'brave',
    keyEnv: 'BRAVE_SEARCH_API_KEY',
    key: (e) => e.BRAVE_SEARCH_API_KEY,
    create: (e, apiKey, o) => createBraveProvider({ ...o, apiKey, baseUrl: e.BRAVE_SEARCH_BASE_URL ?? BRAVE_DEFAULT_BASE_URL }),
  },
];

/**
 * The configured provider. WEB_SEARCH_PROVIDER wins when set, and then its key must be there:
 * silently falling back to another provider would send the bank's queries somewhere the
 * operator did not choose. Throws WebSearchError('config') in that case only.
 */
export function getWebSearch(e: WebSearchEnv = readEnv(), options: Options = {}): WebSearchSetup {
  const key = (k: string | undefined) => (k && k.trim() ? k.trim() : undefined);
  if (e.WEB_SEARCH_PROVIDER) {
    const chosen = PROVIDERS.find((p) => p.name === e.WEB_SEARCH_PROVIDER)!;
    const apiKey = key(chosen.key(e));
    if (!apiKey) {
      throw new WebSearchError(
        'config',
        `WEB_SEARCH_PROVIDER is "${chosen.name}" but ${chosen.keyEnv} is not set. Set the key or unset WEB_SEARCH_PROVIDER.`,
        chosen.name,
      );
    }
    return { configured: true, provider: chosen.create(e, apiKey, options) };
  }
  for (const p of PROVIDERS) {
    const apiKey = key(p.key(e));
    if (apiKey) return { configured: true, provider: p.create(e, apiKey, options) };
  }
  return { configured: false, reason: WEB_SEARCH_NOT_CONFIGURED };
}
