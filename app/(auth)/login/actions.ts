'use server';

import { AuthError } from 'next-auth';
import { z } from 'zod';
import { action } from '@/lib/auth/action';
import { signIn, signOut } from '@/lib/auth/auth';
import { SIGN_IN_MESSAGES } from '@/lib/auth/credentials';
import type { SessionUser } from '@/lib/auth/session';
import { revokeUserSessions } from '@/lib/auth/sessions';
import { getDb } from '@/lib/db/client';
import { AppError } from '@/lib/errors';
import { say } from '@/lib/i18n';
import { authMessages } from '@/lib/i18n/messages/auth';

/** Only same-site paths: an absolute callback URL would make the sign-in an open redirect. */
function safeCallback(url: string | undefined) {
  return url && url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/login') ? url : '/';
}

/** The code comes from lib/auth/auth.ts (SignInRejected); anything else reads as a wrong password. */
function messageFor(err: AuthError) {
  const code = (err as AuthError & { code?: string }).code ?? '';
  if (code === 'disabled') return SIGN_IN_MESSAGES.disabled;
  if (code === 'throttled') return SIGN_IN_MESSAGES.throttled;
  return SIGN_IN_MESSAGES.invalid;
}

const signInInput = z.object({
  email: z.string().trim().min(1, 'enterEmail').max(320),
  password: z.string().min(1, 'enterPassword').max(1024),
  callbackUrl: z.string().max(2048).optional(),
});

export const signInAction = action<typeof signInInput, never, SessionUser | null>(
  { permission: 'public', input: signInInput, verbatim: ['password'] },
  async ({ email, password, callbackUrl }) => {
    try {
      // Redirects (throws NEXT_REDIRECT) on success.
      await signIn('credentials', { email, password, redirectTo: safeCallback(callbackUrl) });
    } catch (err) {
      if (err instanceof AuthError) throw new AppError('unauthorized', messageFor(err));
      throw err;
    }
    throw new AppError('internal');
  },
);

export const signInWithSsoAction = action<z.ZodObject<{ callbackUrl: z.ZodOptional<z.ZodString> }>, never, SessionUser | null>(
  { permission: 'public', input: z.object({ callbackUrl: z.string().max(2048).optional() }) },
  async ({ callbackUrl }) => {
    await signIn('oidc', { redirectTo: safeCallback(callbackUrl) });
    throw new AppError('unavailable', say(authMessages, 'ssoNotConfigured'));
  },
);

/** Ends this browser's session (lib/auth/auth.ts, events.signOut); with `everywhere`, every session of the user. */
export const signOutAction = action(
  { permission: 'app:use', input: z.object({ everywhere: z.enum(['true', 'false']).optional() }) },
  async ({ everywhere }, user) => {
    if (everywhere === 'true') {
      const db = await getDb();
      await db.transaction((tx) => revokeUserSessions({ tx, userId: user.id, actorId: user.id, reason: 'sign_out_everywhere' }));
    }
    await signOut({ redirectTo: '/login' });
  },
);
