'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { NavItem } from '@/lib/auth/permissions';
import { useT } from '@/lib/i18n/client';
import { NAV_KEYS, shellMessages } from '@/lib/i18n/messages/shell';

export function NavLinks({ items }: { items: NavItem[] }) {
  const pathname = usePathname();
  const t = useT(shellMessages);
  return (
    <ul className="flex flex-wrap gap-1">
      {items.map((item) => {
        const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
        // NAV keeps English labels; an entry added without a translation still shows its label.
        const key = NAV_KEYS[item.href];
        return (
          <li key={item.href}>
            <Link
              href={item.href}
              aria-current={active ? 'page' : undefined}
              className={`rounded-md px-3 py-1.5 text-sm font-medium ${
                active
                  ? 'bg-blue-50 text-blue-900 dark:bg-blue-950 dark:text-blue-100'
                  : 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800'
              }`}
            >
              {key ? t(key) : item.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
