// The audit log against someone who can write to the database: the database refuses UPDATE,
// DELETE and TRUNCATE; an attacker with superuser rights (who disables the triggers, as these
// tests do) and without the audit key cannot edit an entry, recompute the chain, downgrade it to
// plain hashes or delete the newest entries without verification naming the entry.
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Db } from '@/lib/db/client';
import { appendAudit, checkpointMac, GENESIS_HASH, hashAuditEntry, verifyAuditChain } from '@/lib/db/queries/audit';
import { auditCheckpoints, auditLog } from '@/lib/db/schema';
import { createTestDatabase, testBackends } from '@/lib/db/test-db';
import { resetEnvForTests } from '@/lib/env';
import { deriveAuditKey, resetAuditKeyForTests } from '@/lib/db/audit-key';

const SECRET = 'audit-test-secret-of-at-least-32-characters';
const KEY = deriveAuditKey(SECRET);
const WRONG_KEY = deriveAuditKey('an-attackers-guess-at-the-secret-32-chars');

type Row = typeof auditLog.$inferSelect;
const entryOf = (row: Row) => ({ ...row, at: row.at.toISOString() });

let savedSecret: string | undefined;
beforeAll(() => {
  savedSecret = process.env.AUDIT_SECRET;
  process.env.AUDIT_SECRET = SECRET;
  resetEnvForTests();
  resetAuditKeyForTests();
});
afterAll(() => {
  if (savedSecret === undefined) delete process.env.AUDIT_SECRET;
  else process.env.AUDIT_SECRET = savedSecret;
  resetEnvForTests();
  resetAuditKeyForTests();
});

