import Link from 'next/link';
import { signOutAction } from '@/app/(auth)/login/actions';
import { ActionForm } from '@/components/shell/action-form';
import { InboxLink } from '@/components/shell/inbox-link';
import { LanguageSwitch } from '@/components/shell/language-switch';
import { NavLinks } from '@/components/shell/nav-links';
import { Badge } from '@/components/ui/layout';
import { NAV } from '@/lib/auth/permissions';
import type { SessionUser } from '@/lib/auth/session';
import { getT } from '@/lib/i18n/server';
import { roleKey, shellMessages } from '@/lib/i18n/messages/shell';

/** `unread`: the user's unread inbox items, counted by the signed-in layout (app/(signed-in)/layout.tsx). */
export async function AppHeader({ user, unread }: { user: SessionUser; unread: number }) {
  const t = await getT(shellMessages);
  return (
    <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
        <Link href="/" className="text-lg font-semibold tracking-tight text-blue-800 dark:text-blue-300">
          Crosscheck
        </Link>
        <nav aria-label={t('mainNav')} className="min-w-0 flex-1" data-testid="main-nav">
          <NavLinks items={NAV[user.role]} />
        </nav>
        {/* On a phone the controls wrap onto a line of their own rather than run off the screen. */}
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm">
          <InboxLink unread={unread} />
          <span className="min-w-0 break-words" data-testid="current-user">
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
