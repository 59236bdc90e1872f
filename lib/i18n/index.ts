// Interface language (English or Korean), independent of a run's output language. Each feature
// keeps its strings in `messages/<feature>.ts` as `{ en: {...}, ko: {...} }`; the Korean table
// must have exactly the English keys (the type says so). Server components call
// `getT(messages)`; client components call `useT(messages)` under <LocaleProvider>.
export const LOCALES = ['en', 'ko'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';
/** The cookie the header switch writes. Not httpOnly: the choice is not a secret. */
export const LOCALE_COOKIE = 'cc-locale';

export type Dictionary = Record<string, string>;
/** A feature's strings: Korean must cover every English key. */
export type Messages<D extends Dictionary> = { en: D; ko: { [K in keyof D]: string } };

export function defineMessages<D extends Dictionary>(messages: Messages<D>): Messages<D> {
  return messages;
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** `{name}` placeholders filled from `values`; a missing value leaves the placeholder visible. */
export function format(template: string, values?: Record<string, string | number>) {
  if (!values) return template;
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

export type Translate<D extends Dictionary> = (key: keyof D & string, values?: Record<string, string | number>) => string;

export function translator<D extends Dictionary>(messages: Messages<D>, locale: Locale): Translate<D> {
  const table = messages[locale] as Record<string, string>;
  return (key, values) => format(table[key] ?? (messages.en as Record<string, string>)[key] ?? key, values);
}
