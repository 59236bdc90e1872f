// Cross-site request forgery: which state-changing requests proxy.ts refuses before they reach a
// page, a server action or a route handler. Next.js compares a server action's `Origin` with the
// host only when the header is there (and treats `Origin: null` as absent), so a request that
// leaves it out would run the action with the user's cookie. Browsers send `Origin` on every
// fetch and form POST, and `Sec-Fetch-Site` too, so the app's own requests always pass; what has
// neither is refused. Pure, so the rule is tested without a server (lib/auth/csrf.test.ts).

/** Methods that change nothing; everything else needs to say where it comes from. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Auth.js's own endpoints: it checks its CSRF token on sign-in and sign-out, and an identity
 * provider's callback may legitimately arrive as a cross-site form POST.
 */
const AUTH_JS_PREFIX = '/api/auth/';

export type CsrfRequest = { method: string; pathname: string; headers: Pick<Headers, 'get'> };

export type CsrfVerdict = { refused: false } | { refused: true; reason: 'no-origin' };

export function checkRequestOrigin({ method, pathname, headers }: CsrfRequest): CsrfVerdict {
  if (SAFE_METHODS.has(method.toUpperCase())) return { refused: false };
  if (pathname.startsWith(AUTH_JS_PREFIX)) return { refused: false };
  // A bearer token is not sent by the browser on its own, so a forged request cannot carry one.
  if (/^bearer\s/i.test(headers.get('authorization') ?? '')) return { refused: false };
  const origin = headers.get('origin');
  // A present Origin is compared with the host by Next.js itself (and `null` is no origin at all).
  if (origin && origin !== 'null') return { refused: false };
  if (headers.get('sec-fetch-site') === 'same-origin') return { refused: false };
  return { refused: true, reason: 'no-origin' };
}

/** The answer to a refused request: plain words, no detail an attacker could use. */
export const CSRF_REFUSAL = {
  code: 'forbidden',
  message: 'This request did not say which site it came from, so it was refused. Reload the page and try again.',
} as const;