describe.each(testBackends())('audit log on %s', (backend) => {
  let handle: DatabaseHandle;
  let db: Db;

  beforeAll(async () => {
    handle = await createTestDatabase(backend);
    db = handle.db;
  });
  afterAll(() => handle?.close());

  /** What a superuser can do: switch the append-only triggers off, tamper, switch them on. */
  async function asAttacker(tamper: () => Promise<unknown>) {
    await db.execute(sql`alter table audit_log disable trigger user`);
    await db.execute(sql`alter table audit_checkpoints disable trigger user`);
    try {
      await tamper();
    } finally {
      await db.execute(sql`alter table audit_log enable trigger user`);
      await db.execute(sql`alter table audit_checkpoints enable trigger user`);
    }
  }

  const append = (action: string, detail: Record<string, unknown> = {}) =>
    db.transaction((tx) => appendAudit({ tx, actorId: null, action, entityType: 'user', entityId: action, detail }));
  const rows = () => db.select().from(auditLog).orderBy(asc(auditLog.seq));

  /** Five fresh entries, a to e, in order. */
  async function fiveEntries() {
    for (const a of ['a', 'b', 'c', 'd', 'e']) await append(a, { n: a });
    return rows();
  }

  /** Rewrites entries from `from` on, chaining each onto the one before with `hashOf`. */
  async function rechain(all: Row[], from: number, hashOf: (prev: string, row: Row) => string, set: Partial<Row> = {}) {
    let prev = from ? all[from - 1].hash : GENESIS_HASH;
    for (const row of all.slice(from)) {
      const next = { ...row, ...set, prevHash: prev };
      const hash = hashOf(prev, next);
      await db.update(auditLog).set({ ...set, prevHash: prev, hash }).where(eq(auditLog.seq, row.seq));
      prev = hash;
    }
  }

  beforeEach(() => asAttacker(() => db.execute(sql`truncate audit_log, audit_checkpoints`)));

  it('chains each entry to the one before with a keyed hash and checkpoints the head on every append', async () => {
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((a) => append(a, { n: a })));
    const all = await rows();
    expect(all).toHaveLength(5);
    expect(all[0].prevHash).toBe(GENESIS_HASH);
    let prev = GENESIS_HASH;
    for (const row of all) {
      expect(row.prevHash).toBe(prev);
      expect(row.keyed).toBe(true);
      // An HMAC with the audit key: the plain SHA-256 of the same content is something else.
      expect(row.hash).toBe(hashAuditEntry(prev, entryOf(row), KEY));
      expect(row.hash).not.toBe(hashAuditEntry(prev, entryOf(row)));
      prev = row.hash;
    }
    const checkpoints = await db.select().from(auditCheckpoints).orderBy(asc(auditCheckpoints.seq));
    expect(checkpoints.map((c) => [c.seq, c.hash, c.mac])).toEqual(all.map((r) => [r.seq, r.hash, checkpointMac(r.seq, r.hash, KEY)]));
    expect(await verifyAuditChain({ db })).toEqual({ ok: true, checked: 5, unkeyed: 0, checkpoint: all[4].seq });
  });

  it('the database refuses UPDATE, DELETE and TRUNCATE of audit entries and checkpoints, and the row stays as it was', async () => {
    const before = await fiveEntries();
    const refused = async (query: Promise<unknown>, op: string) => {
      const err = await query.then(
        () => null,
        (e: Error & { cause?: { code?: string; message?: string } }) => e,
      );
      // Drizzle wraps the driver's error; PostgreSQL's is its cause.
      const pgError = err?.cause ?? err;
      expect(pgError).toMatchObject({ code: '42501', message: expect.stringContaining(`is append-only: ${op} refused`) });
    };
    await refused(db.update(auditLog).set({ detail: { n: 'forged' } }).where(eq(auditLog.seq, before[2].seq)), 'UPDATE');
    await refused(db.delete(auditLog).where(eq(auditLog.seq, before[4].seq)), 'DELETE');
    await refused(db.execute(sql`truncate audit_log`), 'TRUNCATE');
    await refused(db.update(auditCheckpoints).set({ hash: 'x' }).where(eq(auditCheckpoints.seq, before[2].seq)), 'UPDATE');
    await refused(db.delete(auditCheckpoints), 'DELETE');
    await refused(db.execute(sql`truncate audit_checkpoints`), 'TRUNCATE');
    expect(await rows()).toEqual(before);
    expect(await db.$count(auditCheckpoints)).toBe(5);
    expect((await verifyAuditChain({ db })).ok).toBe(true);
  });

  it('an entry edited with every later hash recomputed as plain SHA-256 is named as edited', async () => {
    const all = await fiveEntries();
    await asAttacker(async () => {
      await db.update(auditLog).set({ detail: { n: 'forged' } }).where(eq(auditLog.seq, all[2].seq));
      await rechain(await rows(), 2, (prev, row) => hashAuditEntry(prev, entryOf(row)));
    });
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: all[2].seq, reason: 'content', action: 'c', lastGood: all[1].seq });
  });

  it('an entry edited with every later hash and checkpoint recomputed under a wrong key is named as edited', async () => {
    const all = await fiveEntries();
    await asAttacker(async () => {
      await db.update(auditLog).set({ detail: { n: 'forged' } }).where(eq(auditLog.seq, all[2].seq));
      await rechain(await rows(), 2, (prev, row) => hashAuditEntry(prev, entryOf(row), WRONG_KEY));
      for (const row of (await rows()).slice(2)) {
        await db.update(auditCheckpoints).set({ hash: row.hash, mac: checkpointMac(row.seq, row.hash, WRONG_KEY) }).where(eq(auditCheckpoints.seq, row.seq));
      }
    });
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: all[2].seq, reason: 'content' });
  });

  it('an edited entry passed off as written before keying (a downgrade) is named', async () => {
    const all = await fiveEntries();
    await asAttacker(async () => {
      await db.update(auditLog).set({ detail: { n: 'forged' } }).where(eq(auditLog.seq, all[2].seq));
      await rechain(await rows(), 2, (prev, row) => hashAuditEntry(prev, entryOf(row)), { keyed: false });
    });
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: all[2].seq, reason: 'unkeyed-after-keyed' });

    // The whole log downgraded, so no keyed entry comes first: its checkpoints still name the keyed hashes.
    await asAttacker(() => rechain(all, 0, (prev, row) => hashAuditEntry(prev, entryOf(row)), { keyed: false }));
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: all[0].seq, reason: 'checkpoint' });
  });

  it('deleting the newest entries is detected: entries after the last one left are missing', async () => {
    const all = await fiveEntries();
    await asAttacker(() => db.delete(auditLog).where(sql`${auditLog.seq} > ${all[2].seq}`));
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: all[3].seq, reason: 'missing', lastGood: all[2].seq, tail: true, action: null, checked: 3 });
  });

  it('a deleted entry in the middle is named as missing, with the entry before it', async () => {
    const all = await fiveEntries();
    await asAttacker(() => db.delete(auditLog).where(eq(auditLog.seq, all[1].seq)));
    expect(await verifyAuditChain({ db, batch: 2 })).toMatchObject({ ok: false, brokenAt: all[1].seq, reason: 'missing', lastGood: all[0].seq, tail: false });
  });

  it('a deleted or forged checkpoint is named', async () => {
    const all = await fiveEntries();
    await asAttacker(() => db.delete(auditCheckpoints).where(eq(auditCheckpoints.seq, all[3].seq)));
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: all[3].seq, reason: 'checkpoint' });
    await db.insert(auditCheckpoints).values({ seq: all[3].seq, hash: all[3].hash, mac: checkpointMac(all[3].seq, all[3].hash, WRONG_KEY) });
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: all[3].seq, reason: 'checkpoint' });
  });

  it('entries from before keying verify by their plain hash; a changed key is told apart from an edit', async () => {
    // Two entries as the code before keying wrote them: plain SHA-256, no checkpoint.
    let prev = GENESIS_HASH;
    for (const action of ['old-1', 'old-2']) {
      const entry = { at: new Date().toISOString(), actorId: null, action, entityType: 'user', entityId: action, detail: {} };
      const hash = hashAuditEntry(prev, entry);
      await db.insert(auditLog).values({ ...entry, at: new Date(entry.at), prevHash: prev, hash });
      prev = hash;
    }
    await append('new-1');
    await append('new-2');
    const all = await rows();
    expect(all.map((r) => r.keyed)).toEqual([false, false, true, true]);
    expect(await verifyAuditChain({ db })).toEqual({ ok: true, checked: 4, unkeyed: 2, checkpoint: all[3].seq });

    expect(await verifyAuditChain({ db, key: WRONG_KEY })).toMatchObject({ ok: false, brokenAt: all[2].seq, reason: 'key', lastGood: all[1].seq });

    await asAttacker(() => db.update(auditLog).set({ detail: { n: 'forged' } }).where(eq(auditLog.seq, all[1].seq)));
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: all[1].seq, reason: 'content' });
  });

  it('names the entry after one deleted with its checkpoint, by its broken link', async () => {
    const all = await fiveEntries();
    await asAttacker(async () => {
      await db.delete(auditLog).where(eq(auditLog.seq, all[1].seq));
      await db.delete(auditCheckpoints).where(eq(auditCheckpoints.seq, all[1].seq));
    });
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: all[2].seq, reason: 'link' });
  });
});
