'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { changeRole, createAccount, resetPassword, setDisabled, unlockAccount } from '@/lib/auth/accounts';
import { action } from '@/lib/auth/action';
import { PASSWORD_MIN_LENGTH } from '@/lib/auth/password';
import { getDb } from '@/lib/db/client';
import { normalizeEmail } from '@/lib/db/queries/users';
import { ROLES } from '@/lib/domain/vocabulary';
import { phraseMessage, type Dictionary, type Messages } from '@/lib/i18n';
import { adminMessages } from '@/lib/i18n/messages/admin';

// Messages are keys of the admin table (a phrase when it has values), shown in the reader's language.
const messages = [adminMessages as Messages<Dictionary>];

const password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, phraseMessage('errPasswordMin', { n: PASSWORD_MIN_LENGTH }))
  .max(200, 'errPasswordMax');
const userId = z.uuid('errUnknownUser');

export const createUser = action(
  {
    permission: 'users:manage',
    messages,
    verbatim: ['password'],
    input: z.object({
      email: z.email('errEmail').max(320).transform(normalizeEmail),
      name: z.string().trim().min(1, 'errName').max(200),
      role: z.enum(ROLES, 'errRole'),
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
  { permission: 'users:manage', messages, input: z.object({ userId, role: z.enum(ROLES, 'errRole') }) },
  async ({ userId: id, role }, admin) => {
    await changeRole({ db: await getDb(), actorId: admin.id, id, role });
    revalidatePath('/admin/users');
    return { id, role };
  },
);

export const setUserDisabled = action(
  {
    permission: 'users:manage',
    messages,
    input: z.object({
      userId,
      disabled: z
        .enum(['true', 'false'])
        .transform((v) => v === 'true')
        .or(z.boolean()),
    }),
  },
  async ({ userId: id, disabled }, admin) => {
    await setDisabled({ db: await getDb(), actorId: admin.id, id, disabled });
    revalidatePath('/admin/users');
    return { id, disabled };
  },
);

export const resetUserPassword = action(
  { permission: 'users:manage', messages, verbatim: ['password'], input: z.object({ userId, password }) },
  async ({ userId: id, password: newPassword }, admin) => {
    await resetPassword({ db: await getDb(), actorId: admin.id, id, password: newPassword });
    revalidatePath('/admin/users');
    return { id };
  },
);

export const unlockUser = action({ permission: 'users:manage', messages, input: z.object({ userId }) }, async ({ userId: id }, admin) => {
  await unlockAccount({ db: await getDb(), actorId: admin.id, id });
  revalidatePath('/admin/users');
  return { id };
});
