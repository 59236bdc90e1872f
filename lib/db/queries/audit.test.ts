import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { appendAudit, GENESIS_HASH, verifyAuditChain } from '@/lib/db/queries/audit';
import { auditLog } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';

describe.each(testBackends())('audit log on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
  });
  afterAll(() => handle?.close());

  const append = (action: string, detail: Record<string, unknown> = {}) =>
    db.transaction((tx) => appendAudit({ tx, actorId: null, action, entityType: 'user', entityId: action, detail }));

  it('chains each entry to the one before, from the genesis hash', async () => {
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((a) => append(a, { n: a })));
    const rows = await db.select().from(auditLog).orderBy(auditLog.seq);
    expect(rows).toHaveLength(5);
    expect(rows[0].prevHash).toBe(GENESIS_HASH);
    for (let i = 1; i < rows.length; i++) expect(rows[i].prevHash).toBe(rows[i - 1].hash);
    expect(await verifyAuditChain({ db })).toEqual({ ok: true, checked: 5 });
  });

  it('names the first entry whose content was changed', async () => {
    const rows = await db.select().from(auditLog).orderBy(auditLog.seq);
    await db.update(auditLog).set({ detail: { n: 'forged' } }).where(eq(auditLog.seq, rows[2].seq));
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: rows[2].seq, reason: 'content' });
    await db.update(auditLog).set({ detail: rows[2].detail }).where(eq(auditLog.seq, rows[2].seq));
    expect((await verifyAuditChain({ db })).ok).toBe(true);
  });

  it('names the entry after a deleted one', async () => {
    const rows = await db.select().from(auditLog).orderBy(auditLog.seq);
    await db.execute(sql`delete from audit_log where seq = ${rows[1].seq}`);
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: rows[2].seq, reason: 'link' });
  });
});
