// Every page but the public ones needs a valid session cookie. Roles are checked again on
// the server by each page, action and route handler (lib/auth/session.ts, lib/auth/action.ts).
//
// This reads the session without re-issuing it: Auth.js's own proxy wrapper refreshes the
// cookie on every request, and a prefetch answered after a sign-out would sign the user back in.
import { NextResponse, type NextRequest } from 'next/server';
import { getToken } from 'next-auth/jwt';
import { isPublicPath } from '@/lib/auth/permissions';
import { authSecret } from '@/lib/auth/secret';

export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
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
  matcher: ['/((?!_next/static|_next/image|favicon.ico|icon.svg|robots.txt).*)'],
};
