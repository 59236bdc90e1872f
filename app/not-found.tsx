import Link from 'next/link';
import { shellMessages } from '@/lib/i18n/messages/shell';
import { getT } from '@/lib/i18n/server';

export default async function NotFound() {
  const t = await getT(shellMessages);
  return (
    <main className="mx-auto max-w-xl px-4 py-20 text-center">
      <p className="text-sm font-semibold text-zinc-600 dark:text-zinc-400">404</p>
      <h1 className="mt-2 text-2xl font-semibold">{t('notFoundTitle')}</h1>
      <Link className="mt-6 inline-block text-blue-800 underline dark:text-blue-300" href="/">
        {t('goHome')}
      </Link>
    </main>
  );
}
