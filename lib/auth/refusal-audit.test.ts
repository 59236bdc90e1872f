// Refused attempts through the action and route wrappers are audited: one `access.denied` entry
// per refusal, naming the actor when known, the permission, the path and why, every field
// bounded; the refusal itself answers as before, and the handler never runs.
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { SessionUser } from '@/lib/auth/session';
import type { DatabaseHandle } from '@/lib/db/client';
import { verifyAuditChain } from '@/lib/db/queries/audit';
import { auditLog, users } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { AppError } from '@/lib/errors';

const state: { user: SessionUser | null; handle: DatabaseHandle | null } = { user: null, handle: null };
vi.mock('@/lib/auth/session', () => ({ getSessionUser: async () => state.user }));
vi.mock('@/lib/db/client', async (importOriginal) => ({ ...(await importOriginal<object>()), getDb: async () => state.handle!.db }));

const { action } = await import('@/lib/auth/action');
const { route } = await import('@/lib/auth/route');

describe.each(testBackends())('refused attempts on %s', (backend) => {
  let rm: SessionUser;

  beforeAll(async () => {
    state.handle = await createTestDatabase(backend);
    const [row] = await state.handle.db.insert(users).values({ email: 'refused-rm@example.test', name: 'Refused RM', role: 'rm' }).returning();
    rm = { id: row.id, email: row.email, name: row.name, role: 'rm', demo: false };
  });
  afterAll(() => state.handle?.close());
  beforeEach(() => {
    state.user = rm;
  });

  const denied = async () =>
    (await state.handle!.db.select().from(auditLog).where(eq(auditLog.action, 'access.denied')).orderBy(asc(auditLog.seq))).map((e) => ({
      actorId: e.actorId,
      entityType: e.entityType,
      entityId: e.entityId,
      detail: e.detail,
    }));

  it('a server action refused for the role, for ownership or for no session writes one audit entry each, and the handler never runs', async () => {
    const handler = vi.fn(async () => 'done');
    const manageUsers = action({ permission: 'users:manage', input: z.object({}) }, handler);
    const notMine = action({ permission: 'cases:write', input: z.object({ id: z.string() }), authorize: () => false }, handler);

    expect(await manageUsers({})).toMatchObject({ ok: false, code: 'forbidden' });
    expect(await notMine({ id: 'someone-elses' })).toMatchObject({ ok: false, code: 'forbidden' });
    state.user = null;
    expect(await manageUsers({})).toMatchObject({ ok: false, code: 'unauthorized' });
    expect(handler).not.toHaveBeenCalled();

    expect(await denied()).toEqual([
      { actorId: rm.id, entityType: 'permission', entityId: 'users:manage', detail: { via: 'action', code: 'forbidden', path: null } },
      { actorId: rm.id, entityType: 'permission', entityId: 'cases:write', detail: { via: 'action', code: 'forbidden', path: null, reason: 'ownership' } },
      { actorId: null, entityType: 'permission', entityId: 'users:manage', detail: { via: 'action', code: 'unauthorized', path: null } },
    ]);
    expect((await verifyAuditChain({ db: state.handle!.db })).ok).toBe(true);
  });

  it('a route refused for the role or by an ownership check writes an audit entry with its path and method, bounded in size', async () => {
    const before = (await denied()).length;
    const metrics = route('ops:metrics', async () => Response.json({ ok: true }));
    const notYours = route('runs:read', async () => {
      throw new AppError('forbidden', 'You can read this run but not change it.');
    });
    const longPath = `/api/metrics/${'x'.repeat(5000)}`;

    expect((await metrics(new Request(`http://localhost${longPath}?token=secret`), {})).status).toBe(403);
    expect((await notYours(new Request('http://localhost/api/runs/r1/events', { method: 'POST' }), {})).status).toBe(403);

    const entries = (await denied()).slice(before);
    expect(entries).toHaveLength(2);
    const path = entries[0].detail.path as string;
    expect([...path]).toHaveLength(200);
    expect(path).toBe(`${longPath.slice(0, 199)}…`);
    expect(entries[0]).toMatchObject({ actorId: rm.id, entityId: 'ops:metrics', detail: { via: 'route', code: 'forbidden', method: 'GET' } });
    expect(entries[1]).toEqual({
      actorId: rm.id,
      entityType: 'permission',
      entityId: 'runs:read',
      detail: { via: 'route', code: 'forbidden', path: '/api/runs/r1/events', method: 'POST', reason: 'You can read this run but not change it.' },
    });
  });

  it('an action that is allowed, or a failed sign-in through a public action, writes no refusal entry', async () => {
    const before = (await denied()).length;
    const ok = action({ permission: 'cases:write', input: z.object({}) }, async () => 'done');
    const signIn = action({ permission: 'public', input: z.object({}) }, async () => {
      throw new AppError('unauthorized', 'Wrong email or password.');
    });
    expect(await ok({})).toEqual({ ok: true, data: 'done' });
    expect(await signIn({})).toMatchObject({ ok: false, code: 'unauthorized' });
    expect(await denied()).toHaveLength(before);
  });
});
