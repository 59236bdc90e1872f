// A long response (the run event stream) outlives the session check made when it began: a
// stream opened before "sign out everywhere", an admin's reset, a role change or a disabled
// account would otherwise carry on for as long as the browser keeps it open. So such a response
// checks again every SESSION_CHECK_MS, the way each request is checked (lib/auth/session.ts): the
// session row is live and the token's (lib/auth/sessions.ts), the user is enabled and their role
// still has the permission, and the caller's own test (e.g. run access) still holds. The first
// check that fails, or cannot be made, ends the response.
//
// The session id travels only in the encrypted cookie, never in what pages are given
// (`SessionUser`), so it is read from the request's cookie as proxy.ts reads it. A request that
// got past lib/auth/route.ts without such a cookie (a session given some other way) is checked
// by asking that same question again: getSessionUser.
import { getToken } from 'next-auth/jwt';
import { can, type Permission } from '@/lib/auth/permissions';
import { authSecret } from '@/lib/auth/secret';
import { getSessionUser, type SessionUser } from '@/lib/auth/session';
import { checkSession } from '@/lib/auth/sessions';
import type { Executor } from '@/lib/db/client';
import { getUserById } from '@/lib/db/queries/users';
import { demoEnabled } from '@/lib/env';
import { log } from '@/lib/ops/log';

/** How often an open stream checks its session: at most this long after a revocation it ends. */
export const SESSION_CHECK_MS = 5_000;

export type SessionRef = { sid: string; userId: string };

/** The session the request's cookie names, or null when it carries none that decodes. */
export async function sessionOfRequest(request: Request): Promise<SessionRef | null> {
  // No session cookie at all: nothing to decode (and no secret to resolve for it).
  if (!/(^|;\s*)(__Secure-)?authjs\.session-token(\.\d+)?=/.test(request.headers.get('cookie') ?? '')) return null;
  // Auth.js names the cookie __Secure-… when the site is served over HTTPS (directly or behind a proxy).
  const secureCookie = new URL(request.url).protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
  const token = await getToken({ req: request, secret: authSecret(), secureCookie }).catch(() => null);
  return typeof token?.sid === 'string' && typeof token.id === 'string' ? { sid: token.sid, userId: token.id } : null;
}

/** Whether the session (`null`: the one getSessionUser finds), its user and `stillAllowed` all hold now. */
export async function sessionHolds({
  db,
  session,
  permission,
  stillAllowed,
}: {
  db: Executor;
  session: SessionRef | null;
  permission: Permission;
  stillAllowed: (user: SessionUser) => Promise<boolean>;
}) {
  let user: SessionUser | null = null;
  if (session) {
    if (!(await checkSession({ db, sid: session.sid, userId: session.userId }))) return false;
    const row = await getUserById({ db, id: session.userId });
    if (row && !row.disabled && !(row.demo && !demoEnabled())) user = { id: row.id, email: row.email, name: row.name, role: row.role, demo: row.demo };
  } else {
    user = await getSessionUser();
  }
  return Boolean(user && can(user.role, permission) && (await stillAllowed(user)));
}

/**
 * Checks every `intervalMs` that the session still holds and calls `end` once when it does not
 * (or the check fails). Returns the stop for when the response ends first.
 */
export function watchSession({ intervalMs, holds, end }: { intervalMs: number; holds: () => Promise<boolean>; end: () => void }) {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
  };
  const finish = () => {
    if (stopped) return;
    stop();
    end();
  };
  const next = () => {
    timer = setTimeout(() => {
      holds().then(
        (ok) => (ok ? !stopped && next() : finish()),
        (err: unknown) => {
          log.warn('could not check the session of an open stream; ending it', { component: 'auth', err });
          finish();
        },
      );
    }, intervalMs);
  };
  next();
  return stop;
}
