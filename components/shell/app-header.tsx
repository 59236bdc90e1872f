import Link from 'next/link';
import { signOutAction } from '@/app/(auth)/login/actions';
import { ActionForm } from '@/components/shell/action-form';
import { NavLinks } from '@/components/shell/nav-links';
import { Badge } from '@/components/ui/layout';
import { NAV, ROLE_LABELS } from '@/lib/auth/permissions';
import type { SessionUser } from '@/lib/auth/session';

export function AppHeader({ user }: { user: SessionUser }) {
  return (
    <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
        <Link href="/" className="text-lg font-semibold tracking-tight text-blue-800 dark:text-blue-300">
          Crosscheck
        </Link>
        <nav aria-label="Main" className="flex-1" data-testid="main-nav">
          <NavLinks items={NAV[user.role]} />
        </nav>
        <div className="flex items-center gap-3 text-sm">
          <span data-testid="current-user">
            <span className="font-medium">{user.name}</span>{' '}
            <span className="text-zinc-600 dark:text-zinc-400">· {ROLE_LABELS[user.role]}</span>
          </span>
          {user.demo ? <Badge tone="amber">Demo account</Badge> : null}
          <ActionForm action={signOutAction}>
            <button
              type="submit"
              className="rounded-md px-2 py-1 text-zinc-700 underline underline-offset-2 dark:text-zinc-300"
              data-testid="sign-out"
            >
              Sign out
            </button>
          </ActionForm>
        </div>
      </div>
    </header>
  );
}
