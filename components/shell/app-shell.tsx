import type { ReactNode } from 'react';
import { AppHeader } from '@/components/shell/app-header';
import { requireUser } from '@/lib/auth/session';

/** The signed-in frame shared by every audience's route group. */
export async function AppShell({ children }: { children: ReactNode }) {
  const user = await requireUser();
  return (
    <>
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2 dark:focus:bg-zinc-900">
        Skip to content
      </a>
      <AppHeader user={user} />
      <main id="main" className="mx-auto max-w-7xl px-4 py-8">
        {children}
      </main>
    </>
  );
}
