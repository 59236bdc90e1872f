import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import '@fontsource-variable/inter';
import './globals.css';
import { LocaleProvider } from '@/lib/i18n/client';
import { shellMessages } from '@/lib/i18n/messages/shell';
import { getLocale, getT } from '@/lib/i18n/server';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getT(shellMessages);
  return { title: { default: 'Crosscheck', template: '%s · Crosscheck' }, description: t('description') };
}

// The locale is provided here, not only in the signed-in frame: the sign-in page and the
// error pages speak the reader's language too.
export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = await getLocale();
  return (
    <html lang={locale}>
      <body className="min-h-screen font-sans">
        <LocaleProvider locale={locale}>{children}</LocaleProvider>
      </body>
    </html>
  );
}
