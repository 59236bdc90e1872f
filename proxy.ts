// Every page but the public ones needs a valid session cookie. Roles are checked again on
// the server by each page, action and route handler (lib/auth/session.ts, lib/auth/action.ts).
// Before that, on every path (the sign-in form's action included), a state-changing request
// that names no origin is refused (lib/auth/csrf.ts): Next.js checks a server action's Origin
// only when it is present.
//
// This reads the session without re-issuing it: Auth.js's own proxy wrapper refreshes the
// cookie on every request, and a prefetch answered after a sign-out would sign the user back in.
import { NextResponse, type NextRequest } from 'next/server';
import { getToken } from 'next-auth/jwt';
import { checkRequestOrigin, CSRF_REFUSAL } from '@/lib/auth/csrf';
import { isPublicPath } from '@/lib/auth/permissions';
import { authSecret } from '@/lib/auth/secret';
import { addressHasNul, NUL_ADDRESS_REFUSAL } from '@/lib/domain/typed-text';
import { log } from '@/lib/ops/log';

export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  // A NUL in the address would reach a query as text PostgreSQL refuses (a search, a filter, an
  // id in the path), and the page would fail: refused here for every page and route.
  if (addressHasNul(pathname + search)) return NextResponse.json(NUL_ADDRESS_REFUSAL, { status: 400 });
  const origin = checkRequestOrigin({ method: request.method, pathname, headers: request.headers });
  if (origin.refused) {
    log.warn('refused a state-changing request without an origin', { component: 'csrf', method: request.method, path: pathname, reason: origin.reason });
    return NextResponse.json(CSRF_REFUSAL, { status: 403 });
  }
  if (isPublicPath(pathname)) return NextResponse.next();
  // Auth.js names the cookie __Secure-… when the site is served over HTTPS (directly or behind a proxy).
  const secureCookie = request.nextUrl.protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
  const token = await getToken({ req: request, secret: authSecret(), secureCookie });
  if (token?.id) return NextResponse.next();
  if (pathname.startsWith('/api/')) {
    return NextResponse.json({ code: 'unauthorized', message: 'Please sign in to continue.' }, { status: 401 });
  }
  const login = new URL('/login', request.url);
  login.searchParams.set('callbackUrl', `${pathname}${search}`);
  return NextResponse.redirect(login);
}

export const config = {
  // Not /api/import: Next.js copies the body of every request the proxy sees and cuts the copy at
  // 10 MB (proxyClientMaxBodySize), which broke larger imports. That route checks the session,
  // the role and the origin itself before it reads the body (app/api/import/route.ts).
  matcher: ['/((?!_next/static|_next/image|favicon.ico|icon.svg|robots.txt|api/import).*)'],
};
