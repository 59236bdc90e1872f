// Web-search failures carry a kind the engine can act on (an auth error is not worth retrying in
// the next step; a timeout may be) and a message an RM or operator can read. Messages never hold
// the API key: SerpAPI takes it in the query string, so any URL or upstream text is redacted
// (lib/util/redact.ts).
import type { WebSearchProviderName } from './types';

export type WebSearchErrorKind =
  'config' | 'invalid_request' | 'auth' | 'rate_limited' | 'unavailable' | 'timeout' | 'aborted' | 'bad_request' | 'bad_response';

export class WebSearchError extends Error {
  constructor(
    readonly kind: WebSearchErrorKind,
    message: string,
    readonly provider?: WebSearchProviderName,
    /** HTTP status from the provider, when there was one. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'WebSearchError';
  }
}
