// The audit log against someone who can write to the database: the database refuses UPDATE,
// DELETE and TRUNCATE; an attacker with superuser rights (who disables the triggers, as these
// tests do) and without the audit key cannot edit an entry, recompute the chain, downgrade it to
// plain hashes, move or delete the record of where keying began, or delete the newest entries
// without verification naming the entry.
import fs from 'node:fs';
import path from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrateDatabase, MIGRATIONS_FOLDER, type DatabaseHandle, type Db } from '@/lib/db/client';
import { appendAudit, checkpointMac, GENESIS_HASH, hashAuditEntry, keyedStartMac, readKeyedStart, verifyAuditChain } from '@/lib/db/queries/audit';
import { auditCheckpoints, auditGenesis, auditLog } from '@/lib/db/schema';
import { keyForUpgradedKeyedStart, recordUpgradedKeyedStart } from '@/lib/db/audit-genesis';
import { createTestDatabase, setAuditSecretForTests, testBackends } from '@/lib/db/test-db';
import { deriveAuditKey } from '@/lib/db/audit-key';

const SECRET = 'audit-test-secret-of-at-least-32-characters';
const KEY = deriveAuditKey(SECRET);
const WRONG_KEY = deriveAuditKey('an-attackers-guess-at-the-secret-32-chars');

type Row = typeof auditLog.$inferSelect;
const entryOf = (row: Row) => ({ ...row, at: row.at.toISOString() });

/**
 * What migrateDatabase (lib/db/client.ts) does when drizzle/0016_audit_genesis.sql is pending on
 * a database of an earlier release, with the migration's own SQL. The test database starts with
 * every migration applied, and drizzle applies only migrations newer than the newest it has
 * recorded, so the table is dropped and the migration's statements are run here between the same
 * two calls, rather than by drizzle's migrator.
 */
async function upgradeToKeyedStart(db: Db) {
  const key = await keyForUpgradedKeyedStart(db);
  const statements = fs.readFileSync(path.join(MIGRATIONS_FOLDER, '0016_audit_genesis.sql'), 'utf8').split('--> statement-breakpoint');
  for (const statement of statements) await db.execute(sql.raw(statement));
  if (key) await recordUpgradedKeyedStart(db, key);
  return key;
}

/** Entries as the code before keying wrote them: plain SHA-256, no checkpoint. */
async function unkeyedEntries(db: Db, actions: string[]) {
  const [last] = await db
    .select({ hash: auditLog.hash })
    .from(auditLog)
    .orderBy(sql`${auditLog.seq} desc`)
    .limit(1);
  let prev = last?.hash ?? GENESIS_HASH;
  for (const action of actions) {
    const entry = { at: new Date().toISOString(), actorId: null, action, entityType: 'user', entityId: action, detail: {} };
    const hash = hashAuditEntry(prev, entry);
    await db.insert(auditLog).values({ ...entry, at: new Date(entry.at), prevHash: prev, hash });
    prev = hash;
  }
}

/**
 * The downgrade of issue 25 #2, as a superuser types it: the append-only triggers off (`ALTER
 * TABLE … DISABLE TRIGGER ALL`, or `session_replication_role = replica` for one transaction), an
 * entry edited, every entry marked as written before keying and re-chained as plain SHA-256
 * (the hashes computed outside, the rows written in SQL), every checkpoint deleted.
 */
async function downgradeInSql(db: Db, edit: number, via: 'disable-trigger' | 'replication-role') {
  const before = await db.select().from(auditLog).orderBy(asc(auditLog.seq));
  const tables = ['audit_log', 'audit_checkpoints'];
  await db.transaction(async (tx) => {
    if (via === 'replication-role') await tx.execute(sql`set local session_replication_role = replica`);
    else for (const table of tables) await tx.execute(sql.raw(`alter table ${table} disable trigger all`));
    await tx.execute(sql`update audit_log set detail = '{"n":"forged"}'::jsonb where seq = ${edit}`);
    await tx.execute(sql`update audit_log set keyed = false`);
    let prev = GENESIS_HASH;
    for (const row of before) {
      const detail = row.seq === edit ? { n: 'forged' } : row.detail;
      const hash = hashAuditEntry(prev, { ...entryOf(row), detail });
      await tx.execute(sql`update audit_log set prev_hash = ${prev}, hash = ${hash} where seq = ${row.seq}`);
      prev = hash;
    }
    await tx.execute(sql`delete from audit_checkpoints`);
    if (via === 'disable-trigger') for (const table of tables) await tx.execute(sql.raw(`alter table ${table} enable trigger all`));
  });
}

