// Password sign-in, with four defences against guessing, none of which lets an anonymous client
// keep an account's owner out from elsewhere:
// 1. The per-address throttle (lib/auth/throttle.ts) comes first: a client gets
//    SIGN_IN_ATTEMPTS_PER_MINUTE attempts a minute, whichever accounts they name.
// 2. A lock per account and client (address): MAX_FAILED_ATTEMPTS wrong passwords from one
//    address refuse that address, and only it, on that account for the rest of a LOCK_MINUTES
//    window. Before any password is compared the attempt takes a place in the window's budget, in
//    one statement: places held by attempts in flight plus failures never pass the limit, however
//    many arrive at once. A wrong password keeps its place; a right one gives it back and forgives
//    the address's failures. An attempt that finds every place held by attempts still in flight
//    waits for them (so a burst of right passwords all sign in); one that finds them held by
//    failures is refused whatever the password, unseen.
// 3. A budget per account for addresses new to it: together they get NEW_ADDRESS_FAILURES wrong
//    passwords per NEW_ADDRESS_WINDOW_MINUTES, after which only addresses the account signed in
//    from in the last KNOWN_ADDRESS_DAYS are compared. A guesser spread over many addresses stays
//    that slow; the owner's usual addresses are not kept out, a new one waits for the window.
//    A browser that signed in to the account before (its random device id, in a cookie set by
//    lib/auth/auth.ts, recorded against the account) is a client of its own: neither a lock on
//    its address nor the new-address budget keeps it out, and it has its own lock. A device id
//    the account has not seen counts for nothing: the attempt is its address's.
// 4. One answer for an unknown email, a wrong password and a refused attempt, each after the same
//    scrypt work; unknown emails go through the same budgets (keyed by the email as typed), so
//    neither the message, the timing nor the waiting tells which emails exist. Only someone who
//    gave the right password learns that an account is disabled.
// The budgets live in `sign_in_attempts` (lib/db/queries/sign-in.ts); the `users` row mirrors a
// lock for the Users page, where an admin can lift it at once (lib/auth/accounts.ts). Every attempt
// is recorded in the audit log (the successful one when its session is created, lib/auth/sessions.ts).
import { EventEmitter } from 'node:events';
import type { Db, Executor } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import {
  budgetFailures,
  countSignInAttempt,
  deleteSignInBudgets,
  hasSignInRecord,
  recordBudgetFailure,
  recordSignInFailure,
  recordSignInSuccess,
  returnBudgetPlace,
  takeBudgetPlace,
  type SignInBudget,
} from '@/lib/db/queries/sign-in';
import type { User } from '@/lib/db/schema';
import { getUserByEmail, normalizeEmail } from '@/lib/db/queries/users';
import { verifyAgainstDummy, verifyPassword } from '@/lib/auth/password';
import { KNOWN_ADDRESS_DAYS, takeSignInAttempt } from '@/lib/auth/throttle';
import { storableText } from '@/lib/domain/typed-text';
import { say } from '@/lib/i18n';
import { authMessages } from '@/lib/i18n/messages/auth';

export const MAX_FAILED_ATTEMPTS = 5;
export const LOCK_MINUTES = 2;
export const NEW_ADDRESS_FAILURES = 10;
export const NEW_ADDRESS_WINDOW_MINUTES = 15;
/**
 * How long an attempt waits at most for places held by attempts in flight, and how often it looks
 * again when no attempt of this process says it is done (one of another instance may be).
 */
const WAIT_MS = 60_000;
const POLL_MS = 250;

/** Says a budget's key when an attempt of this process gave its place back or failed. */
const settled = new EventEmitter().setMaxListeners(0);
const settle = (budget: SignInBudget) => settled.emit(budget.key);

/** Resolves when an attempt on `key` settles here, or after `ms`. */
function nextSettled(key: string, ms: number) {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      settled.off(key, done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    settled.on(key, done);
  });
}

/** Why an attempt failed, for the audit log only: the visitor sees `SignInOutcome`. */
export type Refusal = 'unknown' | 'invalid' | 'locked' | 'disabled';

/** The longest email the audit log and the budgets' keys keep of an attempt, as typed. */
const EMAIL_MAX = 320;

