import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_MINUTES, MAX_FAILED_ATTEMPTS, verifyCredentials } from '@/lib/auth/credentials';
import { hashPassword } from '@/lib/auth/password';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { insertUser } from '@/lib/db/queries/users';
import { users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';

const PASSWORD = 'the-right-password';

describe.each(testBackends())('verifyCredentials on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let hash: string;
  let n = 0;

  async function makeUser(overrides: { disabled?: boolean; demo?: boolean } = {}) {
    const email = `user${++n}@example.org`;
    const user = await insertUser({ db, email, name: 'User', role: 'rm', passwordHash: hash, demo: overrides.demo });
    if (overrides.disabled) await db.update(users).set({ disabled: true }).where(eq(users.id, user!.id));
    return email;
  }

  const attempt = (email: string, password: string, extra: { now?: Date; demoAllowed?: boolean } = {}) =>
    verifyCredentials({ db, email, password, demoAllowed: extra.demoAllowed ?? true, now: extra.now });

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    hash = await hashPassword(PASSWORD);
  });
  afterAll(() => handle?.close());

  it('accepts the right password, case-insensitively on the email, and records the sign-in', async () => {
    const email = await makeUser();
    const result = await attempt(email.toUpperCase(), PASSWORD);
    expect(result.ok).toBe(true);
    const [row] = await db.select().from(users).where(eq(users.email, email));
    expect(row.lastLoginAt).toBeInstanceOf(Date);
  });

  it('rejects a wrong password and an unknown email with the same reason', async () => {
    const email = await makeUser();
    expect(await attempt(email, 'wrong')).toEqual({ ok: false, reason: 'invalid' });
    expect(await attempt('nobody@example.org', PASSWORD)).toEqual({ ok: false, reason: 'invalid' });
  });

  it(`locks after ${MAX_FAILED_ATTEMPTS} wrong passwords, refuses the right one while locked, and lets it in after ${LOCK_MINUTES} minutes`, async () => {
    const email = await makeUser();
    for (let i = 1; i < MAX_FAILED_ATTEMPTS; i++) expect(await attempt(email, `wrong-${i}`)).toEqual({ ok: false, reason: 'invalid' });
    const locked = await attempt(email, 'wrong-last');
    expect(locked).toMatchObject({ ok: false, reason: 'locked' });
    expect(locked.ok === false && locked.reason === 'locked' && locked.retryAfterSeconds).toBeGreaterThan(LOCK_MINUTES * 60 - 10);
    expect(await attempt(email, PASSWORD)).toMatchObject({ ok: false, reason: 'locked' });

    const later = new Date(Date.now() + (LOCK_MINUTES * 60 + 5) * 1000);
    expect((await attempt(email, PASSWORD, { now: later })).ok).toBe(true);
    const [row] = await db.select().from(users).where(eq(users.email, email));
    expect(row.failedLoginCount).toBe(0);
  });

  it('counts parallel guesses atomically: a burst cannot get past the limit', async () => {
    const email = await makeUser();
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => attempt(email, `burst-${i}`)));
    expect(results.some((r) => !r.ok && r.reason === 'locked')).toBe(true);
    expect(await attempt(email, PASSWORD)).toMatchObject({ ok: false, reason: 'locked' });
  });

  it('says an account is disabled only to someone who knows its password', async () => {
    const email = await makeUser({ disabled: true });
    expect(await attempt(email, 'wrong')).toEqual({ ok: false, reason: 'invalid' });
    expect(await attempt(email, PASSWORD)).toEqual({ ok: false, reason: 'disabled' });
  });

  it('treats a demo account as unknown when demo mode is off', async () => {
    const email = await makeUser({ demo: true });
    expect(await attempt(email, PASSWORD, { demoAllowed: false })).toEqual({ ok: false, reason: 'invalid' });
    expect((await attempt(email, PASSWORD, { demoAllowed: true })).ok).toBe(true);
  });
});
