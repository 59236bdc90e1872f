// The audit page's filters: read from the URL on the server (parseAuditFilters) and applied by
// the query (listAuditEntries), here on sign-in events as the sign-in writes them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { appendAudit, listAuditEntries, parseAuditFilters } from '@/lib/db/queries/audit';
import { insertUser } from '@/lib/db/queries/users';
import { auditLog } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';

const ADMIN = '8d4c2f7e-1b3a-4c5d-9e6f-0a1b2c3d4e5f';

describe('the audit filters in the URL', () => {
  it('keeps an action code, an actor id, an entity type and a real date range', () => {
    expect(parseAuditFilters({ action: 'auth.sign_in_failed', actor: ADMIN, entity: 'user', from: '2025-03-01', to: '2025-03-31' })).toEqual({
      action: 'auth.sign_in_failed',
      actorId: ADMIN,
      entityType: 'user',
      from: '2025-03-01',
      to: '2025-03-31',
    });
  });

  it('leaves out what the form could not have sent, and reads a backwards range the right way round', () => {
    expect(
      parseAuditFilters({ action: "auth.sign_in' or 1=1", actor: 'admin', entity: 'User Table', from: '2025-02-30', to: '2025-13-01', page: '2' }),
    ).toEqual({});
    expect(parseAuditFilters({ action: `a.${'b'.repeat(120)}` })).toEqual({});
    expect(parseAuditFilters({ from: '2025-03-31', to: '2025-03-01' })).toEqual({ from: '2025-03-01', to: '2025-03-31' });
    expect(parseAuditFilters({ action: ['pool.import_rejected', 'auth.locked'] })).toEqual({ action: 'pool.import_rejected' });
  });
});

describe.each(testBackends())('listing the audit log by filter on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;
  let userId: string;

  /** An entry as the sign-in writes it (lib/auth/credentials.ts, lib/auth/sessions.ts). */
  const entry = (action: string, actorId: string | null, detail: Record<string, unknown>) =>
    db.transaction((tx) => appendAudit({ tx, actorId, action, entityType: 'user', entityId: userId, detail }));

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
    userId = (await insertUser({ db, email: 'kim@bank.example', name: '김심사', role: 'rm', passwordHash: null }))!.id;
    await entry('auth.sign_in_failed', null, { email: 'kim@bank.example', reason: 'invalid', address: '203.0.113.7' });
    await entry('auth.locked', null, { email: 'kim@bank.example', minutes: 2, address: '203.0.113.7' });
    await entry('auth.sign_in', userId, { provider: 'credentials', session: 'abcd1234', address: '203.0.113.7' });
  });
  afterAll(() => handle?.close());

  it('by action: only the failed sign-ins', async () => {
    const { rows, total } = await listAuditEntries({ db, filters: parseAuditFilters({ action: 'auth.sign_in_failed' }) });
    expect(total).toBe(1);
    expect(rows.map((r) => [r.action, r.detail])).toEqual([['auth.sign_in_failed', { email: 'kim@bank.example', reason: 'invalid', address: '203.0.113.7' }]]);
  });

  it('by user: only what the user did, with their name', async () => {
    const { rows } = await listAuditEntries({ db, filters: parseAuditFilters({ actor: userId }) });
    expect(rows.map((r) => [r.action, r.actorName])).toEqual([['auth.sign_in', '김심사']]);
  });

  it('by date range: today holds all three, a range that ended yesterday none', async () => {
    const [{ at: written }] = await db.select({ at: auditLog.at }).from(auditLog).limit(1);
    const today = written.toISOString().slice(0, 10);
    const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect((await listAuditEntries({ db, filters: parseAuditFilters({ from: today, to: today }) })).rows.map((r) => r.action)).toEqual([
      'auth.sign_in',
      'auth.locked',
      'auth.sign_in_failed',
    ]);
    expect((await listAuditEntries({ db, filters: parseAuditFilters({ to: yesterday }) })).total).toBe(0);
  });
});
