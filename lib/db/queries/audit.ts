// The append-only, hash-chained audit log. Each entry's hash covers its own content and the
// previous entry's hash; appends are serialized by a transaction-scoped advisory lock so two
// writers cannot both chain onto the same predecessor.
import { createHash } from 'node:crypto';
import { asc, desc, sql } from 'drizzle-orm';
import type { Executor, Tx } from '@/lib/db/client';
import { auditLog } from '@/lib/db/schema';

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

/** Walks the chain in order; returns the first entry whose link or hash does not hold. */
export async function verifyAuditChain({ db }: { db: Executor }) {
  const rows = await db.select().from(auditLog).orderBy(asc(auditLog.seq));
  let prev = GENESIS_HASH;
  for (const row of rows) {
    const expected = hashAuditEntry(prev, { ...row, at: row.at.toISOString() });
    if (row.prevHash !== prev || row.hash !== expected) return { ok: false as const, brokenAt: row.seq, checked: rows.length };
    prev = row.hash;
  }
  return { ok: true as const, checked: rows.length };
}
