// Password sign-in with lockout: after MAX_FAILED_ATTEMPTS wrong passwords in a row an
// account is locked for LOCK_MINUTES. An unknown email costs the same scrypt work as a
// wrong password, so timing does not reveal which emails exist.
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { users, type User } from '@/lib/db/schema';
import { getUserByEmail, updateUser } from '@/lib/db/queries/users';
import { verifyAgainstDummy, verifyPassword } from '@/lib/auth/password';

export const MAX_FAILED_ATTEMPTS = 5;
export const LOCK_MINUTES = 5;

export type CredentialsResult =
  | { ok: true; user: User }
  | { ok: false; reason: 'invalid' | 'disabled' }
  | { ok: false; reason: 'locked'; retryAfterSeconds: number };

function secondsUntil(date: Date, now: Date) {
  return Math.max(1, Math.ceil((date.getTime() - now.getTime()) / 1000));
}

export async function verifyCredentials({
  db,
  email,
  password,
  demoAllowed,
  now = new Date(),
}: {
  db: Executor;
  email: string;
  password: string;
  demoAllowed: boolean;
  now?: Date;
}): Promise<CredentialsResult> {
  const user = await getUserByEmail({ db, email });
  // Demo accounts outside demo mode behave exactly like unknown emails.
  if (!user || !user.passwordHash || (user.demo && !demoAllowed)) {
    await verifyAgainstDummy(password);
    return { ok: false, reason: 'invalid' };
  }
  if (user.lockedUntil && user.lockedUntil > now) {
    return { ok: false, reason: 'locked', retryAfterSeconds: secondsUntil(user.lockedUntil, now) };
  }
  if (!(await verifyPassword(password, user.passwordHash))) {
    const lockedUntil = await recordFailedAttempt({ db, id: user.id });
    if (lockedUntil && lockedUntil > now) {
      return { ok: false, reason: 'locked', retryAfterSeconds: secondsUntil(lockedUntil, now) };
    }
    return { ok: false, reason: 'invalid' };
  }
  // Only someone who knows the password learns that the account is disabled.
  if (user.disabled) return { ok: false, reason: 'disabled' };
  const signedIn = await updateUser({ db, id: user.id, failedLoginCount: 0, lockedUntil: null, lastLoginAt: now });
  return { ok: true, user: signedIn ?? user };
}

/** One atomic update, so parallel guesses cannot slip past the limit. Returns the lock's end, if any. */
async function recordFailedAttempt({ db, id }: { db: Executor; id: string }) {
  const reachesLimit = sql`${users.failedLoginCount} + 1 >= ${MAX_FAILED_ATTEMPTS}`;
  const [row] = await db
    .update(users)
    .set({
      failedLoginCount: sql`case when ${reachesLimit} then 0 else ${users.failedLoginCount} + 1 end`,
      lockedUntil: sql`case when ${reachesLimit} then now() + make_interval(mins => ${LOCK_MINUTES}) else ${users.lockedUntil} end`,
      lastFailedLoginAt: sql`now()`,
    })
    .where(eq(users.id, id))
    .returning({ lockedUntil: users.lockedUntil });
  return row?.lockedUntil ?? null;
}

export function lockedMessage(retryAfterSeconds: number) {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `This account is locked after ${MAX_FAILED_ATTEMPTS} failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or ask an administrator to reset your password.`;
}

export const SIGN_IN_MESSAGES = {
  invalid: 'Wrong email or password.',
  disabled: 'This account is disabled. Ask an administrator to enable it.',
} as const;
