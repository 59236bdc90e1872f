// Auth.js v5: credentials (email + password) and an optional OIDC provider for bank SSO,
// JWT sessions carrying the user's id and role. The config is built lazily so that neither
// `next build` nor importing this module reads the environment or the data folder.
import NextAuth, { CredentialsSignin, type NextAuthConfig } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import { authSecret } from '@/lib/auth/secret';
import { getUserByEmail } from '@/lib/db/queries/users';
import { verifyCredentials } from '@/lib/auth/credentials';
import { demoEnabled, env, oidcConfigured } from '@/lib/env';
import type { Role } from '@/lib/db/schema';
import { log } from '@/lib/ops/log';

/** The reason travels to the sign-in action in `code`; see lib/auth/sign-in-error.ts. */
class SignInRejected extends CredentialsSignin {
  constructor(code: string) {
    super();
    this.code = code;
  }
}

const credentialsInput = z.object({ email: z.string().trim().min(1).max(320), password: z.string().min(1).max(1024) });

const SESSION_HOURS = 8;

function buildConfig(): NextAuthConfig {
  const e = env();
  const providers: NextAuthConfig['providers'] = [
    Credentials({
      credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
      async authorize(raw) {
        const parsed = credentialsInput.safeParse(raw);
        if (!parsed.success) throw new SignInRejected('invalid');
        const result = await verifyCredentials({ db: await getDb(), ...parsed.data, demoAllowed: demoEnabled(e) });
        if (result.ok) {
          const { id, email, name, role } = result.user;
          return { id, email, name, role };
        }
        throw new SignInRejected(result.reason === 'locked' ? `locked:${result.retryAfterSeconds}` : result.reason);
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
    callbacks: {
      // SSO users must already have an enabled account: an admin creates it and sets the role.
      async signIn({ account, user }) {
        if (account?.provider !== 'oidc') return true;
        const existing = user.email ? await getUserByEmail({ db: await getDb(), email: user.email }) : undefined;
        return Boolean(existing && !existing.disabled);
      },
      async jwt({ token, user, account }) {
        if (account?.provider === 'oidc' && user?.email) {
          const existing = await getUserByEmail({ db: await getDb(), email: user.email });
          if (existing) Object.assign(token, { id: existing.id, role: existing.role, name: existing.name });
        } else if (user) {
          Object.assign(token, { id: user.id, role: (user as { role: Role }).role });
        }
        return token;
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
