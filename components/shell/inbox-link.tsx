'use client';
// The header's inbox link and its unread count, kept true across tabs: a tab that reads an item
// (its count comes back lower from the server) tells the others over a BroadcastChannel, and a tab
// coming back into view asks the server again (GET /api/me). The page title carries the count too,
// as "(2) Inbox · Crosscheck", so a tab in the background shows it; an inbox page open in another
// tab refreshes its list when the count changes.
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { useT } from '@/lib/i18n/client';
import { inboxMessages } from '@/lib/i18n/messages/inbox';

const CHANNEL = 'crosscheck-inbox';
const COUNT_PREFIX = /^\(\d+\+?\) /;

const shown = (n: number) => (n > 99 ? '99+' : String(n));

/** The document's title with the unread count in front (none when there is nothing unread). */
export function titleWithCount(title: string, unread: number): string {
  const base = title.replace(COUNT_PREFIX, '');
  return unread > 0 ? `(${shown(unread)}) ${base}` : base;
}

export function InboxLink({ unread: fromServer }: { unread: number }) {
  const t = useT(inboxMessages);
  // The count shown, and the server's count it was last reset to: a new server count (this tab
  // navigated, or read an item) replaces whatever the tab had heard.
  const [count, setCount] = useState({ unread: fromServer, server: fromServer });
  if (count.server !== fromServer) setCount({ unread: fromServer, server: fromServer });
  const unread = count.unread;
  const router = useRouter();
  const pathname = usePathname();
  const channel = useRef<BroadcastChannel | null>(null);
  const latest = useRef({ unread, onInbox: false });
  useEffect(() => {
    latest.current = { unread, onInbox: pathname === '/inbox' };
  }, [unread, pathname]);

  // The other tabs hear the server's latest count.
  useEffect(() => {
    channel.current?.postMessage({ unread: fromServer });
  }, [fromServer]);

  useEffect(() => {
    const heard = (n: number) => {
      if (n === latest.current.unread) return;
      setCount((c) => ({ ...c, unread: n }));
      // An inbox page whose items another tab read shows them read.
      if (latest.current.onInbox) router.refresh();
    };
    const ask = async () => {
      try {
        const response = await fetch('/api/me', { cache: 'no-store' });
        if (!response.ok) return;
        const { unread: n } = (await response.json()) as { unread?: unknown };
        if (typeof n === 'number') heard(n);
      } catch {
        // Offline or signed out: the count stays as it was until the next look.
      }
    };
    const bc = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(CHANNEL);
    channel.current = bc;
    bc?.addEventListener('message', (e: MessageEvent<{ unread?: unknown }>) => {
      if (typeof e.data?.unread === 'number') heard(e.data.unread);
    });
    const visible = () => {
      if (document.visibilityState === 'visible') void ask();
    };
    document.addEventListener('visibilitychange', visible);
    window.addEventListener('focus', visible);
    return () => {
      bc?.close();
      channel.current = null;
      document.removeEventListener('visibilitychange', visible);
      window.removeEventListener('focus', visible);
    };
  }, [router]);

  // The title: set now, and again whenever a navigation writes a new one.
  useEffect(() => {
    const apply = () => {
      const wanted = titleWithCount(document.title, unread);
      if (document.title !== wanted) document.title = wanted;
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, [unread, pathname]);

  return (
    // One accessible name for the link and its count ("Inbox, 3 unread notifications"): the visible badge is hidden from screen readers.
    <Link
      href="/inbox"
      aria-label={`${t('headerLink')}, ${unread === 0 ? t('unreadNone') : unread === 1 ? t('unreadOne') : t('unreadMany', { count: unread })}`}
      className="inline-flex items-center gap-1.5 rounded-md px-2 py-1 font-medium text-zinc-800 underline-offset-2 hover:underline dark:text-zinc-200"
      data-testid="inbox-link"
      data-unread={unread}
    >
      {t('headerLink')}
      {unread > 0 ? (
        <span
          aria-hidden="true"
          className="rounded-full bg-blue-700 px-1.5 py-0.5 text-xs font-semibold leading-none text-white dark:bg-blue-400 dark:text-zinc-950"
          data-testid="inbox-unread-count"
        >
          {shown(unread)}
        </span>
      ) : null}
    </Link>
  );
}
