// The rows of `user_sessions`, one per signed-in browser (the rules: lib/auth/sessions.ts).
import 'server-only';
import { and, eq, lt } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { userSessions } from '@/lib/db/schema';

/** Deletes the sessions that expired before `now`; returns how many. */
export async function deleteExpiredSessions({ db, now }: { db: Executor; now: Date }) {
  const gone = await db.delete(userSessions).where(lt(userSessions.expiresAt, now)).returning({ id: userSessions.id });
  return gone.length;
}

/** A new session row; returns its id. */
export async function insertSession({
  db,
  ...values
}: {
  db: Executor;
  userId: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  ip: string | null;
  userAgent: string | null;
}): Promise<string> {
  const [row] = await db.insert(userSessions).values(values).returning({ id: userSessions.id });
  return row.id;
}

/** Whose session `id` is and how long it lives, or undefined when there is no such row. */
export async function getSession({ db, id }: { db: Executor; id: string }) {
  const [row] = await db
    .select({ userId: userSessions.userId, lastSeenAt: userSessions.lastSeenAt, expiresAt: userSessions.expiresAt })
    .from(userSessions)
    .where(eq(userSessions.id, id))
    .limit(1);
  return row;
}

/** Moves a session's last-seen time and expiry. */
export async function touchSession({ db, id, lastSeenAt, expiresAt }: { db: Executor; id: string; lastSeenAt: Date; expiresAt: Date }) {
  await db.update(userSessions).set({ lastSeenAt, expiresAt }).where(eq(userSessions.id, id));
}

/** Deletes session `id` if it is `userId`'s; whether there was one. */
export async function deleteSession({ db, id, userId }: { db: Executor; id: string; userId: string }) {
  const gone = await db
    .delete(userSessions)
    .where(and(eq(userSessions.id, id), eq(userSessions.userId, userId)))
    .returning({ id: userSessions.id });
  return gone.length > 0;
}

/** Deletes every session of a user; returns how many. */
export async function deleteUserSessions({ db, userId }: { db: Executor; userId: string }) {
  const gone = await db.delete(userSessions).where(eq(userSessions.userId, userId)).returning({ id: userSessions.id });
  return gone.length;
}
