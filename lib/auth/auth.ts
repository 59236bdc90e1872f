// Auth.js v5: credentials (email + password) and an optional OIDC provider for bank SSO.
// The cookie is a JWT carrying the user's id, role and session id (`sid`); the session itself is
// a row in `user_sessions` that every read of the cookie checks, so signing out or an admin's
// change ends it at once (lib/auth/sessions.ts). The config is built lazily so that neither
// `next build` nor importing this module reads the environment or the data folder.
import NextAuth, { CredentialsSignin, type NextAuthConfig } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { randomBytes } from 'node:crypto';
import { cookies, headers } from 'next/headers';
import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import { authSecret } from '@/lib/auth/secret';
import { getUserByEmail } from '@/lib/db/queries/users';
import { attemptSignIn, auditSsoRefusal, DEVICE_ID } from '@/lib/auth/credentials';
import { checkSession, createSession, endSession, SESSION_HOURS } from '@/lib/auth/sessions';
import { clientAddress } from '@/lib/auth/throttle';
import { demoEnabled, env, oidcConfigured, type Env } from '@/lib/env';
import type { Role } from '@/lib/domain/vocabulary';
import { log } from '@/lib/ops/log';

/** The reason travels to the sign-in action in `code`; see lib/auth/sign-in-error.ts. */
class SignInRejected extends CredentialsSignin {
  constructor(code: string) {
    super();
    this.code = code;
  }
}

/**
 * The browser's device id: random, set on a password sign-in, and known to an account only once
 * it signed in with it, so that locks on its address do not keep it out (lib/auth/credentials.ts).
 */
const DEVICE_COOKIE = 'crosscheck-device';
const DEVICE_COOKIE_DAYS = 400;

function deviceOf(request: Request) {
  const found = /(?:^|;\s*)crosscheck-device=([^;]*)/.exec(request.headers.get('cookie') ?? '')?.[1];
  return found && DEVICE_ID.test(found) ? found : null;
}

/** Keeps the device id in the browser; where a cookie cannot be set, the browser stays unknown. */
async function rememberDevice(request: Request, device: string) {
  try {
    const secure = new URL(request.url).protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
    (await cookies()).set(DEVICE_COOKIE, device, { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: DEVICE_COOKIE_DAYS * 86_400 });
  } catch (err) {
    log.warn('could not set the device cookie', { component: 'auth', err });
  }
}

const credentialsInput = z.object({ email: z.string().trim().min(1).max(320), password: z.string().min(1).max(1024) });

/** The signing-in request's client address and browser, for the session row; none outside a request. */
async function requestOrigin(e: Env) {
  try {
    const h = await headers();
    return { ip: clientAddress(h, e.TRUST_PROXY), userAgent: h.get('user-agent') };
  } catch {
    return { ip: null, userAgent: null };
  }
}

function buildConfig(): NextAuthConfig {
  const e = env();
  const providers: NextAuthConfig['providers'] = [
    Credentials({
      credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
      // Both the sign-in form (app/(auth)/login/actions.ts) and a direct POST to
      // /api/auth/callback/credentials end here, so the throttle and the lock cover both.
      async authorize(raw, request) {
        const parsed = credentialsInput.safeParse(raw);
        if (!parsed.success) throw new SignInRejected('invalid');
        // A browser without one gets a new id, which its account learns if the password is right.
        const device = deviceOf(request) ?? randomBytes(16).toString('base64url');
        const outcome = await attemptSignIn({
          db: await getDb(),
          ...parsed.data,
          address: clientAddress(request.headers, e.TRUST_PROXY),
          device,
          demoAllowed: demoEnabled(e),
          attemptsPerMinute: e.SIGN_IN_ATTEMPTS_PER_MINUTE,
        });
        if (!outcome.ok) throw new SignInRejected(outcome.code);
        await rememberDevice(request, device);
        const { id, email, name, role } = outcome.user;
        return { id, email, name, role };
      },
    }),
  ];
  if (oidcConfigured(e)) {
    providers.push({
      id: 'oidc',
      name: e.AUTH_OIDC_NAME,
      type: 'oidc',
      issuer: e.AUTH_OIDC_ISSUER,
      clientId: e.AUTH_OIDC_CLIENT_ID,
      clientSecret: e.AUTH_OIDC_CLIENT_SECRET,
    });
  }
  return {
    secret: authSecret(),
    trustHost: true,
    logger: {
      // A rejected sign-in is an expected outcome, not a server error worth a stack trace.
      error(error) {
        if (error instanceof CredentialsSignin) return;
        log.warn('sign-in error', { component: 'auth', name: error.name, err: error });
      },
    },
    session: { strategy: 'jwt', maxAge: SESSION_HOURS * 60 * 60 },
    pages: { signIn: '/login', error: '/login' },
    providers,
    events: {
      // This browser's session ends with its row; copies of the cookie stop working with it.
      async signOut(message) {
        const token = 'token' in message ? message.token : null;
        if (token) await endSession({ db: await getDb(), sid: token.sid, userId: token.id });
      },
    },
    callbacks: {
      // SSO users must already have an enabled account: an admin creates it and sets the role.
      async signIn({ account, user }) {
        if (account?.provider !== 'oidc') return true;
        const db = await getDb();
        const existing = user.email ? await getUserByEmail({ db, email: user.email }) : undefined;
        if (existing && !existing.disabled) return true;
        await auditSsoRefusal({ db, email: user.email ?? null, userId: existing?.id ?? null, reason: existing ? 'disabled' : 'unknown', provider: 'oidc' });
        return false;
      },
      // With `user`: a sign-in, which opens a session row. Without: any later read of the
      // cookie (every request, through getSessionUser in lib/auth/session.ts), which holds only
      // while the row does; null signs the cookie out.
      async jwt({ token, user, account }) {
        const db = await getDb();
        if (user) {
          let signedIn: { id: string; role: Role; name?: string } | undefined;
          if (account?.provider === 'oidc') {
            const existing = user.email ? await getUserByEmail({ db, email: user.email }) : undefined;
            if (existing) signedIn = { id: existing.id, role: existing.role, name: existing.name };
          } else if (user.id) {
            signedIn = { id: user.id, role: (user as { role: Role }).role };
          }
          if (!signedIn) return null;
          const sid = await createSession({ db, userId: signedIn.id, provider: account?.provider ?? 'credentials', ...(await requestOrigin(e)) });
          return Object.assign(token, signedIn, { sid });
        }
        return (await checkSession({ db, sid: token.sid, userId: token.id })) ? token : null;
      },
      session({ session, token }) {
        Object.assign(session.user, { id: token.id as string, role: token.role as Role });
        return session;
      },
    },
  };
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => buildConfig());

export const oidcProviderName = () => (oidcConfigured() ? env().AUTH_OIDC_NAME : null);
