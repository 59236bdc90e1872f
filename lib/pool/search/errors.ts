// Web-search failures carry a kind the engine can act on (an auth error is not worth retrying in
// the next step; a timeout may be) and a message an RM or operator can read. Messages never hold
// the API key: SerpAPI takes it in the query string, so any URL or upstream text is redacted.
import type { WebSearchProviderName } from './types';

export type WebSearchErrorKind =
  | 'config'
  | 'invalid_request'
  | 'auth'
  | 'rate_limited'
  | 'unavailable'
  | 'timeout'
  | 'aborted'
  | 'bad_request'
  | 'bad_response';

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

const REDACTED = '[redacted]';
// Credentials that travel in query strings or headers, whatever the provider calls them.
const CREDENTIAL_PARAM = /\b(api_key|apikey|key|token|access_token)=[^&\s"'#]+/gi;
const BEARER = /\bBearer\s+[A-Za-z0-9._~+/=-]+/g;

/** Removes the given secrets (raw and URL-encoded) and anything that looks like a credential. */
export function redact(text: string, secrets: (string | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join(REDACTED);
  }
  return out.replace(CREDENTIAL_PARAM, `$1=${REDACTED}`).replace(BEARER, `Bearer ${REDACTED}`);
}
