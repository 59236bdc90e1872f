import { route } from '@/lib/auth/route';
import { getDb } from '@/lib/db/client';
import { countUnreadNotifications } from '@/lib/db/queries/notifications';

export const dynamic = 'force-dynamic';

/** The signed-in user as the server sees them now (role changes apply at once), with their unread inbox count (the header's). */
export const GET = route('app:use', async (_request, user) => {
  const unread = await countUnreadNotifications({ db: await getDb(), userId: user.id });
  return Response.json({ id: user.id, email: user.email, name: user.name, role: user.role, demo: user.demo, unread });
});
