// The append-only, hash-chained audit log. Each entry's hash covers its own content and the
// previous entry's hash, keyed: an HMAC-SHA256 with the audit key (lib/db/audit-key.ts), which
// is never stored in the database, so whoever edits a row cannot recompute a hash that verifies.
// Each append also writes a checkpoint of the chain head (its seq and hash, with a MAC) to
// audit_checkpoints, so deleting the newest entries leaves a checkpoint naming an entry that is
// gone. The database refuses UPDATE, DELETE and TRUNCATE on both tables (drizzle/0007_security.sql).
// Appends are serialized by a transaction-scoped advisory lock so two writers cannot both chain
// onto the same predecessor. Entries written before keying (keyed = false) are plain SHA-256 and
// still verify that way, up to the keyed start recorded in audit_genesis (lib/db/audit-genesis.ts):
// an unkeyed entry after it is a break (a downgrade), and so is a log with no valid keyed start.
// The retention purge may cut the oldest entries off the head of the log; a keyed purge record
// (audit_purges) names what it cut, and verification starts from it (docs/retention.md).
import 'server-only';
import { auditEntryHash, checkpointMacHex } from '@/lib/util/case-file-digest';
import { and, asc, desc, eq, gt, gte, lt, lte, ne, sql, type SQL } from 'drizzle-orm';
import type { Executor, Tx } from '@/lib/db/client';
import { auditCheckpoints, auditGenesis, auditLog, auditPurges, users } from '@/lib/db/schema';
import { auditKey, auditMac } from '@/lib/db/audit-key';
import { AUDIT_LOCK_KEY, GENESIS_HASH, keyedStartMac } from '@/lib/db/audit-genesis';
import { executeRows } from '@/lib/db/rows';
import { addDays, isIsoDay } from '@/lib/util/dates';

export { GENESIS_HASH, keyedStartMac };

export type AuditEntryInput = {
  actorId: string | null;
  action: string;
  entityType: string;
  entityId?: string | null;
  detail?: Record<string, unknown>;
};

/**
 * The entry's hash: HMAC-SHA256 with `key` for keyed entries, plain SHA-256 (how entries were
 * hashed before keying) without one. Computed where the offline case-file verifier computes it
 * (lib/util/case-file-digest.ts), so the two cannot drift apart.
 */
export function hashAuditEntry(prevHash: string, entry: AuditEntryInput & { at: string }, key?: Buffer) {
  return auditEntryHash(prevHash, { ...entry, entityId: entry.entityId ?? null, detail: entry.detail ?? {} }, key);
}

/** The MAC of a checkpoint: the chain head `hash` at entry `seq`. */
export function checkpointMac(seq: number, hash: string, key: Buffer = auditKey()) {
  return checkpointMacHex(seq, hash, key);
}

/** The MAC of a purge record: entries `firstSeq`..`lastSeq`, `count` of them, the last with hash `lastHash`. */
export function purgeMac(firstSeq: number, lastSeq: number, count: number, lastHash: string, key: Buffer = auditKey()) {
  return auditMac(['purge', String(firstSeq), String(lastSeq), String(count), lastHash], key);
}

export type AuditPurge = { firstSeq: number; lastSeq: number; count: number };

/**
 * Deletes the oldest entries of the log, up to `throughSeq`, with their checkpoints, after writing
 * the keyed purge record that names them (docs/retention.md). Never the newest entry: the next
 * append chains onto it. Call inside the transaction that audits the purge; null when there was
 * nothing to delete.
 */
