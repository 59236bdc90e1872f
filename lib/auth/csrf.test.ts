// The cross-site request rule of proxy.ts (lib/auth/csrf.ts): a state-changing request that names
// no origin is refused, whatever it targets, while the browser's own requests, Auth.js's
// endpoints and bearer-token clients pass.
import { describe, expect, it } from 'vitest';
import { checkRequestOrigin } from '@/lib/auth/csrf';

const request = (method: string, pathname: string, headers: Record<string, string> = {}) => ({ method, pathname, headers: new Headers(headers) });
const ACTION = { 'next-action': '7f3a9c', 'content-type': 'text/plain;charset=UTF-8' };

describe('checkRequestOrigin', () => {
  it('a server action posted without an Origin header is refused', () => {
    expect(checkRequestOrigin(request('POST', '/cases/abc', ACTION))).toEqual({ refused: true, reason: 'no-origin' });
    // The sign-in form's action too: a forged sign-in would log the victim into another account.
    expect(checkRequestOrigin(request('POST', '/login', ACTION))).toEqual({ refused: true, reason: 'no-origin' });
  });

  it('an opaque `Origin: null` counts as no origin (Next.js skips its own check for it)', () => {
    expect(checkRequestOrigin(request('POST', '/cases/abc', { ...ACTION, origin: 'null' }))).toEqual({ refused: true, reason: 'no-origin' });
  });

  it('a cross-site Sec-Fetch-Site without Origin does not help; other state-changing methods are held to the same rule', () => {
    expect(checkRequestOrigin(request('POST', '/cases/abc', { ...ACTION, 'sec-fetch-site': 'cross-site' })).refused).toBe(true);
    expect(checkRequestOrigin(request('POST', '/cases/abc', { ...ACTION, 'sec-fetch-site': 'same-site' })).refused).toBe(true);
    for (const method of ['PUT', 'PATCH', 'DELETE', 'post']) expect(checkRequestOrigin(request(method, '/api/studies/s1/ratings')).refused, method).toBe(true);
  });

  it("the browser's own requests pass: with an Origin, or marked same-origin by Sec-Fetch-Site", () => {
    expect(checkRequestOrigin(request('POST', '/cases/abc', { ...ACTION, origin: 'http://localhost:3000' }))).toEqual({ refused: false });
    expect(checkRequestOrigin(request('POST', '/cases/abc', { ...ACTION, 'sec-fetch-site': 'same-origin' }))).toEqual({ refused: false });
  });

  it('reads, Auth.js endpoints and bearer-token clients are not asked for an origin', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) expect(checkRequestOrigin(request(method, '/cases/abc')).refused, method).toBe(false);
    expect(checkRequestOrigin(request('POST', '/api/auth/callback/oidc')).refused).toBe(false);
    expect(checkRequestOrigin(request('POST', '/api/auth/signout')).refused).toBe(false);
    expect(checkRequestOrigin(request('POST', '/api/metrics', { authorization: 'Bearer 0123456789abcdef01234567' })).refused).toBe(false);
    // Only Auth.js's own prefix: a look-alike path is held to the rule.
    expect(checkRequestOrigin(request('POST', '/api/authx')).refused).toBe(true);
  });
});