export type CredentialsResult =
  | { ok: true; user: User }
  /** `lockedNow`: this attempt's failure locked its address out; `guardedNow`: it closed the account to new addresses. */
  | { ok: false; reason: Refusal; userId?: string; lockedNow?: boolean; guardedNow?: boolean };

const windowOf = (now: Date, minutes: number) => new Date(now.getTime() - (now.getTime() % (minutes * 60_000)));
const windowEnd = (budget: SignInBudget, minutes: number) => new Date(budget.windowStart.getTime() + minutes * 60_000);

/** The keys of an account's budgets (by its email, so that an admin can clear them). */
const lockKey = (account: string, client: string) => `lock:${account}|${client}`;
const guardKey = (account: string) => `guard:${account}`;
const knownKey = (account: string, client: string) => `known:${account}|${client}`;
/** The device ids lib/auth/auth.ts makes (16 random bytes, base64url); anything else is ignored. */
export const DEVICE_ID = /^[A-Za-z0-9_-]{22}$/;

/** Takes a place in each budget, or none: returns the first that was full, or undefined. */
async function takePlaces(db: Executor, budgets: SignInBudget[]) {
  for (let i = 0; i < budgets.length; i++) {
    if (await takeBudgetPlace({ db, budget: budgets[i] })) continue;
    for (const taken of budgets.slice(0, i)) {
      await returnBudgetPlace({ db, budget: taken });
      settle(taken);
    }
    return budgets[i];
  }
  return undefined;
}

/** Whether the attempt may compare its password: waits while places are held by attempts in flight. */
async function admit(db: Executor, budgets: SignInBudget[]) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const full = await takePlaces(db, budgets);
    if (!full) return true;
    if ((await budgetFailures({ db, budget: full })) >= full.max || Date.now() >= deadline) return false;
    await nextSettled(full.key, POLL_MS);
  }
}

export async function verifyCredentials({
  db,
  email,
  password,
  demoAllowed,
  address = null,
  device = null,
  now = new Date(),
}: {
  db: Executor;
  email: string;
  password: string;
  demoAllowed: boolean;
  /** The client's address (lib/auth/throttle.ts); null when unknown, which all such attempts share. */
  address?: string | null;
  /** The browser's device id, recorded against the account when the password is right. */
  device?: string | null;
  now?: Date;
}): Promise<CredentialsResult> {
  const user = await getUserByEmail({ db, email });
  // Demo accounts outside demo mode behave exactly like unknown emails.
  const usable = user && user.passwordHash && !(user.demo && !demoAllowed) ? user : undefined;
  const account = normalizeEmail(email).slice(0, EMAIL_MAX);
  const since = new Date(windowOf(now, 24 * 60).getTime() - KNOWN_ADDRESS_DAYS * 86_400_000);
  const byAddress = `ip:${address ?? 'unknown'}`;
  const byDevice = device && DEVICE_ID.test(device) ? `dev:${device}` : null;
  const deviceKnown = byDevice !== null && (await hasSignInRecord({ db, key: knownKey(account, byDevice), since }));
  const client = deviceKnown ? byDevice : byAddress;
  const lock: SignInBudget = { key: lockKey(account, client), windowStart: windowOf(now, LOCK_MINUTES), max: MAX_FAILED_ATTEMPTS };
  const guard: SignInBudget = { key: guardKey(account), windowStart: windowOf(now, NEW_ADDRESS_WINDOW_MINUTES), max: NEW_ADDRESS_FAILURES };
  const known = deviceKnown || (await hasSignInRecord({ db, key: knownKey(account, client), since }));
  const budgets = known ? [lock] : [lock, guard];

  if (!(await admit(db, budgets))) {
    await verifyAgainstDummy(password);
    return { ok: false, reason: usable ? 'locked' : 'unknown', userId: usable?.id };
  }
  const right = usable ? await verifyPassword(password, usable.passwordHash!) : await verifyAgainstDummy(password).then(() => false);
  if (!usable || !right) {
    const failures = await Promise.all(budgets.map((budget) => recordBudgetFailure({ db, budget })));
    budgets.forEach(settle);
    const lockedNow = failures[0] === MAX_FAILED_ATTEMPTS;
    const guardedNow = failures[1] === NEW_ADDRESS_FAILURES;
    if (!usable) return { ok: false, reason: 'unknown' };
    const lockedUntil = [lockedNow ? windowEnd(lock, LOCK_MINUTES) : null, guardedNow ? windowEnd(guard, NEW_ADDRESS_WINDOW_MINUTES) : null]
      .filter((d): d is Date => d !== null)
      .sort((a, b) => b.getTime() - a.getTime())[0];
    await recordSignInFailure({ db, id: usable.id, now, lockedUntil });
    return { ok: false, reason: 'invalid', userId: usable.id, lockedNow, guardedNow };
  }
  await returnBudgetPlace({ db, budget: lock, forgive: true });
  if (!known) await returnBudgetPlace({ db, budget: guard });
  budgets.forEach(settle);
  // Only someone who knows the password learns that the account is disabled.
  if (usable.disabled) return { ok: false, reason: 'disabled', userId: usable.id };
  for (const seen of [byAddress, byDevice]) if (seen) await countSignInAttempt({ db, key: knownKey(account, seen), windowStart: windowOf(now, 24 * 60) });
  return { ok: true, user: (await recordSignInSuccess({ db, id: usable.id, now })) ?? usable };
}

