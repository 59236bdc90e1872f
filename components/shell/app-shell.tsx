import Link from 'next/link';
import type { ReactNode } from 'react';
import { AppHeader } from '@/components/shell/app-header';
import { QueryProvider } from '@/components/shell/query-provider';
import { requireUser } from '@/lib/auth/session';
import { aboutMessages } from '@/lib/i18n/messages/about';
import { shellMessages } from '@/lib/i18n/messages/shell';
import { getT } from '@/lib/i18n/server';

/** The signed-in frame shared by every audience's route group (the locale comes from the root layout). */
export async function AppShell({ children, unread }: { children: ReactNode; unread: number }) {
  const [user, t, about] = await Promise.all([requireUser(), getT(shellMessages), getT(aboutMessages)]);
  return (
    <QueryProvider>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2 dark:focus:bg-zinc-900"
      >
        {t('skipToContent')}
      </a>
      <AppHeader user={user} unread={unread} />
      <main id="main" className="mx-auto max-w-7xl px-4 py-8">
        {children}
      </main>
      {/* The system card, for every role (app/(signed-in)/about). */}
      <footer className="mx-auto max-w-7xl border-t border-zinc-200 px-4 py-4 text-sm dark:border-zinc-800">
        <Link href="/about" className="text-blue-800 underline underline-offset-2 dark:text-blue-300" data-testid="about-link">
          {about('footerLink')}
        </Link>
      </footer>
    </QueryProvider>
  );
}
