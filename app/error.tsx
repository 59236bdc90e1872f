'use client';

import { useT } from '@/lib/i18n/client';
import { shellMessages } from '@/lib/i18n/messages/shell';

// Never a stack trace: the digest lets an operator find the logged error.
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useT(shellMessages);
  return (
    <main className="mx-auto max-w-xl px-4 py-20 text-center" role="alert">
      <h1 className="text-2xl font-semibold">{t('errorTitle')}</h1>
      <p className="mt-2 text-zinc-600 dark:text-zinc-400">
        {t('errorBody')} <code className="font-mono">{error.digest ?? t('errorNoReference')}</code>
      </p>
      <button type="button" onClick={reset} className="mt-6 rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800">
        {t('tryAgain')}
      </button>
    </main>
  );
}