/** An admin's unlock: every address's lock on the account and its new-address budget are cleared. */
export async function clearSignInLocks({ db, email }: { db: Executor; email: string }) {
  const account = normalizeEmail(email).slice(0, EMAIL_MAX);
  await deleteSignInBudgets({ db, prefixes: [`${lockKey(account, '')}`, guardKey(account)] });
}

/** What the visitor is told: never whether the email exists or the account is locked. */
export type SignInOutcome = { ok: true; user: User } | { ok: false; code: 'invalid' | 'disabled' | 'throttled' };

/** One password sign-in from `address` (see lib/auth/throttle.ts): throttle, lock, password, audit. */
export async function attemptSignIn({
  db,
  email,
  password,
  address,
  device = null,
  demoAllowed,
  attemptsPerMinute,
  now = new Date(),
}: {
  db: Db;
  email: string;
  password: string;
  address: string | null;
  /** The browser's device id (lib/auth/auth.ts), if it has one. */
  device?: string | null;
  demoAllowed: boolean;
  attemptsPerMinute: number;
  now?: Date;
}): Promise<SignInOutcome> {
  // Typed into the form or posted straight to the callback: a NUL or half a surrogate pair cannot
  // reach a query or the audit entry, and such an email is simply one no account has.
  email = storableText(email);
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
  const result = await verifyCredentials({ db, email, password, demoAllowed, address, device, now });
  if (result.ok) return result;
  await db.transaction(async (tx) => {
    const entry = { tx, actorId: null, entityType: 'user', entityId: result.userId ?? null } as const;
    await appendAudit({ ...entry, action: 'auth.sign_in_failed', detail: { email: typed, reason: result.reason, address } });
    if (result.lockedNow) {
      await appendAudit({ ...entry, action: 'auth.locked', detail: { email: typed, minutes: LOCK_MINUTES, address } });
    }
    if (result.guardedNow) {
      await appendAudit({ ...entry, action: 'auth.locked', detail: { email: typed, minutes: NEW_ADDRESS_WINDOW_MINUTES, address, newAddresses: true } });
    }
  });
  return { ok: false, code: result.reason === 'disabled' ? 'disabled' : 'invalid' };
}

/**
 * A single sign-on that the bank's provider confirmed but this app refused: no account for the
 * email, or a disabled one. Recorded as a failed sign-in like a password attempt's, with the
 * provider named.
 */
export async function auditSsoRefusal({
  db,
  email,
  userId,
  reason,
  provider,
}: {
  db: Db;
  email: string | null;
  userId: string | null;
  reason: 'unknown' | 'disabled';
  provider: string;
}) {
  await db.transaction((tx) =>
    appendAudit({
      tx,
      actorId: null,
      action: 'auth.sign_in_failed',
      entityType: 'user',
      entityId: userId,
      detail: { email: (email ?? '').slice(0, EMAIL_MAX), reason, provider },
    }),
  );
}

/** The outcomes as phrases: the sign-in form shows them in the reader's language, logs in English. */
export const SIGN_IN_MESSAGES = {
  invalid: say(authMessages, 'invalid', { max: MAX_FAILED_ATTEMPTS, minutes: LOCK_MINUTES }),
  disabled: say(authMessages, 'disabled'),
  throttled: say(authMessages, 'throttled'),
} as const;
