// The demo step of start-up (lib/startup.ts) on PostgreSQL: with DEMO=1 the sign-ins it prints
// exist once the app has started, without `npm run db:seed`; existing accounts are left as they
// are, and without DEMO nothing is created or printed.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '@/lib/auth/password';
import { DEMO_ACCOUNTS } from '@/lib/demo/accounts';
import type { DatabaseHandle } from '@/lib/db/client';
import { companies, users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { env, type Env } from '@/lib/env';
import { demoSignIns } from '@/lib/startup';

if (testBackends().includes('postgres')) {
  describe('demo sign-ins at start on PostgreSQL', () => {
    let handle: DatabaseHandle;
    const onPostgres = (demo: boolean): Env => ({
      ...env(),
      DATABASE_URL: 'postgres://crosscheck@db.example:5432/crosscheck',
      DEMO: demo,
      DEMO_PASSWORD: 'demo-password-1',
    });

    beforeAll(async () => {
      handle = await createTestDatabase('postgres');
    });
    afterAll(() => handle?.close());

    it('with DEMO=1 the demo accounts it prints exist after start, and a second start changes none of them', async () => {
      const { db } = handle;
      expect(await db.$count(users)).toBe(0);
      const lines = await demoSignIns(handle, onPostgres(true));

      const created = await db.select().from(users);
      expect(created.map((u) => [u.email, u.role, u.demo]).sort()).toEqual(DEMO_ACCOUNTS.map((a) => [a.email, a.role, true]).sort());
      for (const u of created) expect(await verifyPassword('demo-password-1', u.passwordHash!)).toBe(true);
      expect(lines[0]).toBe('Created 4 demo accounts (DEMO=1).');
      for (const a of DEMO_ACCOUNTS) expect(lines.some((l) => l.includes(a.email))).toBe(true);
      // Accounts only: the pool is not loaded behind the operator's back, and the line says how.
      expect(await db.$count(companies)).toBe(0);
      expect(lines.at(-1)).toContain('npm run db:seed');

      // An admin changed the demo RM's password: the next start keeps it and creates nothing.
      const [rm] = created.filter((u) => u.email === DEMO_ACCOUNTS[0].email);
      await db.update(users).set({ passwordHash: 'changed' }).where(eq(users.id, rm.id));
      await db.insert(companies).values({ id: 'acme', name: 'Acme', country: 'KR' });
      const again = await demoSignIns(handle, onPostgres(true));
      expect(again.some((l) => l.startsWith('Created'))).toBe(false);
      expect(again.some((l) => l.includes('npm run db:seed'))).toBe(false);
      expect(await db.$count(users)).toBe(4);
      expect((await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, rm.id)))[0].hash).toBe('changed');
    });

    it('without DEMO it creates and prints no demo sign-ins', async () => {
      const { db } = handle;
      await db.delete(users);
      expect(await demoSignIns(handle, onPostgres(false))).toEqual([]);
      expect(await db.$count(users)).toBe(0);
    });
  });
}