let restoreSecret: () => void;
beforeAll(() => {
  restoreSecret = setAuditSecretForTests(SECRET);
});
afterAll(() => restoreSecret());

/**
 * `db`, except that the first read of the checkpoints after a read of the log awaits `between()`
 * first: what another transaction's append does when it commits between the walk's two reads.
 */
function readsBetween(db: Db, between: () => Promise<unknown>): Db {
  let readLog = false;
  let done = false;
  const wrap = (builder: object, table: unknown): object =>
    new Proxy(builder, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (prop === 'then' && typeof value === 'function') {
          const run = (value as PromiseLike<unknown>['then']).bind(target);
          if (table === auditLog) readLog = true;
          if (table !== auditCheckpoints || !readLog || done) return run;
          done = true;
          return (resolve: (v: unknown) => unknown, reject: (e: unknown) => unknown) => between().then(() => run(resolve, reject), reject);
        }
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const out = (value as (...a: unknown[]) => unknown).apply(target, args);
          return out && typeof out === 'object' ? wrap(out, prop === 'from' ? args[0] : table) : out;
        };
      },
    });
  return new Proxy(db, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === 'select') return (...args: unknown[]) => wrap((value as (...a: unknown[]) => object).apply(target, args), undefined);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

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
    for (const table of ['audit_log', 'audit_checkpoints', 'audit_genesis']) await db.execute(sql.raw(`alter table ${table} disable trigger user`));
    try {
      await tamper();
    } finally {
      for (const table of ['audit_log', 'audit_checkpoints', 'audit_genesis']) await db.execute(sql.raw(`alter table ${table} enable trigger user`));
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
      await db
        .update(auditLog)
        .set({ ...set, prevHash: prev, hash })
        .where(eq(auditLog.seq, row.seq));
      prev = hash;
    }
  }

  // Each test starts as a new database would: an empty log with no keyed start yet.
  beforeEach(() => asAttacker(() => db.execute(sql`truncate audit_log, audit_checkpoints, audit_genesis`)));

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
    await refused(
      db
        .update(auditLog)
        .set({ detail: { n: 'forged' } })
        .where(eq(auditLog.seq, before[2].seq)),
      'UPDATE',
    );
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
      await db
        .update(auditLog)
        .set({ detail: { n: 'forged' } })
        .where(eq(auditLog.seq, all[2].seq));
      await rechain(await rows(), 2, (prev, row) => hashAuditEntry(prev, entryOf(row)));
    });
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: all[2].seq, reason: 'content', action: 'c', lastGood: all[1].seq });
  });

  it('an entry edited with every later hash and checkpoint recomputed under a wrong key is named as edited', async () => {
    const all = await fiveEntries();
    await asAttacker(async () => {
      await db
        .update(auditLog)
        .set({ detail: { n: 'forged' } })
        .where(eq(auditLog.seq, all[2].seq));
      await rechain(await rows(), 2, (prev, row) => hashAuditEntry(prev, entryOf(row), WRONG_KEY));
      for (const row of (await rows()).slice(2)) {
        await db
          .update(auditCheckpoints)
          .set({ hash: row.hash, mac: checkpointMac(row.seq, row.hash, WRONG_KEY) })
          .where(eq(auditCheckpoints.seq, row.seq));
      }
    });
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: all[2].seq, reason: 'content' });
  });

  it('an edited entry passed off as written before keying (a downgrade) is named', async () => {
    const all = await fiveEntries();
    await asAttacker(async () => {
      await db
        .update(auditLog)
        .set({ detail: { n: 'forged' } })
        .where(eq(auditLog.seq, all[2].seq));
      await rechain(await rows(), 2, (prev, row) => hashAuditEntry(prev, entryOf(row)), { keyed: false });
    });
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: all[2].seq, reason: 'unkeyed-after-keyed' });

    // The whole log downgraded, so no keyed entry comes first: keying began before the first entry.
    await asAttacker(() => rechain(all, 0, (prev, row) => hashAuditEntry(prev, entryOf(row)), { keyed: false }));
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: all[0].seq, reason: 'unkeyed-after-keyed' });
  });

  it.each(['disable-trigger', 'replication-role'] as const)(
    'the downgrade in SQL (%s): an entry edited, every entry marked unkeyed and re-chained as plain SHA-256, the checkpoints deleted, is named at the first forged entry',
    async (via) => {
      const all = await fiveEntries();
      await downgradeInSql(db, all[2].seq, via);
      expect((await rows()).map((r) => r.keyed)).toEqual([false, false, false, false, false]);
      expect(await db.$count(auditCheckpoints)).toBe(0);
      expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: all[0].seq, reason: 'unkeyed-after-keyed', action: 'a', lastGood: 0 });
    },
  );

  it('a new database: its first entry records that every entry is keyed, once; a restart and later entries change nothing', async () => {
    expect(await readKeyedStart({ db })).toBeNull();
    expect(await verifyAuditChain({ db })).toEqual({ ok: true, checked: 0, unkeyed: 0, checkpoint: null });
    await fiveEntries();
    const recorded = await db.select().from(auditGenesis);
    expect(recorded).toEqual([{ id: true, lastUnkeyed: 0, headHash: GENESIS_HASH, mac: keyedStartMac(0, GENESIS_HASH, KEY), at: expect.any(Date) }]);
    // The app restarts (its migrations run, none pending) and goes on writing.
    await migrateDatabase(handle);
    await append('f');
    expect(await db.select().from(auditGenesis)).toEqual(recorded);
    const all = await rows();
    expect(await verifyAuditChain({ db })).toEqual({ ok: true, checked: 6, unkeyed: 0, checkpoint: all[5].seq });
    // A changed key is still told apart from an edit: the first keyed entry is named, as before.
    expect(await verifyAuditChain({ db, key: WRONG_KEY })).toMatchObject({ ok: false, brokenAt: all[0].seq, reason: 'key', lastGood: 0 });
  });

  it('the downgrade with the keyed start deleted as well fails at the first entry, and neither a restart nor new entries write it again', async () => {
    const all = await fiveEntries();
    await downgradeInSql(db, all[2].seq, 'disable-trigger');
    await asAttacker(() => db.delete(auditGenesis));
    await migrateDatabase(handle);
    await append('after-restart');
    expect(await db.$count(auditGenesis)).toBe(0);
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: all[0].seq, reason: 'genesis', action: 'a', lastGood: 0 });
  });

  it('a keyed start deleted, or moved to the head without the key, is named at the first entry', async () => {
    const all = await fiveEntries();
    await asAttacker(() => db.delete(auditGenesis));
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: all[0].seq, reason: 'genesis', lastGood: 0 });

    await downgradeInSql(db, all[2].seq, 'replication-role');
    const head = (await rows()).at(-1)!;
    // Written under a guessed key, or with the real keyed start's MAC copied onto the new place.
    for (const mac of [keyedStartMac(head.seq, head.hash, WRONG_KEY), keyedStartMac(0, GENESIS_HASH, KEY)]) {
      await asAttacker(async () => {
        await db.delete(auditGenesis);
        await db.insert(auditGenesis).values({ lastUnkeyed: head.seq, headHash: head.hash, mac });
      });
      expect(await readKeyedStart({ db })).toMatchObject({ lastUnkeyed: head.seq, holds: false });
      expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: all[0].seq, reason: 'genesis' });
    }
  });

  it("the keyed start's table dropped: the app still starts and writes, and verification names the first entry", async () => {
    const all = await fiveEntries();
    await db.execute(sql`drop table audit_genesis`);
    try {
      await migrateDatabase(handle);
      await append('after-restart');
      expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: all[0].seq, reason: 'genesis', lastGood: 0 });
    } finally {
      // The table back for the tests after this one (which start without a keyed start).
      await upgradeToKeyedStart(db);
    }
  });

  it('a log written wholly before keying: keying begins after its last entry, whose entries verify by their plain hash and may not be edited or deleted', async () => {
    await unkeyedEntries(db, ['old-1', 'old-2']);
    // What the process that applies drizzle/0016_audit_genesis.sql does for such a log.
    await recordUpgradedKeyedStart(db, KEY);
    await append('new-1');
    const all = await rows();
    expect(await readKeyedStart({ db })).toMatchObject({ lastUnkeyed: all[1].seq, headHash: all[1].hash, holds: true });
    expect(await verifyAuditChain({ db })).toEqual({ ok: true, checked: 3, unkeyed: 2, checkpoint: all[2].seq });

    await asAttacker(() =>
      db
        .update(auditLog)
        .set({ detail: { n: 'forged' } })
        .where(eq(auditLog.seq, all[1].seq)),
    );
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: all[1].seq, reason: 'content' });
    // The entries before keying re-chained from the edit on: the keyed start still names the old hash.
    await asAttacker(async () => {
      await db.delete(auditLog).where(eq(auditLog.seq, all[2].seq));
      await db.delete(auditCheckpoints);
      await rechain(await rows(), 1, (prev, row) => hashAuditEntry(prev, entryOf(row)));
    });
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: all[1].seq, reason: 'content', lastGood: all[0].seq });
    await asAttacker(() => db.delete(auditLog).where(eq(auditLog.seq, all[1].seq)));
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: all[1].seq, reason: 'missing', lastGood: all[0].seq, tail: true });
  });

  it('deleting the newest entries is detected: entries after the last one left are missing', async () => {
    const all = await fiveEntries();
    await asAttacker(() => db.delete(auditLog).where(sql`${auditLog.seq} > ${all[2].seq}`));
    expect(await verifyAuditChain({ db })).toMatchObject({
      ok: false,
      brokenAt: all[3].seq,
      reason: 'missing',
      lastGood: all[2].seq,
      tail: true,
      action: null,
      checked: 3,
    });
  });

  it('entries appended while the chain is verified are not taken for deleted ones', async () => {
    const all = await fiveEntries();
    // An entry and its checkpoint commit together; the walk reads the log's last page, then the
    // checkpoints past it. Two entries land in between: their checkpoints are read, their rows were not.
    let appended = false;
    const racing = readsBetween(db, async () => {
      appended = true;
      await append('f');
      await append('g');
    });
    expect(await verifyAuditChain({ db: racing })).toEqual({ ok: true, checked: 5, unkeyed: 0, checkpoint: all[4].seq });
    expect(appended).toBe(true);
    // The next check reads them, and a newest entry deleted is still named.
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: true, checked: 7 });
    const [g] = (await rows()).slice(-1);
    await asAttacker(() => db.delete(auditLog).where(eq(auditLog.seq, g.seq)));
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: g.seq, reason: 'missing', tail: true });
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

  it('names the entry after one deleted with its checkpoint, by its broken link', async () => {
    const all = await fiveEntries();
    await asAttacker(async () => {
      await db.delete(auditLog).where(eq(auditLog.seq, all[1].seq));
      await db.delete(auditCheckpoints).where(eq(auditCheckpoints.seq, all[1].seq));
    });
    expect(await verifyAuditChain({ db })).toMatchObject({ ok: false, brokenAt: all[2].seq, reason: 'link' });
  });
});

