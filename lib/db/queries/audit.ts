// The append-only, hash-chained audit log. Each entry's hash covers its own content and the
// previous entry's hash; appends are serialized by a transaction-scoped advisory lock so two
// writers cannot both chain onto the same predecessor.
import { createHash } from 'node:crypto';
import { and, asc, desc, eq, gt, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor, Tx } from '@/lib/db/client';
import { auditLog, users } from '@/lib/db/schema';

export const GENESIS_HASH = '0'.repeat(64);
const AUDIT_LOCK_KEY = 727275;

export type AuditEntryInput = {
  actorId: string | null;
  action: string;
  entityType: string;
  entityId?: string | null;
  detail?: Record<string, unknown>;
};

/** Stable JSON: object keys sorted, so the same content always hashes the same. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

export function hashAuditEntry(prevHash: string, entry: AuditEntryInput & { at: string }) {
  const body = canonical({
    at: entry.at,
    actorId: entry.actorId,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId ?? null,
    detail: entry.detail ?? {},
  });
  return createHash('sha256').update(prevHash).update('\n').update(body).digest('hex');
}

/** Appends one entry; call inside the transaction that makes the change it records. */
export async function appendAudit({ tx, ...entry }: AuditEntryInput & { tx: Tx }) {
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK_KEY})`);
  const [last] = await tx.select({ hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
  const prevHash = last?.hash ?? GENESIS_HASH;
  // Millisecond precision survives a round trip through timestamptz, so verification can rehash.
  const at = new Date().toISOString();
  const hash = hashAuditEntry(prevHash, { ...entry, at });
  await tx.insert(auditLog).values({
    at: new Date(at),
    actorId: entry.actorId,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId ?? null,
    detail: entry.detail ?? {},
    prevHash,
    hash,
  });
}

export type AuditBreak = 'link' | 'content';

/**
 * Walks the chain in order, in pages so a long log never sits in memory at once; returns the
 * first entry whose link or hash does not hold: `link` when its previous-hash is not the hash
 * of the entry before it (an entry before it was deleted, inserted or re-chained), `content`
 * when its own fields no longer hash to its stored hash (it was edited).
 */
export async function verifyAuditChain({ db, batch = 1000 }: { db: Executor; batch?: number }) {
  let prev = GENESIS_HASH;
  let after = 0;
  let checked = 0;
  for (;;) {
    const rows = await db.select().from(auditLog).where(gt(auditLog.seq, after)).orderBy(asc(auditLog.seq)).limit(batch);
    for (const row of rows) {
      checked += 1;
      const reason: AuditBreak | null =
        row.prevHash !== prev ? 'link' : row.hash !== hashAuditEntry(prev, { ...row, at: row.at.toISOString() }) ? 'content' : null;
      if (reason) return { ok: false as const, brokenAt: row.seq, at: row.at, action: row.action, reason, checked };
      prev = row.hash;
    }
    if (rows.length < batch) return { ok: true as const, checked };
    after = rows[rows.length - 1].seq;
  }
}

export type AuditVerification = Awaited<ReturnType<typeof verifyAuditChain>>;

export type AuditFilters = {
  action?: string;
  actorId?: string;
  entityType?: string;
  /** Inclusive calendar days (UTC), `YYYY-MM-DD`. */
  from?: string;
  to?: string;
};

function auditWhere(filters: AuditFilters) {
  const where: SQL[] = [];
  if (filters.action) where.push(eq(auditLog.action, filters.action));
  if (filters.actorId) where.push(eq(auditLog.actorId, filters.actorId));
  if (filters.entityType) where.push(eq(auditLog.entityType, filters.entityType));
  if (filters.from) where.push(gte(auditLog.at, new Date(`${filters.from}T00:00:00.000Z`)));
  if (filters.to) where.push(lt(auditLog.at, new Date(new Date(`${filters.to}T00:00:00.000Z`).getTime() + 86_400_000)));
  return where.length ? and(...where) : undefined;
}

/** One page of the log, newest first, with the actor's name, and how many entries match. */
export async function listAuditEntries({ db, filters = {}, limit = 50, offset = 0 }: { db: Executor; filters?: AuditFilters; limit?: number; offset?: number }) {
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
    db.select({ total: sql<number>`count(*)::int` }).from(auditLog).where(where),
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
