'use client';
// The header's interface-language switch: writes the cookie the server reads and re-renders.
import { useRouter } from 'next/navigation';
import { useTransition } from 'react';
import { LOCALE_COOKIE, type Locale } from '@/lib/i18n';
import { useLocale, useT } from '@/lib/i18n/client';
import { shellMessages } from '@/lib/i18n/messages/shell';

const LABELS: Record<Locale, string> = { en: 'English', ko: '한국어' };

export function LanguageSwitch() {
  const locale = useLocale();
  const t = useT(shellMessages);
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  return (
    <label className="flex items-center gap-1">
      <span className="sr-only">{t('language')}</span>
      <select
        data-testid="language-switch"
        value={locale}
        disabled={pending}
        onChange={(e) => {
          document.cookie = `${LOCALE_COOKIE}=${e.target.value}; path=/; max-age=31536000; samesite=lax`;
          startTransition(() => router.refresh());
        }}
        className="rounded-md border border-zinc-300 bg-white px-1.5 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900"
      >
        {(Object.keys(LABELS) as Locale[]).map((l) => (
          <option key={l} value={l} lang={l}>
            {LABELS[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
