// The interface language on the server: the header switch's cookie, else the browser's
// Accept-Language, else English.
import { cookies, headers } from 'next/headers';
import { DEFAULT_LOCALE, isLocale, LOCALE_COOKIE, translator, type Dictionary, type Locale, type Messages } from '@/lib/i18n';

export async function getLocale(): Promise<Locale> {
  const chosen = (await cookies()).get(LOCALE_COOKIE)?.value;
  if (isLocale(chosen)) return chosen;
  const accept = (await headers()).get('accept-language') ?? '';
  return /^\s*ko\b/i.test(accept) ? 'ko' : DEFAULT_LOCALE;
}

export async function getT<D extends Dictionary>(messages: Messages<D>) {
  return translator(messages, await getLocale());
}
