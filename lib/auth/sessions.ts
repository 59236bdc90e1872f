// Revocable sessions. The session cookie is a signed JWT, which on its own stays valid until it
// expires; so each sign-in also writes a `user_sessions` row whose id travels in the token
// (`sid`), and every request checks the row (lib/auth/auth.ts, the `jwt` callback that
// getSessionUser in lib/auth/session.ts goes through). Deleting the row ends the session at once,
// however many copies of the cookie exist: on sign-out (this browser), on "sign out everywhere",
// and when an admin resets the password, changes the role or disables the account.
import type { Db, Executor, Tx } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { deleteExpiredSessions, deleteSession, deleteUserSessions, getSession, insertSession, touchSession } from '@/lib/db/queries/sessions';

/** Idle lifetime, the same as the cookie's: each request (at most once a minute) extends it. */
export const SESSION_HOURS = 8;
const SESSION_MS = SESSION_HOURS * 60 * 60_000;
/** lastSeenAt and the expiry move at most this often, so reading a session rarely writes. */
const TOUCH_MS = 60_000;
/** Expired rows are deleted at most this often per process, on a sign-in. */
const PRUNE_MS = 60 * 60_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

let lastPrune = 0;

/** Deletes expired sessions; they are refused anyway, this only keeps the table small. */
export async function pruneSessions({ db, now = new Date() }: { db: Executor; now?: Date }) {
  return deleteExpiredSessions({ db, now });
}

/** A new session for a user who has just signed in, recorded as `auth.sign_in`; returns its id. */
export async function createSession({
  db,
  userId,
  provider,
  ip,
  userAgent,
  now = new Date(),
}: {
  db: Db;
  userId: string;
  provider: string;
  ip: string | null;
  userAgent: string | null;
  now?: Date;
}): Promise<string> {
  if (now.getTime() - lastPrune > PRUNE_MS) {
    lastPrune = now.getTime();
    await pruneSessions({ db, now });
  }
  return db.transaction(async (tx) => {
    const id = await insertSession({
      db: tx,
      userId,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + SESSION_MS),
      ip,
      userAgent: userAgent?.slice(0, 500) ?? null,
    });
    await appendAudit({
      tx,
      actorId: userId,
      action: 'auth.sign_in',
      entityType: 'user',
      entityId: userId,
      // The id's first block only: enough to match a sign-out, no use to anyone holding the log.
      detail: { provider, session: id.slice(0, 8), address: ip },
    });
    return id;
  });
}

/**
 * Whether the session `sid` is live and belongs to `userId`. A token without a sid (issued before
 * sessions were revocable), a deleted row, another user's row or an expired one all answer false.
 */
export async function checkSession({ db, sid, userId, now = new Date() }: { db: Executor; sid: unknown; userId: unknown; now?: Date }) {
  if (typeof sid !== 'string' || typeof userId !== 'string' || !UUID.test(sid)) return false;
  const row = await getSession({ db, id: sid });
  if (!row || row.userId !== userId || row.expiresAt <= now) return false;
  if (now.getTime() - row.lastSeenAt.getTime() >= TOUCH_MS) {
    await touchSession({ db, id: sid, lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_MS) });
  }
  return true;
}

/** Sign-out of one browser: deletes its row and records `auth.sign_out` (once, if it was live). */
export async function endSession({ db, sid, userId }: { db: Db; sid: unknown; userId: unknown }) {
  if (typeof sid !== 'string' || typeof userId !== 'string' || !UUID.test(sid)) return false;
  return db.transaction(async (tx) => {
    if (!(await deleteSession({ db: tx, id: sid, userId }))) return false;
    await appendAudit({ tx, actorId: userId, action: 'auth.sign_out', entityType: 'user', entityId: userId, detail: { session: sid.slice(0, 8) } });
    return true;
  });
}

export type RevokeReason = 'sign_out_everywhere' | 'password_reset' | 'role_change' | 'disabled';

/**
 * Ends every session of a user, inside the caller's transaction (the change that calls for it),
 * and records `auth.sessions_revoked` when there were any. Returns how many ended.
 */
export async function revokeUserSessions({ tx, userId, actorId, reason }: { tx: Tx; userId: string; actorId: string | null; reason: RevokeReason }) {
  const sessions = await deleteUserSessions({ db: tx, userId });
  if (sessions > 0) {
    await appendAudit({ tx, actorId, action: 'auth.sessions_revoked', entityType: 'user', entityId: userId, detail: { reason, sessions } });
  }
  return sessions;
}
