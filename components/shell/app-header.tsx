import Link from 'next/link';
import { signOutAction } from '@/app/(auth)/login/actions';
import { ActionForm } from '@/components/shell/action-form';
import { LanguageSwitch } from '@/components/shell/language-switch';
import { NavLinks } from '@/components/shell/nav-links';
import { Badge } from '@/components/ui/layout';
import { NAV } from '@/lib/auth/permissions';
import type { SessionUser } from '@/lib/auth/session';
import { getT } from '@/lib/i18n/server';
import { inboxMessages } from '@/lib/i18n/messages/inbox';
import { roleKey, shellMessages } from '@/lib/i18n/messages/shell';

/** `unread`: the user's unread inbox items, counted by the signed-in layout (app/(signed-in)/layout.tsx). */
export async function AppHeader({ user, unread }: { user: SessionUser; unread: number }) {
  const [t, inbox] = await Promise.all([getT(shellMessages), getT(inboxMessages)]);
  return (
    <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
        <Link href="/" className="text-lg font-semibold tracking-tight text-blue-800 dark:text-blue-300">
          Crosscheck
        </Link>
        <nav aria-label={t('mainNav')} className="flex-1" data-testid="main-nav">
          <NavLinks items={NAV[user.role]} />
        </nav>
        <div className="flex items-center gap-3 text-sm">
          {/* One accessible name for the link and its count ("Inbox, 3 unread notifications"): the visible badge is hidden from screen readers. */}
          <Link
            href="/inbox"
            aria-label={`${inbox('headerLink')}, ${unread === 0 ? inbox('unreadNone') : unread === 1 ? inbox('unreadOne') : inbox('unreadMany', { count: unread })}`}
            className="inline-flex items-center gap-1.5 rounded-md px-2 py-1 font-medium text-zinc-800 underline-offset-2 hover:underline dark:text-zinc-200"
            data-testid="inbox-link"
          >
            {inbox('headerLink')}
            {unread > 0 ? (
              <span
                aria-hidden="true"
                className="rounded-full bg-blue-700 px-1.5 py-0.5 text-xs font-semibold leading-none text-white dark:bg-blue-400 dark:text-zinc-950"
                data-testid="inbox-unread-count"
              >
                {unread > 99 ? '99+' : unread}
              </span>
            ) : null}
          </Link>
          <span data-testid="current-user">
            <span className="font-medium">{user.name}</span> <span className="text-zinc-600 dark:text-zinc-400">· {t(roleKey(user.role))}</span>
          </span>
          <LanguageSwitch />
          {user.demo ? <Badge tone="amber">{t('demoAccount')}</Badge> : null}
          <ActionForm action={signOutAction}>
            <button type="submit" className="rounded-md px-2 py-1 text-zinc-700 underline underline-offset-2 dark:text-zinc-300" data-testid="sign-out">
              {t('signOut')}
            </button>
          </ActionForm>
        </div>
      </div>
    </header>
  );
}
