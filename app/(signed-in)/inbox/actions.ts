'use server';
// The inbox's actions: re-screen from a watch alert, and mark one of the signed-in user's items read, or all of them. The
// queries match on the user's own id, so an id of someone else's item changes nothing.
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { action } from '@/lib/auth/action';
import { getDb } from '@/lib/db/client';
import { markAllNotificationsRead, markNotificationRead } from '@/lib/db/queries/notifications';
import { rescreenFromAlert } from '@/lib/jobs/watch';

const markInput = z.object({ target: z.union([z.uuid(), z.literal('all')]) });

export const markNotificationsRead = action({ permission: 'app:use', input: markInput }, async ({ target }, user) => {
  const db = await getDb();
  const marked =
    target === 'all' ? await markAllNotificationsRead({ db, userId: user.id }) : Number(await markNotificationRead({ db, userId: user.id, id: target }));
  // The header's count is on every page.
  revalidatePath('/', 'layout');
  return { marked };
});

/** Re-screen from a watch alert: only the alert of one's own watch (lib/jobs/watch.ts checks it). */
export const rescreenAlert = action({ permission: 'watch:write', input: z.object({ alert_id: z.uuid() }) }, async ({ alert_id }, user) => {
  const { runId } = await rescreenFromAlert({ db: await getDb(), alertId: alert_id, actorId: user.id });
  revalidatePath('/inbox');
  redirect(`/runs/${runId}`);
});
