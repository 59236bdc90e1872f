// Where keying of the audit log began: one keyed row in `audit_genesis` that says after which
// entry every entry is keyed, and from which hash the keyed chain starts. Without it, a superuser
// could mark every entry as written before keying (`keyed = false`), re-chain the log with plain
// SHA-256, delete the checkpoints, and verification would find nothing wrong (issue 25, #2).
//
// The row is written once, by code holding the audit key, and never because it is missing:
// - a new database: by its first audit entry (lib/db/queries/audit.ts), when the log is empty,
//   so it says "keyed from the first entry";
// - an upgraded database whose log already has entries: by the process whose migration creates
//   the table (drizzle/0016_audit_genesis.sql, lib/db/client.ts), after the last entry written
//   before keying.
// A superuser who deletes it, or replaces it without the key, makes verification fail at the
// first entry; a restart does not write it again. What no check inside the database can stop is
// someone who rebuilds the state before the upgrade (drops the table and the migration's record)
// and restarts the app: that moves the keyed start, which `crosscheck_audit_keyed_start_seq`
// shows to a monitor outside the database (docs/operations.md).
//
// Kept apart from lib/db/queries/audit.ts so the client can call it while migrating, without an
// import cycle.
import 'server-only';
import { asc, desc, eq, lt, sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { auditKey, auditMac } from '@/lib/db/audit-key';
import { auditGenesis, auditLog } from '@/lib/db/schema';

/** The previous hash of the first entry ever written. */
export const GENESIS_HASH = '0'.repeat(64);
/** The transaction-scoped advisory lock that serializes appends to the log. */
export const AUDIT_LOCK_KEY = 727275;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator's own connection has no schema
type AnyDb = PgDatabase<PgQueryResultHKT, any>;

/** The MAC of the keyed start: every entry after `lastUnkeyed` is keyed, chained from `headHash`. */
export function keyedStartMac(lastUnkeyed: number, headHash: string, key: Buffer = auditKey()) {
  return auditMac(['keyed-start', String(lastUnkeyed), headHash], key);
}

/**
 * Before migrating: the audit key when this migration will create `audit_genesis` on a log that
 * already has entries (an upgrade), so the keyed start can be recorded right after. Resolved
 * first, so a missing key stops the upgrade before it commits rather than leave it unrecorded.
 * Undefined otherwise: a new database's first entry records it, and an upgraded one has it.
 */
export async function keyForUpgradedKeyedStart(db: AnyDb): Promise<Buffer | undefined> {
  if (!(await yes(db, sql`select to_regclass('audit_genesis') is null and to_regclass('audit_log') is not null as yes`))) return undefined;
  return (await yes(db, sql`select exists (select 1 from audit_log) as yes`)) ? auditKey() : undefined;
}

/** A one-row, one-column `yes` answer; both drivers answer with `{ rows }` (lib/db/rows.ts, which this module cannot import). */
async function yes(db: AnyDb, query: SQL) {
  return ((await db.execute(query)) as unknown as { rows: { yes: boolean }[] }).rows[0]?.yes === true;
}

/**
 * After the migration that created `audit_genesis`: records the keyed start of a log written
 * partly before keying, after its last entry written before the first keyed one (0 when the
 * first entry is keyed). Under the append lock, and only when no keyed start exists.
 */
export async function recordUpgradedKeyedStart(db: AnyDb, key: Buffer) {
  // Still missing when its migration was already recorded (the table dropped by hand): there is
  // nothing to record into, and verification reports the missing keyed start.
  if (!(await yes(db, sql`select to_regclass('audit_genesis') is not null as yes`))) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK_KEY})`);
    const [firstKeyed] = await tx.select({ seq: auditLog.seq }).from(auditLog).where(eq(auditLog.keyed, true)).orderBy(asc(auditLog.seq)).limit(1);
    const [lastUnkeyed] = await tx
      .select({ seq: auditLog.seq, hash: auditLog.hash })
      .from(auditLog)
      .where(firstKeyed ? lt(auditLog.seq, firstKeyed.seq) : undefined)
      .orderBy(desc(auditLog.seq))
      .limit(1);
    const seq = lastUnkeyed?.seq ?? 0;
    const headHash = lastUnkeyed?.hash ?? GENESIS_HASH;
    await tx
      .insert(auditGenesis)
      .values({ lastUnkeyed: seq, headHash, mac: keyedStartMac(seq, headHash, key) })
      .onConflictDoNothing();
  });
}
