'use client';
// The run's output language for the labels inside its content (lib/i18n/content-language.ts): the
// run page and the comparison set it around a run's transcript, panels and tree; outside one, the
// interface language stands in.
import { createContext, useCallback, useContext, type ReactNode } from 'react';
import type { Locale } from '@/lib/i18n';
import { useLocale } from '@/lib/i18n/client';
import { factorName } from '@/lib/i18n/content-language';

const ContentLanguageContext = createContext<Locale | null>(null);

export function ContentLanguage({ language, children }: { language: Locale; children: ReactNode }) {
  return <ContentLanguageContext.Provider value={language}>{children}</ContentLanguageContext.Provider>;
}

export function useContentLanguage(): Locale {
  const locale = useLocale();
  return useContext(ContentLanguageContext) ?? locale;
}

/** Factor ids to their labels in the run's language. */
export function useFactorName(): (id: string) => string {
  const language = useContentLanguage();
  return useCallback((id: string) => factorName(id, language), [language]);
}
