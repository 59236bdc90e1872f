'use client';
// The interface language in client components, provided once by the signed-in layout.
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { DEFAULT_LOCALE, translator, type Dictionary, type Locale, type Messages } from '@/lib/i18n';

const LocaleContext = createContext<Locale>(DEFAULT_LOCALE);

export function LocaleProvider({ locale, children }: { locale: Locale; children: ReactNode }) {
  return <LocaleContext.Provider value={locale}>{children}</LocaleContext.Provider>;
}

export function useLocale() {
  return useContext(LocaleContext);
}

export function useT<D extends Dictionary>(messages: Messages<D>) {
  const locale = useLocale();
  return useMemo(() => translator(messages, locale), [messages, locale]);
}
