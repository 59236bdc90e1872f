// The sign-in defences' bookkeeping (the rules are in lib/auth/credentials.ts and
// lib/auth/throttle.ts), all in `sign_in_attempts` rows of (key, window start, count): the
// per-address attempt windows, the per-account-and-client and new-address budgets with their
// failures, and the addresses an account has signed in from. Each count is one statement, so
// parallel attempts on any number of app instances each get their own number and none slips past
// a limit. The `users` row only mirrors the outcome (failed count, locked until) for the Users page.
import 'server-only';
import { and, eq, gte, like, lt, notLike, or, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { signInAttempts, users } from '@/lib/db/schema';

/**
 * A bounded count under one key and window: the places taken by attempts in flight and by the
 * failures among them. Failures are also counted alone, under the key with `|failed`.
 */
export type SignInBudget = { key: string; windowStart: Date; max: number };

const failedKey = (key: string) => `${key}|failed`;
const row = (key: string, windowStart: Date) => and(eq(signInAttempts.key, key), eq(signInAttempts.windowStart, windowStart));

/** Takes one place if fewer than `max` are taken, in one upsert; whether it got one. */
export async function takeBudgetPlace({ db, budget }: { db: Executor; budget: SignInBudget }) {
  const taken = await db
    .insert(signInAttempts)
    .values({ key: budget.key, windowStart: budget.windowStart, attempts: 1 })
    .onConflictDoUpdate({
      target: [signInAttempts.key, signInAttempts.windowStart],
      set: { attempts: sql`${signInAttempts.attempts} + 1` },
      setWhere: sql`${signInAttempts.attempts} < ${budget.max}`,
    })
    .returning({ attempts: signInAttempts.attempts });
  return taken.length > 0;
}

/** Gives a place back (an attempt that was not compared, or a right password). */
export async function returnBudgetPlace({ db, budget, forgive = false }: { db: Executor; budget: SignInBudget; forgive?: boolean }) {
  // `forgive`: a right password also frees the places this key's failures held.
  const forgiven = forgive
    ? ((
        await db
          .delete(signInAttempts)
          .where(row(failedKey(budget.key), budget.windowStart))
          .returning({ attempts: signInAttempts.attempts })
      )[0]?.attempts ?? 0)
    : 0;
  await db
    .update(signInAttempts)
    .set({ attempts: sql`greatest(${signInAttempts.attempts} - ${1 + forgiven}, 0)` })
    .where(row(budget.key, budget.windowStart));
}

/** A wrong password: its place stays taken, and the failures go up by one. Returns the failures. */
export async function recordBudgetFailure({ db, budget }: { db: Executor; budget: SignInBudget }) {
  return (await countSignInAttempt({ db, key: failedKey(budget.key), windowStart: budget.windowStart })) ?? budget.max;
}

/** The failures counted in the budget's window. */
export async function budgetFailures({ db, budget }: { db: Executor; budget: SignInBudget }) {
  const [found] = await db
    .select({ attempts: signInAttempts.attempts })
    .from(signInAttempts)
    .where(row(failedKey(budget.key), budget.windowStart));
  return found?.attempts ?? 0;
}

/** Whether `key` (an account and client) has a row in a window starting at or after `since`. */
export async function hasSignInRecord({ db, key, since }: { db: Executor; key: string; since: Date }) {
  const [found] = await db
    .select({ key: signInAttempts.key })
    .from(signInAttempts)
    .where(and(eq(signInAttempts.key, key), gte(signInAttempts.windowStart, since)))
    .limit(1);
  return Boolean(found);
}

/** Deletes the budgets of the keys that start with one of `prefixes` (an admin's unlock). */
export async function deleteSignInBudgets({ db, prefixes }: { db: Executor; prefixes: string[] }) {
  const escaped = prefixes.map((p) => `${p.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  await db.delete(signInAttempts).where(or(...escaped.map((p) => like(signInAttempts.key, p))));
}

/** A wrong password on an existing account: counted, and when it set a lock, until when. */
export async function recordSignInFailure({ db, id, now, lockedUntil }: { db: Executor; id: string; now: Date; lockedUntil?: Date }) {
  const until = lockedUntil ? sql`${lockedUntil.toISOString()}::timestamptz` : null;
  await db
    .update(users)
    .set({
      failedLoginCount: sql`${users.failedLoginCount} + 1`,
      lastFailedLoginAt: now,
      ...(until ? { lockedUntil: sql`greatest(coalesce(${users.lockedUntil}, ${until}), ${until})` } : {}),
    })
    .where(eq(users.id, id));
}

/** A right password: the failed count starts again; a lock another client set stays shown until it ends. */
export async function recordSignInSuccess({ db, id, now }: { db: Executor; id: string; now: Date }) {
  const at = sql`${now.toISOString()}::timestamptz`;
  const [updated] = await db
    .update(users)
    .set({
      failedLoginCount: 0,
      lockedUntil: sql`case when ${users.lockedUntil} > ${at} then ${users.lockedUntil} else null end`,
      lastLoginAt: now,
    })
    .where(eq(users.id, id))
    .returning();
  return updated;
}

/** Deletes the windows that started before `before`, and the records of `keep` keys (a prefix) before `keepBefore`. */
export async function pruneSignInAttempts({ db, before, keep, keepBefore }: { db: Executor; before: Date; keep: string; keepBefore: Date }) {
  const kept = `${keep}%`;
  await db
    .delete(signInAttempts)
    .where(
      or(
        and(lt(signInAttempts.windowStart, before), notLike(signInAttempts.key, kept)),
        and(lt(signInAttempts.windowStart, keepBefore), like(signInAttempts.key, kept)),
      ),
    );
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
