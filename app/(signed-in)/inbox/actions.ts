'use server';
// The inbox's one action: mark one of the signed-in user's items read, or all of them. The
// queries match on the user's own id, so an id of someone else's item changes nothing.
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { action } from '@/lib/auth/action';
import { getDb } from '@/lib/db/client';
import { markAllNotificationsRead, markNotificationRead } from '@/lib/db/queries/notifications';

const markInput = z.object({ target: z.union([z.uuid(), z.literal('all')]) });

export const markNotificationsRead = action({ permission: 'app:use', input: markInput }, async ({ target }, user) => {
  const db = await getDb();
  const marked = target === 'all' ? await markAllNotificationsRead({ db, userId: user.id }) : Number(await markNotificationRead({ db, userId: user.id, id: target }));
  // The header's count is on every page.
  revalidatePath('/', 'layout');
  return { marked };
});
