// Instance-wide settings an admin changes in the app (the `settings` table: one JSON value per
// key). Today only the system card's owner (docs/system-card.md). Every change is audited in the
// same transaction, with the value before and after.
import 'server-only';
import { eq } from 'drizzle-orm';
import type { Db, Executor } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { settings, users } from '@/lib/db/schema';

export const SYSTEM_OWNER_KEY = 'system_card.owner';

/** The person accountable for the system, and their role in the bank (e.g. "Head of Credit Risk Models"). */
export type SystemOwner = { name: string; title: string; contact: string };

export type SystemOwnerSetting = SystemOwner & { updatedAt: Date; updatedByName: string | null };

function isOwner(v: unknown): v is SystemOwner {
  const o = v as SystemOwner;
  return !!o && typeof o === 'object' && typeof o.name === 'string' && typeof o.title === 'string' && typeof o.contact === 'string';
}

/** The owner an admin set, or null when none has been. */
export async function getSystemOwner({ db }: { db: Executor }): Promise<SystemOwnerSetting | null> {
  const [row] = await db
    .select({ value: settings.value, updatedAt: settings.updatedAt, updatedByName: users.name })
    .from(settings)
    .leftJoin(users, eq(users.id, settings.updatedById))
    .where(eq(settings.key, SYSTEM_OWNER_KEY))
    .limit(1);
  if (!row || !isOwner(row.value)) return null;
  return { name: row.value.name, title: row.value.title, contact: row.value.contact, updatedAt: row.updatedAt, updatedByName: row.updatedByName };
}

/** Sets the owner and audits the change (before and after) in one transaction. */
export async function setSystemOwner({ db, actorId, owner }: { db: Db; actorId: string; owner: SystemOwner }) {
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ value: settings.value }).from(settings).where(eq(settings.key, SYSTEM_OWNER_KEY)).for('update').limit(1);
    const now = new Date();
    await tx
      .insert(settings)
      .values({ key: SYSTEM_OWNER_KEY, value: owner, updatedById: actorId, updatedAt: now })
      .onConflictDoUpdate({ target: settings.key, set: { value: owner, updatedById: actorId, updatedAt: now } });
    await appendAudit({
      tx,
      actorId,
      action: 'settings.owner',
      entityType: 'setting',
      entityId: SYSTEM_OWNER_KEY,
      detail: { before: isOwner(before?.value) ? before.value : null, after: owner },
    });
    return { ...owner, updatedAt: now };
  });
}
