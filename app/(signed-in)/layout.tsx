import type { ReactNode } from 'react';
import { AppShell } from '@/components/shell/app-shell';
import { requireUser } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { countUnreadNotifications } from '@/lib/db/queries/notifications';

// Every page below needs a session; route groups inside split the pages by audience. The header's
// inbox count is read here (components do not touch the database); marking items read
// revalidates this layout (app/(signed-in)/inbox/actions.ts).
export default async function SignedInLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const unread = await countUnreadNotifications({ db: await getDb(), userId: user.id });
  return <AppShell unread={unread}>{children}</AppShell>;
}
