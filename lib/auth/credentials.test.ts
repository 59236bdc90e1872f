import { randomBytes, scryptSync } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unlockAccount } from '@/lib/auth/accounts';
import { sayText } from '@/lib/i18n';
import {
  attemptSignIn,
  auditSsoRefusal,
  LOCK_MINUTES,
  MAX_FAILED_ATTEMPTS,
  NEW_ADDRESS_FAILURES,
  NEW_ADDRESS_WINDOW_MINUTES,
  SIGN_IN_MESSAGES,
  verifyCredentials,
} from '@/lib/auth/credentials';
import { hashPassword } from '@/lib/auth/password';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { insertUser } from '@/lib/db/queries/users';
import { auditLog, users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';

const PASSWORD = 'the-right-password';

describe.each(testBackends())('password sign-in on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let hash: string;
  /**
   * The same password under scrypt with N = 2^10 instead of 2^15 (the hash names its parameters):
   * for tests of many right passwords at once, which count places and outcomes, not hashing time.
   */
  let quickHash: string;
  let adminId: string;
  let n = 0;

  async function makeUser(overrides: { disabled?: boolean; demo?: boolean; quickHash?: boolean } = {}) {
    const email = `user${++n}@example.org`;
    const passwordHash = overrides.quickHash ? quickHash : hash;
    const user = await insertUser({ db, email, name: 'User', role: 'rm', passwordHash, demo: overrides.demo });
    if (overrides.disabled) await db.update(users).set({ disabled: true }).where(eq(users.id, user!.id));
    return email;
  }

  // A fixed time, early in a lock window, unless a test says otherwise: a lock's window must not
  // end in the middle of a test.
  const NOW = new Date('2031-01-01T09:00:05Z');

  const attempt = (email: string, password: string, extra: { now?: Date; demoAllowed?: boolean; address?: string } = {}) =>
    verifyCredentials({ db, email, password, demoAllowed: extra.demoAllowed ?? true, address: extra.address, now: extra.now ?? NOW });

  /** A sign-in as the visitor sees it, from its own address unless one is given. */
  const signIn = (email: string, password: string, extra: { address?: string; device?: string; limit?: number; now?: Date } = {}) =>
    attemptSignIn({
      db,
      email,
      password,
      address: extra.address ?? `198.51.100.${++n % 250}`,
      device: extra.device,
      demoAllowed: true,
      attemptsPerMinute: extra.limit ?? 1000,
      now: extra.now ?? NOW,
    });

  const userRow = async (email: string) => (await db.select().from(users).where(eq(users.email, email)))[0];
  const auditOf = (action: string) => db.select().from(auditLog).where(eq(auditLog.action, action));

  /** Locks `address` (none: the unknown address) out of the account. */
  async function lockOut(email: string, address?: string) {
    for (let i = 1; i <= MAX_FAILED_ATTEMPTS; i++) await attempt(email, `wrong-${i}`, { address });
  }

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    hash = await hashPassword(PASSWORD);
    const salt = randomBytes(16);
    quickHash = ['scrypt', 1024, 8, 1, salt.toString('base64url'), scryptSync(PASSWORD, salt, 64, { N: 1024, r: 8, p: 1 }).toString('base64url')].join('$');
    adminId = (await insertUser({ db, email: 'admin@example.org', name: 'Admin', role: 'admin', passwordHash: null }))!.id;
  });
  afterAll(() => handle?.close());

  it('accepts the right password, case-insensitively on the email, and records the sign-in', async () => {
    const email = await makeUser();
    const result = await attempt(email.toUpperCase(), PASSWORD);
    expect(result.ok).toBe(true);
    expect((await userRow(email)).lastLoginAt).toBeInstanceOf(Date);
  });

  it(`40 parallel attempts with the right password 36th get no session on an account locking after ${MAX_FAILED_ATTEMPTS}`, async () => {
    const email = await makeUser();
    const passwords = Array.from({ length: 40 }, (_, i) => (i === 35 ? PASSWORD : `burst-${i}`));
    const results = await Promise.all(passwords.map((p) => attempt(email, p)));
    expect(results.filter((r) => r.ok)).toEqual([]);
    expect(results[35]).toMatchObject({ ok: false, reason: 'locked' });
    // Exactly the first MAX tickets were compared with the password; the rest were refused unseen.
    expect(results.filter((r) => !r.ok && r.reason === 'invalid')).toHaveLength(MAX_FAILED_ATTEMPTS);
    expect(await attempt(email, PASSWORD)).toMatchObject({ ok: false, reason: 'locked' });
    // Forty scrypt hashes (the refused ones hash a dummy for even timing) on a shared machine.
  }, 120_000);

  it('a locked address is refused the right password and stays locked; the lock ends with its window', async () => {
    const email = await makeUser();
    await lockOut(email);
    // The Users page's mirror: locked until the window of LOCK_MINUTES that NOW falls in ends.
    const lockedUntil = (await userRow(email)).lockedUntil!;
    expect(lockedUntil).toEqual(new Date(NOW.getTime() - (NOW.getTime() % (LOCK_MINUTES * 60_000)) + LOCK_MINUTES * 60_000));

    expect(await attempt(email, PASSWORD)).toMatchObject({ ok: false, reason: 'locked' });
    expect(await attempt(email, PASSWORD)).toMatchObject({ ok: false, reason: 'locked' });
    const row = await userRow(email);
    expect(row.lockedUntil).toEqual(lockedUntil);
    // Refused attempts are not compared, and not counted as failures.
    expect(row.failedLoginCount).toBe(MAX_FAILED_ATTEMPTS);

    const later = new Date(lockedUntil.getTime() + 5_000);
    expect((await attempt(email, PASSWORD, { now: later })).ok).toBe(true);
    expect(await userRow(email)).toMatchObject({ failedLoginCount: 0, lockedUntil: null });
  });

  it('the right password after one fewer wrong ones than the limit signs in, and the count starts again', async () => {
    const email = await makeUser();
    for (let i = 1; i < MAX_FAILED_ATTEMPTS; i++) await attempt(email, `wrong-${i}`);
    expect((await attempt(email, PASSWORD)).ok).toBe(true);
    expect(await userRow(email)).toMatchObject({ failedLoginCount: 0, lockedUntil: null });
  });

  it('an unknown email, a wrong password and a locked account get the same answer', async () => {
    const wrong = await makeUser();
    const locked = await makeUser();
    await lockOut(locked, '192.0.2.50');
    const answers = [
      await signIn('nobody@example.org', PASSWORD),
      await signIn(wrong, 'not-it'),
      await signIn(locked, PASSWORD, { address: '192.0.2.50' }),
      await signIn(locked, 'not-it', { address: '192.0.2.50' }),
    ];
    for (const answer of answers) expect(answer).toEqual({ ok: false, code: 'invalid' });
    // One message covers all three, so it has to mention the lock.
    expect(sayText(SIGN_IN_MESSAGES.invalid)).toBe(
      `Wrong email or password, or the account is locked after ${MAX_FAILED_ATTEMPTS} failed attempts. Wait ${LOCK_MINUTES} minutes and try again, or ask an administrator to unlock it.`,
    );
    expect(sayText(SIGN_IN_MESSAGES.invalid, 'ko')).toBe(
      `이메일 또는 비밀번호가 올바르지 않거나, ${MAX_FAILED_ATTEMPTS}회 실패로 계정이 잠겼습니다. ${LOCK_MINUTES}분 후에 다시 시도하거나 관리자에게 잠금 해제를 요청하세요.`,
    );
  });

  it('an email with a NUL or half a surrogate pair is a wrong sign-in like any other, counted and audited, not a database error', async () => {
    const email = await makeUser();
    const address = '192.0.2.77';
    for (const typed of [`${email}\u0000`, `\ud800${email}`]) {
      expect(await signIn(typed, PASSWORD, { address })).toEqual({ ok: false, code: 'invalid' });
    }
    const failed = (await auditOf('auth.sign_in_failed')).filter((row) => (row.detail as { address?: string }).address === address);
    expect(failed.map((row) => (row.detail as { email: string; reason: string }).email)).toEqual([`${email}\ufffd`, `\ufffd${email}`]);
    expect(failed.map((row) => (row.detail as { reason: string }).reason)).toEqual(['unknown', 'unknown']);
    // The owner, typing the address right, is not held back by those.
    expect((await signIn(email, PASSWORD, { address })).ok).toBe(true);
  });

  it('says an account is disabled only to someone who knows its password', async () => {
    const email = await makeUser({ disabled: true });
    expect(await signIn(email, 'wrong')).toEqual({ ok: false, code: 'invalid' });
    expect(await signIn(email, PASSWORD)).toEqual({ ok: false, code: 'disabled' });
  });

  it('treats a demo account as unknown when demo mode is off', async () => {
    const email = await makeUser({ demo: true });
    expect(await attempt(email, PASSWORD, { demoAllowed: false })).toEqual({ ok: false, reason: 'unknown' });
    expect((await attempt(email, PASSWORD, { demoAllowed: true })).ok).toBe(true);
  });

  it('the throttle refuses the attempt after the limit in a minute from one address, not from another', async () => {
    const email = await makeUser();
    const now = new Date('2030-01-01T10:00:05Z');
    const from = (address: string, at = now) => signIn(email, PASSWORD, { address, limit: 3, now: at });
    for (let i = 0; i < 3; i++) expect((await from('203.0.113.7')).ok).toBe(true);
    expect(await from('203.0.113.7')).toEqual({ ok: false, code: 'throttled' });
    expect(await from('203.0.113.7')).toEqual({ ok: false, code: 'throttled' });
    expect((await from('203.0.113.8')).ok).toBe(true);
    expect((await from('203.0.113.7', new Date('2030-01-01T10:01:00Z'))).ok).toBe(true);
    // Recorded once per address and minute, however many are refused.
    const throttled = (await auditOf('auth.throttled')).filter((e) => e.detail.address === '203.0.113.7');
    expect(throttled.map((e) => e.detail)).toEqual([{ address: '203.0.113.7', email, limit: 3 }]);
  });

  it('parallel attempts from one address cannot slip past the throttle', async () => {
    const now = new Date('2030-01-02T10:00:00Z');
    const results = await Promise.all(Array.from({ length: 12 }, () => signIn('nobody@example.org', 'x', { address: '203.0.113.50', limit: 4, now })));
    expect(results.filter((r) => !r.ok && r.code === 'throttled')).toHaveLength(8);
  });

  it('wrong passwords from one address do not keep the owner out from another; the guessing address stays locked', async () => {
    const email = await makeUser();
    const now = new Date('2031-05-05T10:00:10Z');
    for (let i = 1; i <= MAX_FAILED_ATTEMPTS + 3; i++) await signIn(email, `wrong-${i}`, { address: '203.0.113.66', now });
    expect((await signIn(email, PASSWORD, { address: '198.51.100.200', now })).ok).toBe(true);
    expect(await signIn(email, PASSWORD, { address: '203.0.113.66', now })).toEqual({ ok: false, code: 'invalid' });
    // Only the first MAX wrong passwords from that address were compared; the rest were refused unseen.
    const failed = (await auditOf('auth.sign_in_failed')).filter((e) => e.detail.email === email);
    expect(failed.map((e) => e.detail.reason).sort()).toEqual([...Array(MAX_FAILED_ATTEMPTS).fill('invalid'), ...Array(4).fill('locked')]);
  }, 60_000);

  it('40 parallel sign-ins with the right password from one address all succeed and lock nothing', async () => {
    const email = await makeUser({ quickHash: true });
    const now = new Date('2031-05-05T11:00:10Z');
    const results = await Promise.all(Array.from({ length: 40 }, () => signIn(email, PASSWORD, { address: '203.0.113.77', now })));
    expect(results.filter((r) => r.ok)).toHaveLength(40);
    expect(await userRow(email)).toMatchObject({ failedLoginCount: 0, lockedUntil: null });
    expect((await signIn(email, PASSWORD, { address: '203.0.113.77', now })).ok).toBe(true);
  }, 120_000);

  it("a guesser spread over many addresses gets a bounded number of passwords compared; the owner's known address still signs in", async () => {
    const email = await makeUser();
    const now = new Date('2031-05-05T12:00:10Z');
    // The owner has signed in from this address before.
    expect((await signIn(email, PASSWORD, { address: '192.0.2.10', now })).ok).toBe(true);
    // Twelve addresses, two guesses each, all at once.
    const guesses = Array.from({ length: 24 }, (_, i) =>
      verifyCredentials({ db, email, password: `guess-${i}`, demoAllowed: true, address: `10.9.${i % 12}.1`, now }),
    );
    const results = await Promise.all(guesses);
    expect(results.filter((r) => !r.ok && r.reason === 'invalid')).toHaveLength(NEW_ADDRESS_FAILURES);
    expect(results.filter((r) => !r.ok && r.reason === 'locked')).toHaveLength(24 - NEW_ADDRESS_FAILURES);
    // The owner's known address is not kept out; an address new to the account waits for the window to end.
    expect((await signIn(email, PASSWORD, { address: '192.0.2.10', now })).ok).toBe(true);
    expect(await signIn(email, PASSWORD, { address: '192.0.2.99', now })).toEqual({ ok: false, code: 'invalid' });
    const later = new Date(now.getTime() + NEW_ADDRESS_WINDOW_MINUTES * 60_000);
    expect((await signIn(email, PASSWORD, { address: '192.0.2.99', now: later })).ok).toBe(true);
  }, 120_000);

  it('a browser that signed in to the account before passes a lock on its address and the new-address budget', async () => {
    const email = await makeUser();
    const now = new Date('2031-05-05T13:00:10Z');
    const device = 'b'.repeat(22);
    // The owner's browser signed in once, from home.
    expect((await signIn(email, PASSWORD, { address: '192.0.2.20', device, now })).ok).toBe(true);
    // A guesser in the owner's office (the same address) locks it, and others close the account to new addresses.
    for (let i = 1; i <= MAX_FAILED_ATTEMPTS; i++) await signIn(email, `wrong-${i}`, { address: '203.0.113.88', now });
    for (let i = 0; i < NEW_ADDRESS_FAILURES; i++) await attempt(email, `spread-${i}`, { address: `10.8.${i}.1`, now });
    expect(await signIn(email, PASSWORD, { address: '203.0.113.88', now })).toEqual({ ok: false, code: 'invalid' });
    expect(await signIn(email, PASSWORD, { address: '203.0.113.88', device: 'c'.repeat(22), now })).toEqual({ ok: false, code: 'invalid' });
    // The owner's browser from the office is not kept out.
    expect((await signIn(email, PASSWORD, { address: '203.0.113.88', device, now })).ok).toBe(true);
  }, 60_000);

  it('records failed sign-ins with the email as typed (bounded, no password) and the lockout', async () => {
    const email = await makeUser();
    const id = (await userRow(email)).id;
    const long = `${'x'.repeat(400)}@example.org`;
    await signIn(long, 'secret-guess-1', { address: '192.0.2.1' });
    for (let i = 1; i <= MAX_FAILED_ATTEMPTS; i++) await signIn(email, `secret-guess-${i}`, { address: '192.0.2.2' });

    const failed = await auditOf('auth.sign_in_failed');
    const unknown = failed.find((e) => e.detail.address === '192.0.2.1')!;
    expect(unknown).toMatchObject({ actorId: null, entityId: null, detail: { email: long.slice(0, 320), reason: 'unknown' } });
    const onAccount = failed.filter((e) => e.entityId === id);
    expect(onAccount.map((e) => e.detail.reason)).toEqual(Array(MAX_FAILED_ATTEMPTS).fill('invalid'));
    expect(JSON.stringify(failed)).not.toContain('secret-guess');
    const locked = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.locked'), eq(auditLog.entityId, id)));
    expect(locked.map((e) => e.detail)).toEqual([{ email, minutes: LOCK_MINUTES, address: '192.0.2.2' }]);
  });

  it('an admin unlock lets the right password in during the lock, and is audited', async () => {
    const email = await makeUser();
    await lockOut(email, '192.0.2.60');
    expect(await signIn(email, PASSWORD, { address: '192.0.2.60' })).toEqual({ ok: false, code: 'invalid' });
    const id = (await userRow(email)).id;
    await unlockAccount({ db, actorId: adminId, id });
    expect((await signIn(email, PASSWORD, { address: '192.0.2.60' })).ok).toBe(true);
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.unlock'), eq(auditLog.entityId, id)));
    expect(entry).toMatchObject({ actorId: adminId, detail: { failedAttempts: MAX_FAILED_ATTEMPTS } });
  });
  it('a single sign-on refused for an unknown or disabled account is recorded as a failed sign-in', async () => {
    const email = await makeUser({ disabled: true });
    const id = (await userRow(email)).id;
    await auditSsoRefusal({ db, email, userId: id, reason: 'disabled', provider: 'oidc' });
    await auditSsoRefusal({ db, email: `${'y'.repeat(400)}@bank.example`, userId: null, reason: 'unknown', provider: 'oidc' });
    const sso = (await auditOf('auth.sign_in_failed')).filter((e) => e.detail.provider === 'oidc').sort((a, b) => a.seq - b.seq);
    expect(sso.map((e) => [e.entityId, e.detail])).toEqual([
      [id, { email, reason: 'disabled', provider: 'oidc' }],
      [null, { email: `${'y'.repeat(400)}@bank.example`.slice(0, 320), reason: 'unknown', provider: 'oidc' }],
    ]);
  });
});
