// Managing accounts, shared by the admin users page and the CLI (the first admin on PostgreSQL).
// Each change is one transaction with its audit entry. A password reset, a role change and
// disabling an account also end all of the user's sessions (lib/auth/sessions.ts), so a copied
// cookie or a device left signed in cannot carry on under the old password or role.
import type { Db } from '@/lib/db/client';
import { clearSignInLocks } from '@/lib/auth/credentials';
import { hashPassword } from '@/lib/auth/password';
import { revokeUserSessions } from '@/lib/auth/sessions';
import { appendAudit } from '@/lib/db/queries/audit';
import { countActiveAdmins, getUserById, insertUser, updateUser } from '@/lib/db/queries/users';
import type { Role } from '@/lib/domain/vocabulary';
import { AppError } from '@/lib/errors';
import { say } from '@/lib/i18n';
import { adminMessages } from '@/lib/i18n/messages/admin';

export async function createAccount({
  db,
  actorId,
  email,
  name,
  role,
  password,
}: {
  db: Db;
  actorId: string | null;
  email: string;
  name: string;
  role: Role;
  password: string;
}) {
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const row = await insertUser({ db: tx, email, name, role, passwordHash });
    if (!row) throw new AppError('conflict', say(adminMessages, 'errEmailTaken'), { email: ['errEmailTaken'] });
    await appendAudit({ tx, actorId, action: 'user.create', entityType: 'user', entityId: row.id, detail: { email: row.email, role: row.role } });
    return row;
  });
}

async function loadTarget(db: Db, id: string) {
  const target = await getUserById({ db, id });
  if (!target) throw new AppError('not_found', say(adminMessages, 'errNoUser'));
  return target;
}

export async function changeRole({ db, actorId, id, role }: { db: Db; actorId: string; id: string; role: Role }) {
  if (id === actorId) throw new AppError('conflict', say(adminMessages, 'errOwnRole'));
  const target = await loadTarget(db, id);
  if (target.role === role) return;
  await db.transaction(async (tx) => {
    if (target.role === 'admin' && (await countActiveAdmins({ db: tx, excludingId: id })) === 0) {
      throw new AppError('conflict', say(adminMessages, 'errLastAdmin'));
    }
    await updateUser({ db: tx, id, role });
    await appendAudit({ tx, actorId, action: 'user.role', entityType: 'user', entityId: id, detail: { from: target.role, to: role } });
    await revokeUserSessions({ tx, userId: id, actorId, reason: 'role_change' });
  });
}

export async function setDisabled({ db, actorId, id, disabled }: { db: Db; actorId: string; id: string; disabled: boolean }) {
  if (id === actorId) throw new AppError('conflict', say(adminMessages, 'errDisableSelf'));
  const target = await loadTarget(db, id);
  await db.transaction(async (tx) => {
    if (disabled && target.role === 'admin' && (await countActiveAdmins({ db: tx, excludingId: id })) === 0) {
      throw new AppError('conflict', say(adminMessages, 'errLastAdmin'));
    }
    await updateUser({ db: tx, id, disabled });
    await appendAudit({ tx, actorId, action: disabled ? 'user.disable' : 'user.enable', entityType: 'user', entityId: id });
    if (disabled) await revokeUserSessions({ tx, userId: id, actorId, reason: 'disabled' });
  });
}

export async function resetPassword({ db, actorId, id, password }: { db: Db; actorId: string; id: string; password: string }) {
  const target = await loadTarget(db, id);
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    // A reset also lifts a lockout: the admin has vouched for whoever gets the new password.
    await updateUser({ db: tx, id, passwordHash, failedLoginCount: 0, lockedUntil: null });
    await clearSignInLocks({ db: tx, email: target.email });
    await appendAudit({ tx, actorId, action: 'user.password_reset', entityType: 'user', entityId: id });
    await revokeUserSessions({ tx, userId: id, actorId, reason: 'password_reset' });
  });
}

/** Lifts a sign-in lock (lib/auth/credentials.ts) at once, e.g. when someone keeps locking an account on purpose. */
export async function unlockAccount({ db, actorId, id }: { db: Db; actorId: string; id: string }) {
  const target = await loadTarget(db, id);
  await db.transaction(async (tx) => {
    await updateUser({ db: tx, id, failedLoginCount: 0, lockedUntil: null });
    // Every address's lock and the new-address budget: the mirror on the row is only what the page shows.
    await clearSignInLocks({ db: tx, email: target.email });
    await appendAudit({
      tx,
      actorId,
      action: 'auth.unlock',
      entityType: 'user',
      entityId: id,
      detail: { wasLockedUntil: target.lockedUntil?.toISOString() ?? null, failedAttempts: target.failedLoginCount },
    });
  });
}
