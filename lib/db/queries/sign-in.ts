// The sign-in defences' bookkeeping (the rules are in lib/auth/credentials.ts and
// lib/auth/throttle.ts): the per-account tickets and lock on `users`, and the per-address
// attempt windows in `sign_in_attempts`. Each count is one statement, so parallel attempts on
// any number of app instances each get their own number and none slips past a limit.
import 'server-only';
import { eq, lt, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { signInAttempts, users } from '@/lib/db/schema';

/** The lock's size: tickets compared before it sets in, and how long it then lasts. */
export type LockRule = { maxAttempts: number; lockMinutes: number };

const at = (now: Date) => sql`${now.toISOString()}::timestamptz`;

/**
 * Takes a ticket on the account: the failed-attempt count goes up by one, and the ticket that
 * reaches `maxAttempts` also locks the account for `lockMinutes`. Returns the ticket's number, or
 * undefined if there is no such row.
 */
export async function takeSignInTicket({ db, id, now, maxAttempts, lockMinutes }: LockRule & { db: Executor; id: string; now: Date }) {
  const lockActive = sql`(${users.lockedUntil} is not null and ${users.lockedUntil} > ${at(now)})`;
  const lockOver = sql`(${users.lockedUntil} is not null and ${users.lockedUntil} <= ${at(now)})`;
  const counted = sql`(case when ${lockOver} then 0 else ${users.failedLoginCount} end) + 1`;
  const [row] = await db
    .update(users)
    .set({
      // While locked the count only grows, and never from below the limit (a lock written by an
      // older version kept a count of 0), so every ticket taken during a lock is refused.
      failedLoginCount: sql`case when ${lockActive} then greatest(${users.failedLoginCount}, ${maxAttempts}) + 1 else ${counted} end`,
      lockedUntil: sql`case when ${lockActive} then ${users.lockedUntil}
        when ${counted} >= ${maxAttempts} then ${at(now)} + make_interval(mins => ${lockMinutes}) else null end`,
    })
    .where(eq(users.id, id))
    .returning({ ticket: users.failedLoginCount });
  return row?.ticket;
}

/** A right password: the count starts again, unless attempts were refused during a lock since. Returns the updated user. */
export async function recordSignInSuccess({ db, id, now, maxAttempts }: Pick<LockRule, 'maxAttempts'> & { db: Executor; id: string; now: Date }) {
  const lockStands = sql`(${users.lockedUntil} is not null and ${users.lockedUntil} > ${at(now)} and ${users.failedLoginCount} > ${maxAttempts})`;
  const [row] = await db
    .update(users)
    .set({
      failedLoginCount: sql`case when ${lockStands} then ${users.failedLoginCount} else 0 end`,
      lockedUntil: sql`case when ${lockStands} then ${users.lockedUntil} else null end`,
      lastLoginAt: now,
    })
    .where(eq(users.id, id))
    .returning();
  return row;
}

/** A wrong password: when it happened (the count went up with the ticket already). */
export async function recordSignInFailure({ db, id, now }: { db: Executor; id: string; now: Date }) {
  await db.update(users).set({ lastFailedLoginAt: now }).where(eq(users.id, id));
}

/** Deletes the attempt windows that started before `before`. */
export async function pruneSignInAttempts({ db, before }: { db: Executor; before: Date }) {
  await db.delete(signInAttempts).where(lt(signInAttempts.windowStart, before));
}

/**
 * Counts one attempt under `key` in the window starting at `windowStart`, in one upsert: returns
 * the attempts of that window, this one included (undefined only if the row did not come back).
 */
export async function countSignInAttempt({ db, key, windowStart }: { db: Executor; key: string; windowStart: Date }) {
  const [row] = await db
    .insert(signInAttempts)
    .values({ key, windowStart, attempts: 1 })
    .onConflictDoUpdate({ target: [signInAttempts.key, signInAttempts.windowStart], set: { attempts: sql`${signInAttempts.attempts} + 1` } })
    .returning({ attempts: signInAttempts.attempts });
  return row?.attempts;
}
