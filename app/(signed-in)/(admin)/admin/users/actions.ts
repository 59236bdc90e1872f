'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { createAccount } from '@/lib/auth/accounts';
import { action } from '@/lib/auth/action';
import { hashPassword, PASSWORD_MIN_LENGTH } from '@/lib/auth/password';
import { getDb } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { countActiveAdmins, getUserById, normalizeEmail, updateUser } from '@/lib/db/queries/users';
import { ROLES } from '@/lib/db/schema';
import { AppError } from '@/lib/errors';
import { format } from '@/lib/i18n';
import { adminMessages } from '@/lib/i18n/messages/admin';

// English from the table the form translates with, so the two cannot drift apart.
const M = adminMessages.en;

const password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, format(M.errPasswordMin, { n: PASSWORD_MIN_LENGTH }))
  .max(200, M.errPasswordMax);
const userId = z.uuid(M.errUnknownUser);

async function loadTarget(id: string) {
  const db = await getDb();
  const target = await getUserById({ db, id });
  if (!target) throw new AppError('not_found', M.errNoUser);
  return { db, target };
}

export const createUser = action(
  {
    permission: 'users:manage',
    input: z.object({
      email: z.email(M.errEmail).max(320).transform(normalizeEmail),
      name: z.string().trim().min(1, M.errName).max(200),
      role: z.enum(ROLES, M.errRole),
      password,
    }),
  },
  async (input, admin) => {
    const created = await createAccount({ db: await getDb(), actorId: admin.id, ...input });
    revalidatePath('/admin/users');
    return { id: created.id, email: created.email };
  },
);

export const changeUserRole = action(
  { permission: 'users:manage', input: z.object({ userId, role: z.enum(ROLES, M.errRole) }) },
  async ({ userId: id, role }, admin) => {
    if (id === admin.id) throw new AppError('conflict', M.errOwnRole);
    const { db, target } = await loadTarget(id);
    if (target.role === role) return { id, role };
    await db.transaction(async (tx) => {
      if (target.role === 'admin' && (await countActiveAdmins({ db: tx, excludingId: id })) === 0) {
        throw new AppError('conflict', M.errLastAdmin);
      }
      await updateUser({ db: tx, id, role });
      await appendAudit({ tx, actorId: admin.id, action: 'user.role', entityType: 'user', entityId: id, detail: { from: target.role, to: role } });
    });
    revalidatePath('/admin/users');
    return { id, role };
  },
);

export const setUserDisabled = action(
  {
    permission: 'users:manage',
    input: z.object({ userId, disabled: z.enum(['true', 'false']).transform((v) => v === 'true').or(z.boolean()) }),
  },
  async ({ userId: id, disabled }, admin) => {
    if (id === admin.id) throw new AppError('conflict', M.errDisableSelf);
    const { db, target } = await loadTarget(id);
    await db.transaction(async (tx) => {
      if (disabled && target.role === 'admin' && (await countActiveAdmins({ db: tx, excludingId: id })) === 0) {
        throw new AppError('conflict', M.errLastAdmin);
      }
      await updateUser({ db: tx, id, disabled });
      await appendAudit({ tx, actorId: admin.id, action: disabled ? 'user.disable' : 'user.enable', entityType: 'user', entityId: id });
    });
    revalidatePath('/admin/users');
    return { id, disabled };
  },
);

export const resetUserPassword = action(
  { permission: 'users:manage', input: z.object({ userId, password }) },
  async ({ userId: id, password: newPassword }, admin) => {
    const { db } = await loadTarget(id);
    const passwordHash = await hashPassword(newPassword);
    await db.transaction(async (tx) => {
      // A reset also lifts a lockout: the admin has vouched for whoever gets the new password.
      await updateUser({ db: tx, id, passwordHash, failedLoginCount: 0, lockedUntil: null });
      await appendAudit({ tx, actorId: admin.id, action: 'user.password_reset', entityType: 'user', entityId: id });
    });
    revalidatePath('/admin/users');
    return { id };
  },
);
