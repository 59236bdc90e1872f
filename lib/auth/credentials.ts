// Password sign-in, with three defences against guessing:
// 1. The per-address throttle (lib/auth/throttle.ts) comes first: a client gets
//    SIGN_IN_ATTEMPTS_PER_MINUTE attempts a minute, whichever accounts they name.
// 2. The per-account lock. Before any password is compared, each attempt on an account takes a
//    numbered ticket in one UPDATE: the count goes up by one, and the ticket that reaches
//    MAX_FAILED_ATTEMPTS also locks the account for LOCK_MINUTES. Only tickets up to the limit
//    are compared; later ones are refused whatever the password, however many arrive at once,
//    until the lock ends (then counting starts again) or an admin unlocks the account. A right
//    password resets the count, unless the account has refused attempts while locked since. The
//    lock is short because anyone can trigger it for an email they know; the throttle is the line
//    that holds them back, and an admin can lift a lock at once (lib/auth/accounts.ts).
// 3. One answer for an unknown email, a wrong password and a locked account, each after the same
//    scrypt work, so neither the message nor the timing tells which emails exist. Only someone
//    who gave the right password learns that an account is disabled.
// Every attempt is recorded in the audit log (the successful one when its session is created,
// lib/auth/sessions.ts).
import type { Db, Executor } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { recordSignInFailure, recordSignInSuccess, takeSignInTicket } from '@/lib/db/queries/sign-in';
import type { User } from '@/lib/db/schema';
import { getUserByEmail } from '@/lib/db/queries/users';
import { verifyAgainstDummy, verifyPassword } from '@/lib/auth/password';
import { takeSignInAttempt } from '@/lib/auth/throttle';
import { say } from '@/lib/i18n';
import { authMessages } from '@/lib/i18n/messages/auth';

export const MAX_FAILED_ATTEMPTS = 5;
export const LOCK_MINUTES = 2;

/** Why an attempt failed, for the audit log only: the visitor sees `SignInOutcome`. */
export type Refusal = 'unknown' | 'invalid' | 'locked' | 'disabled';

export type CredentialsResult =
  | { ok: true; user: User }
  /** `lockedNow`: this attempt took the last ticket, and the lock it set stands. */
  | { ok: false; reason: Refusal; userId?: string; lockedNow?: boolean };

const LOCK = { maxAttempts: MAX_FAILED_ATTEMPTS, lockMinutes: LOCK_MINUTES };

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
    return { ok: false, reason: 'unknown' };
  }
  const ticket = await takeSignInTicket({ db, id: user.id, now, ...LOCK });
  if (ticket === undefined || ticket > MAX_FAILED_ATTEMPTS) {
    await verifyAgainstDummy(password);
    return { ok: false, reason: 'locked', userId: user.id };
  }
  const lockedNow = ticket === MAX_FAILED_ATTEMPTS;
  if (!(await verifyPassword(password, user.passwordHash))) {
    await recordSignInFailure({ db, id: user.id, now });
    return { ok: false, reason: 'invalid', userId: user.id, lockedNow };
  }
  // Only someone who knows the password learns that the account is disabled.
  if (user.disabled) return { ok: false, reason: 'disabled', userId: user.id, lockedNow };
  return { ok: true, user: (await recordSignInSuccess({ db, id: user.id, now, maxAttempts: MAX_FAILED_ATTEMPTS })) ?? user };
}

/** What the visitor is told: never whether the email exists or the account is locked. */
export type SignInOutcome = { ok: true; user: User } | { ok: false; code: 'invalid' | 'disabled' | 'throttled' };

/** The longest email the audit log keeps of a failed attempt, as typed. */
const EMAIL_MAX = 320;

/** One password sign-in from `address` (see lib/auth/throttle.ts): throttle, lock, password, audit. */
export async function attemptSignIn({
  db,
  email,
  password,
  address,
  demoAllowed,
  attemptsPerMinute,
  now = new Date(),
}: {
  db: Db;
  email: string;
  password: string;
  address: string | null;
  demoAllowed: boolean;
  attemptsPerMinute: number;
  now?: Date;
}): Promise<SignInOutcome> {
  const typed = email.slice(0, EMAIL_MAX);
  const throttle = await takeSignInAttempt({ db, address, limit: attemptsPerMinute, now });
  if (!throttle.allowed) {
    // Once per address and minute: a flood must not become a flood of audit entries.
    if (throttle.firstRefusal) {
      await db.transaction((tx) =>
        appendAudit({ tx, actorId: null, action: 'auth.throttled', entityType: 'user', detail: { address, email: typed, limit: attemptsPerMinute } }),
      );
    }
    return { ok: false, code: 'throttled' };
  }
  const result = await verifyCredentials({ db, email, password, demoAllowed, now });
  if (result.ok) return result;
  await db.transaction(async (tx) => {
    const entry = { tx, actorId: null, entityType: 'user', entityId: result.userId ?? null } as const;
    await appendAudit({ ...entry, action: 'auth.sign_in_failed', detail: { email: typed, reason: result.reason, address } });
    if (result.lockedNow) {
      await appendAudit({ ...entry, action: 'auth.locked', detail: { email: typed, minutes: LOCK_MINUTES, address } });
    }
  });
  return { ok: false, code: result.reason === 'disabled' ? 'disabled' : 'invalid' };
}

/**
 * A single sign-on that the bank's provider confirmed but this app refused: no account for the
 * email, or a disabled one. Recorded as a failed sign-in like a password attempt's, with the
 * provider named.
 */
export async function auditSsoRefusal({ db, email, userId, reason, provider }: { db: Db; email: string | null; userId: string | null; reason: 'unknown' | 'disabled'; provider: string }) {
  await db.transaction((tx) =>
    appendAudit({ tx, actorId: null, action: 'auth.sign_in_failed', entityType: 'user', entityId: userId, detail: { email: (email ?? '').slice(0, EMAIL_MAX), reason, provider } }),
  );
}

/** The outcomes as phrases: the sign-in form shows them in the reader's language, logs in English. */
export const SIGN_IN_MESSAGES = {
  invalid: say(authMessages, 'invalid', { max: MAX_FAILED_ATTEMPTS, minutes: LOCK_MINUTES }),
  disabled: say(authMessages, 'disabled'),
  throttled: say(authMessages, 'throttled'),
} as const;