export async function purgeAuditHead({ tx, throughSeq, key = auditKey() }: { tx: Tx; throughSeq: number; key?: Buffer }): Promise<AuditPurge | null> {
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK_KEY})`);
  const [head] = await tx.select({ seq: auditLog.seq }).from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
  if (!head) return null;
  const upTo = Math.min(throughSeq, head.seq - 1);
  const [span] = await tx
    .select({ first: sql<number | null>`min(${auditLog.seq})`.mapWith(Number), count: sql<number>`count(*)::int` })
    .from(auditLog)
    .where(lte(auditLog.seq, upTo));
  if (!span || !span.count || span.first === null) return null;
  const [last] = await tx.select({ seq: auditLog.seq, hash: auditLog.hash }).from(auditLog).where(lte(auditLog.seq, upTo)).orderBy(desc(auditLog.seq)).limit(1);
  const record = { firstSeq: Number(span.first), lastSeq: last.seq, count: span.count, lastHash: last.hash };
  // The record first: the database allows deleting entries only up to the newest record's seq.
  await tx.insert(auditPurges).values({ ...record, mac: purgeMac(record.firstSeq, record.lastSeq, record.count, record.lastHash, key) });
  await tx.delete(auditCheckpoints).where(lte(auditCheckpoints.seq, record.lastSeq));
  await tx.delete(auditLog).where(lte(auditLog.seq, record.lastSeq));
  return { firstSeq: record.firstSeq, lastSeq: record.lastSeq, count: record.count };
}

type PurgeHead = { ok: true; lastSeq: number; lastHash: string; count: number } | { ok: true; lastSeq: 0 } | { ok: false; lastSeq: number; at: Date };

/**
 * Where the log's kept entries start: after the newest purge record, whose hash the first kept
 * entry chains onto. Every record must carry a valid MAC and follow the one before it; the first
 * that does not is named.
 */
async function readPurgeHead(db: Executor, key: Buffer): Promise<PurgeHead> {
  const rows = await db.select().from(auditPurges).orderBy(asc(auditPurges.id));
  let head: PurgeHead = { ok: true, lastSeq: 0 };
  let count = 0;
  for (const r of rows) {
    const holds = r.mac === purgeMac(r.firstSeq, r.lastSeq, r.count, r.lastHash, key);
    if (!holds || r.firstSeq <= head.lastSeq || r.lastSeq < r.firstSeq || r.count < 1 || r.count > r.lastSeq - r.firstSeq + 1)
      return { ok: false, lastSeq: r.lastSeq, at: r.at };
    count += r.count;
    head = { ok: true, lastSeq: r.lastSeq, lastHash: r.lastHash, count };
  }
  return head;
}

/** Appends one entry; call inside the transaction that makes the change it records. */
export async function appendAudit({ tx, ...entry }: AuditEntryInput & { tx: Tx }) {
  const key = auditKey();
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK_KEY})`);
  const [last] = await tx.select({ hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
  // The key's first use on an empty log: every entry from the first on is keyed. Only here, and
  // only if no keyed start exists; one that was deleted from a log with entries is never written
  // again, so verification keeps failing (lib/db/audit-genesis.ts).
  if (!last)
    await tx
      .insert(auditGenesis)
      .values({ lastUnkeyed: 0, headHash: GENESIS_HASH, mac: keyedStartMac(0, GENESIS_HASH, key) })
      .onConflictDoNothing();
  const prevHash = last?.hash ?? GENESIS_HASH;
  // Millisecond precision survives a round trip through timestamptz, so verification can rehash.
  const at = new Date().toISOString();
  const hash = hashAuditEntry(prevHash, { ...entry, at }, key);
  const [{ seq }] = await tx
    .insert(auditLog)
    .values({
      at: new Date(at),
      actorId: entry.actorId,
      action: entry.action,
      entityType: entry.entityType,
      entityId: entry.entityId ?? null,
      detail: entry.detail ?? {},
      prevHash,
      hash,
      keyed: true,
    })
    .returning({ seq: auditLog.seq });
  // One checkpoint per append: a second small insert in a transaction that already holds the lock.
  await tx.insert(auditCheckpoints).values({ seq, hash, mac: checkpointMac(seq, hash, key) });
}

/**
 * Why verification stopped at an entry:
 * - `link`: its previous-hash is not the hash of the entry before it (an entry before it was
 *   deleted, inserted or re-chained);
 * - `content`: its fields no longer hash to its stored hash (it was edited), or it is the last
 *   entry before keying and its hash is not the one the keyed start records;
 * - `key`: it does not verify with the current audit key and no keyed entry before it did:
 *   the key changed since it was written (entries under an old key cannot be verified), or it
 *   was rewritten by someone without the key;
 * - `unkeyed-after-keyed`: it claims to be from before keying but comes after the keyed start,
 *   or after a keyed entry (a downgrade);
 * - `checkpoint`: its checkpoint is missing, does not carry a valid MAC, or names another hash;
 *   or a purge record (audit_purges) does not carry a valid MAC or overlaps the one before it
 *   (`brokenAt` is then the last seq it names);
 * - `missing`: a checkpoint (or the keyed start) names it but the log no longer has it (it was deleted);
 * - `genesis`: the log has entries but its keyed start is missing, or does not carry a valid MAC
 *   while the keyed entries do: nothing says which entries are really from before keying, so the
 *   first entry is named.
 */
export type AuditBreak = 'link' | 'content' | 'key' | 'unkeyed-after-keyed' | 'checkpoint' | 'missing' | 'genesis';

export type AuditVerification =
  | {
      ok: true;
      /** Entries checked, and how many of them were written before keying (plain SHA-256). */
      checked: number;
      unkeyed: number;
      /** The newest checkpoint, whose entry is in the log with its hash. */
      checkpoint: number | null;
      /** Entries removed by the retention purge, and the last seq removed (docs/retention.md). */
      purged?: { count: number; throughSeq: number };
    }
  | {
      ok: false;
      brokenAt: number;
      /** The entry's time and action; for a missing entry, its checkpoint's time and no action. */
      at: Date;
      action: string | null;
      reason: AuditBreak;
      checked: number;
      /** The last entry that verified before the break (0: none). */
      lastGood: number;
      /** For `missing`: no entry follows it, so the newest entries were deleted. */
      tail?: boolean;
    };

export type KeyedStart = {
  /** Every entry after this one is keyed (0: every entry). */
  lastUnkeyed: number;
  /** The hash the keyed chain starts from: that entry's (GENESIS_HASH for 0). */
  headHash: string;
  at: Date;
  /** Its MAC holds with the key: written by the app, not by whoever can write to the database. */
  holds: boolean;
};

/** Where keying began (lib/db/audit-genesis.ts), or null when the database has no record of it. */
export async function readKeyedStart({ db, key = auditKey() }: { db: Executor; key?: Buffer }): Promise<KeyedStart | null> {
  // Its table dropped by hand reads as no record, so verification says so rather than failing.
  const [table] = await executeRows<{ present: boolean }>(db, sql`select to_regclass('audit_genesis') is not null as present`);
  if (!table?.present) return null;
  const [row] = await db.select().from(auditGenesis).limit(1);
  if (!row) return null;
  return { lastUnkeyed: row.lastUnkeyed, headHash: row.headHash, at: row.at, holds: row.mac === keyedStartMac(row.lastUnkeyed, row.headHash, key) };
}

/**
 * Walks the chain and its checkpoints in order of seq, in pages so a long log never sits in
 * memory at once, and names the first entry that does not hold (see AuditBreak), or the first
 * entry a checkpoint records that is gone. A log with entries needs a keyed start that holds:
 * without one, the walk only tells a changed key (`key`, as before) from a forgery (`genesis`).
 */
export async function verifyAuditChain({ db, batch = 1000, key = auditKey() }: { db: Executor; batch?: number; key?: Buffer }): Promise<AuditVerification> {
  const start = await readKeyedStart({ db, key });
  if (start?.holds) return walkAuditChain({ db, batch, key, start });
  const [first] = await db.select().from(auditLog).orderBy(asc(auditLog.seq)).limit(1);
  // An empty log (a new database before its first entry) has nothing to verify yet.
  if (!first) return { ok: true, checked: 0, unkeyed: 0, checkpoint: null };
  if (start) {
    // A keyed start that does not hold: under the old key, if no keyed entry holds either.
    const walked = await walkAuditChain({ db, batch, key, start: null });
    if (!walked.ok && walked.reason === 'key') return walked;
  }
  return { ok: false, brokenAt: first.seq, at: first.at, action: first.action, reason: 'genesis', checked: 1, lastGood: 0 };
}

async function walkAuditChain({ db, batch, key, start }: { db: Executor; batch: number; key: Buffer; start: KeyedStart | null }): Promise<AuditVerification> {
  // After a purge the walk starts from its record: the first kept entry chains onto its last hash.
  const purge = await readPurgeHead(db, key);
  if (!purge.ok) return { ok: false, brokenAt: purge.lastSeq, at: purge.at, action: null, reason: 'checkpoint', checked: 0, lastGood: 0 };
  const purged = 'lastHash' in purge ? { count: purge.count, throughSeq: purge.lastSeq } : undefined;
  let prev = 'lastHash' in purge ? purge.lastHash : GENESIS_HASH;
  let after = purge.lastSeq;
  let checked = 0;
  let unkeyed = 0;
  let lastGood = 0;
  let newestCheckpoint: number | null = null;
  let seenKeyed = false;
  let verifiedKeyed = false;
  for (;;) {
    const rows = await db.select().from(auditLog).where(gt(auditLog.seq, after)).orderBy(asc(auditLog.seq)).limit(batch);
    const end = rows.length < batch ? null : rows[rows.length - 1].seq;
    // The checkpoints of this page's range; on the last page, every later one too.
    const checkpoints = await db
      .select()
      .from(auditCheckpoints)
      .where(end === null ? gt(auditCheckpoints.seq, after) : and(gt(auditCheckpoints.seq, after), lte(auditCheckpoints.seq, end)))
      .orderBy(asc(auditCheckpoints.seq));
    const rowAt = new Map(rows.map((r) => [r.seq, r]));
    const bySeq = new Map(checkpoints.map((c) => [c.seq, c]));
    const seqs = new Set([...rowAt.keys(), ...bySeq.keys()]);
    // The keyed start names the last entry before keying, which must be there like a checkpointed one.
    if (start && start.lastUnkeyed > after && (end === null || start.lastUnkeyed <= end)) seqs.add(start.lastUnkeyed);
    let appendedSince = false;
    for (const seq of [...seqs].sort((a, b) => a - b)) {
      const row = rowAt.get(seq);
      const cp = bySeq.get(seq);
      const cpHolds = cp ? cp.mac === checkpointMac(cp.seq, cp.hash, key) : false;
      if (!row) {
        const tail = !rows.some((r) => r.seq > seq);
        // On the last page, a valid checkpoint past the entries read may be of an entry appended
        // since they were read (an entry and its checkpoint commit together): when the entry is
        // there now, it is not missing, and the chain verified is the one read.
        if (end === null && tail && cpHolds) {
          const [now] = await db.select({ seq: auditLog.seq }).from(auditLog).where(eq(auditLog.seq, seq));
          if (now) {
            appendedSince = true;
            break;
          }
        }
        if (!cp) return { ok: false, brokenAt: seq, at: start!.at, action: null, reason: 'missing', checked, lastGood, tail };
        // A checkpoint with no entry: the entry was deleted, unless the checkpoint is forged.
        if (!cpHolds) return { ok: false, brokenAt: seq, at: cp.at, action: null, reason: 'checkpoint', checked, lastGood };
        return { ok: false, brokenAt: seq, at: cp.at, action: null, reason: 'missing', checked, lastGood, tail };
      }
      checked += 1;
      let reason: AuditBreak | null = null;
      if (row.prevHash !== prev) reason = 'link';
      else if (!row.keyed && (seenKeyed || (start !== null && row.seq > start.lastUnkeyed))) reason = 'unkeyed-after-keyed';
      else if (row.hash !== hashAuditEntry(prev, { ...row, at: row.at.toISOString() }, row.keyed ? key : undefined)) {
        // Nothing keyed has verified yet and its checkpoint does not either: most likely a key change.
        reason = row.keyed && !verifiedKeyed && !cpHolds ? 'key' : 'content';
      } else if (start && row.seq === start.lastUnkeyed && row.hash !== start.headHash) {
        // The entries before keying were rewritten, consistently, since the keyed start was recorded.
        reason = 'content';
      } else if (cp ? !cpHolds || cp.hash !== row.hash : row.keyed) {
        // Every keyed entry was checkpointed in its own transaction; entries from before keying were not.
        reason = 'checkpoint';
      }
      if (reason) return { ok: false, brokenAt: row.seq, at: row.at, action: row.action, reason, checked, lastGood };
      if (row.keyed) seenKeyed = verifiedKeyed = true;
      else unkeyed += 1;
      if (cp) newestCheckpoint = cp.seq;
      prev = row.hash;
      lastGood = row.seq;
    }
    if (end === null || appendedSince) return { ok: true, checked, unkeyed, checkpoint: newestCheckpoint, ...(purged ? { purged } : {}) };
    after = end;
  }
}

/** Once per page load or stream; reconnects within this window are the same reading. */
export const RUN_VIEW_WINDOW_MS = 5 * 60_000;

/**
 * Records that a user read a run's transcript: always from the run page (`via: 'page'`); from its
 * event stream only when this user has no `run.view` of this run within RUN_VIEW_WINDOW_MS, so
 * the stream the page opens, and the browser's reconnects, do not add entries of their own.
 */
export async function recordRunView({
  db,
  actorId,
  runId,
  via,
  detail = {},
}: {
  db: Executor;
  actorId: string;
  runId: string;
  via: 'page' | 'stream';
  detail?: Record<string, unknown>;
}) {
  await db.transaction(async (tx) => {
    if (via === 'stream') {
      const [recent] = await tx
        .select({ seq: auditLog.seq })
        .from(auditLog)
        .where(
          and(
            eq(auditLog.entityType, 'run'),
            eq(auditLog.entityId, runId),
            eq(auditLog.action, 'run.view'),
            eq(auditLog.actorId, actorId),
            gt(auditLog.at, new Date(Date.now() - RUN_VIEW_WINDOW_MS)),
          ),
        )
        .limit(1);
      if (recent) return;
    }
    await appendAudit({ tx, actorId, action: 'run.view', entityType: 'run', entityId: runId, detail: { ...detail, via } });
  });
}

/** The action of an evaluator's submitted rating, whose actor the audit page shows by pseudonym only. */
export const RATING_SUBMIT_ACTION = 'rating.submit';

export type AuditFilters = {
  action?: string;
  actorId?: string;
  entityType?: string;
  /** Inclusive calendar days (UTC), `YYYY-MM-DD`. */
  from?: string;
  to?: string;
};

/** An action as the writers name them (`auth.sign_in_failed`, `judge.pairwise`). */
// Every dot is followed by a letter: said by a lookahead, not by a repeated group holding a repeat.
const ACTION = /^[a-z](?!.*\.(?![a-z]))[a-z_.]*$/;
const ENTITY = /^[a-z][a-z_]*$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_FILTER_CHARS = 100;

/**
 * The filters of the audit page's URL (?action=&actor=&entity=&from=&to=), checked on the server:
 * a value that could not have come from the page's form (an action or entity type that is not a
 * code, an actor that is not an id, a date that is not a real YYYY-MM-DD day) is left out rather
 * than refused, and a range given backwards is read the right way round.
 */
export function parseAuditFilters(params: Record<string, string | string[] | undefined>): AuditFilters {
  const value = (key: string, ok: (v: string) => boolean) => {
    const raw = params[key];
    const v = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
    return v && v.length <= MAX_FILTER_CHARS && ok(v) ? v : undefined;
  };
  let from = value('from', isIsoDay);
  let to = value('to', isIsoDay);
  if (from && to && from > to) [from, to] = [to, from];
  const filters: AuditFilters = {
    action: value('action', (v) => ACTION.test(v)),
    actorId: value('actor', (v) => UUID.test(v)),
    entityType: value('entity', (v) => ENTITY.test(v)),
    from,
    to,
  };
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)) as AuditFilters;
}