describe.each(testBackends())('an audit log upgraded from before keying on %s', (backend) => {
  const entry = (db: Db, action: string) => db.transaction((tx) => appendAudit({ tx, actorId: null, action, entityType: 'user', entityId: action }));
  const rowsOf = (db: Db) => db.select().from(auditLog).orderBy(asc(auditLog.seq));

  it('the upgrade records where keying began: entries before it verify by their plain hash, a changed key is told apart, a downgrade is named', async () => {
    const handle = await createTestDatabase(backend);
    try {
      const { db } = handle;
      // The earlier release: no audit_genesis, entries from before keying, then one keyed as the
      // releases since drizzle/0007 wrote them.
      await db.execute(sql`drop table audit_genesis`);
      await unkeyedEntries(db, ['old-1', 'old-2']);
      await entry(db, 'keyed-1');
      expect(await upgradeToKeyedStart(db)).toEqual(KEY);
      await entry(db, 'keyed-2');
      const all = await rowsOf(db);
      expect(all.map((r) => r.keyed)).toEqual([false, false, true, true]);
      expect(await readKeyedStart({ db })).toMatchObject({ lastUnkeyed: all[1].seq, headHash: all[1].hash, holds: true });
      expect(await verifyAuditChain({ db })).toEqual({ ok: true, checked: 4, unkeyed: 2, checkpoint: all[3].seq });
      // A restart records nothing more.
      await migrateDatabase(handle);
      expect(await db.$count(auditGenesis)).toBe(1);

      expect(await verifyAuditChain({ db, key: WRONG_KEY })).toMatchObject({ ok: false, brokenAt: all[2].seq, reason: 'key', lastGood: all[1].seq });

      // The downgrade: the first entry written after keying began is named.
      await downgradeInSql(db, all[3].seq, 'disable-trigger');
      expect(await verifyAuditChain({ db })).toMatchObject({
        ok: false,
        brokenAt: all[2].seq,
        reason: 'unkeyed-after-keyed',
        action: 'keyed-1',
        lastGood: all[1].seq,
      });
    } finally {
      await handle.close();
    }
  });

  it('an empty log needs no key to upgrade: its first entry records the keyed start', async () => {
    const handle = await createTestDatabase(backend);
    try {
      const { db } = handle;
      await db.execute(sql`drop table audit_genesis`);
      expect(await upgradeToKeyedStart(db)).toBeUndefined();
      expect(await readKeyedStart({ db })).toBeNull();
      await entry(db, 'first');
      expect(await readKeyedStart({ db })).toMatchObject({ lastUnkeyed: 0, headHash: GENESIS_HASH, holds: true });
      expect(await verifyAuditChain({ db })).toMatchObject({ ok: true, checked: 1, unkeyed: 0 });
    } finally {
      await handle.close();
    }
  });
});
