import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeRole, resetPassword, setDisabled } from '@/lib/auth/accounts';
import { checkSession, createSession, endSession, pruneSessions, revokeUserSessions, SESSION_HOURS } from '@/lib/auth/sessions';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { insertUser } from '@/lib/db/queries/users';
import { auditLog, userSessions } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';

describe.each(testBackends())('revocable sessions on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let adminId: string;
  let n = 0;

  const makeUser = async (role: 'rm' | 'admin' = 'rm') =>
    (await insertUser({ db, email: `session-user${++n}@example.org`, name: 'User', role, passwordHash: null }))!.id;
  const open = (userId: string, now?: Date) => createSession({ db, userId, provider: 'credentials', ip: '203.0.113.4', userAgent: 'test-browser', now });
  /** What every request asks (lib/auth/auth.ts): is this cookie's session still live? */
  const live = (sid: string, userId: string, now?: Date) => checkSession({ db, sid, userId, now });

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    adminId = await makeUser('admin');
  });
  afterAll(() => handle?.close());

  it('a copied cookie stops working after sign-out: the old sid is refused', async () => {
    const userId = await makeUser();
    const sid = await open(userId);
    const otherDevice = await open(userId);
    expect(await live(sid, userId)).toBe(true);

    expect(await endSession({ db, sid, userId })).toBe(true);
    expect(await live(sid, userId)).toBe(false);
    // Signing out of one browser leaves the others signed in.
    expect(await live(otherDevice, userId)).toBe(true);
    // A second sign-out of the same cookie finds nothing and records nothing more.
    expect(await endSession({ db, sid, userId })).toBe(false);
    const entries = await db.select().from(auditLog).where(eq(auditLog.entityId, userId)).orderBy(auditLog.seq);
    expect(entries.map((e) => e.action)).toEqual(['auth.sign_in', 'auth.sign_in', 'auth.sign_out']);
    expect(entries[0].detail).toEqual({ provider: 'credentials', session: sid.slice(0, 8), address: '203.0.113.4' });
  });

  it('signing out everywhere ends every session of the user and no one else’s', async () => {
    const userId = await makeUser();
    const other = await makeUser();
    const sids = [await open(userId), await open(userId)];
    const theirs = await open(other);
    expect(await db.transaction((tx) => revokeUserSessions({ tx, userId, actorId: userId, reason: 'sign_out_everywhere' }))).toBe(2);
    for (const sid of sids) expect(await live(sid, userId)).toBe(false);
    expect(await live(theirs, other)).toBe(true);
  });

  it('an admin password reset ends every session of the user', async () => {
    const userId = await makeUser();
    const sids = [await open(userId), await open(userId)];
    await resetPassword({ db, actorId: adminId, id: userId, password: 'a-brand-new-password' });
    for (const sid of sids) expect(await live(sid, userId)).toBe(false);
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.sessions_revoked'), eq(auditLog.entityId, userId)));
    expect(entry).toMatchObject({ actorId: adminId, detail: { reason: 'password_reset', sessions: 2 } });
  });

  it('a role change ends every session of the user', async () => {
    const userId = await makeUser();
    const sid = await open(userId);
    await changeRole({ db, actorId: adminId, id: userId, role: 'committee' });
    expect(await live(sid, userId)).toBe(false);
  });

  it('disabling an account ends every session of the user; enabling it opens none', async () => {
    const userId = await makeUser();
    const sid = await open(userId);
    await setDisabled({ db, actorId: adminId, id: userId, disabled: true });
    expect(await live(sid, userId)).toBe(false);
    await setDisabled({ db, actorId: adminId, id: userId, disabled: false });
    expect(await live(sid, userId)).toBe(false);
  });

  it('refuses a token without a sid, a malformed sid, another user’s sid and an expired session', async () => {
    const userId = await makeUser();
    const other = await makeUser();
    const sid = await open(userId);
    expect(await checkSession({ db, sid: undefined, userId })).toBe(false);
    expect(await live('not-a-uuid', userId)).toBe(false);
    expect(await live(sid, other)).toBe(false);
    const expiry = new Date(Date.now() + SESSION_HOURS * 3_600_000 + 1_000);
    expect(await live(sid, userId, expiry)).toBe(false);
  });

  it('use keeps a session alive, writing at most once a minute', async () => {
    const userId = await makeUser();
    const start = new Date('2030-03-01T08:00:00Z');
    const sid = await open(userId, start);
    const row = async () => (await db.select().from(userSessions).where(eq(userSessions.id, sid)))[0];

    expect(await live(sid, userId, new Date(start.getTime() + 30_000))).toBe(true);
    expect((await row()).lastSeenAt).toEqual(start);
    const laterInDay = new Date(start.getTime() + 7 * 3_600_000);
    expect(await live(sid, userId, laterInDay)).toBe(true);
    expect(await row()).toMatchObject({ lastSeenAt: laterInDay, expiresAt: new Date(laterInDay.getTime() + SESSION_HOURS * 3_600_000) });
    // Past the first expiry, but used since: still live.
    expect(await live(sid, userId, new Date(start.getTime() + 9 * 3_600_000))).toBe(true);
  });

  it('prunes expired sessions and keeps live ones', async () => {
    const userId = await makeUser();
    const stale = await open(userId, new Date('2020-01-01T00:00:00Z'));
    const current = await open(userId);
    expect(await pruneSessions({ db })).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(userSessions).where(eq(userSessions.id, stale))).toEqual([]);
    expect(await live(current, userId)).toBe(true);
  });
});