function auditWhere(filters: AuditFilters) {
  const where: SQL[] = [];
  if (filters.action) where.push(eq(auditLog.action, filters.action));
  // A rating's submission is shown under the evaluator's pseudonym (lib/eval/study-pseudonym.ts);
  // listing it under a chosen person would undo that, so a filter by actor leaves it out.
  if (filters.actorId) where.push(eq(auditLog.actorId, filters.actorId), ne(auditLog.action, RATING_SUBMIT_ACTION));
  if (filters.entityType) where.push(eq(auditLog.entityType, filters.entityType));
  if (filters.from) where.push(gte(auditLog.at, new Date(`${filters.from}T00:00:00.000Z`)));
  if (filters.to) where.push(lt(auditLog.at, new Date(`${addDays(filters.to, 1)}T00:00:00.000Z`)));
  return where.length ? and(...where) : undefined;
}

/** One page of the log, newest first, with the actor's name, and how many entries match. */
export async function listAuditEntries({
  db,
  filters = {},
  limit = 50,
  offset = 0,
}: {
  db: Executor;
  filters?: AuditFilters;
  limit?: number;
  offset?: number;
}) {
  const where = auditWhere(filters);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        seq: auditLog.seq,
        at: auditLog.at,
        action: auditLog.action,
        entityType: auditLog.entityType,
        entityId: auditLog.entityId,
        detail: auditLog.detail,
        hash: auditLog.hash,
        actorId: auditLog.actorId,
        actorName: users.name,
        actorEmail: users.email,
      })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorId))
      .where(where)
      .orderBy(desc(auditLog.seq))
      .limit(limit)
      .offset(offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(where),
  ]);
  return { rows, total };
}

export type AuditEntry = Awaited<ReturnType<typeof listAuditEntries>>['rows'][number];

/** The values the log's filters can take: actions, entity types and actors that occur in it. */
export async function listAuditFacets({ db }: { db: Executor }) {
  const [actions, entityTypes, actors] = await Promise.all([
    db.selectDistinct({ value: auditLog.action }).from(auditLog).orderBy(asc(auditLog.action)),
    db.selectDistinct({ value: auditLog.entityType }).from(auditLog).orderBy(asc(auditLog.entityType)),
    db
      .selectDistinct({ id: users.id, name: users.name, email: users.email })
      .from(auditLog)
      .innerJoin(users, eq(users.id, auditLog.actorId))
      .orderBy(asc(users.name), asc(users.email)),
  ]);
  return { actions: actions.map((a) => a.value), entityTypes: entityTypes.map((e) => e.value), actors };
}
