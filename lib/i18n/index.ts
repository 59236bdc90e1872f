// Interface language (English or Korean), independent of a run's output language. Each feature
// keeps its strings in `messages/<feature>.ts` as `{ en: {...}, ko: {...} }`; the Korean table
// must have exactly the English keys (the type says so). Server components call
// `getT(messages)`; client components call `useT(messages)` under <LocaleProvider>.
//
// Messages are ICU MessageFormat, formatted by next-intl (use-intl's createTranslator, on
// intl-messageformat): `{name}` fills a value, `{n, number}` writes a count as 1,234,
// `{n, plural, one {# row} other {# rows}}` picks the English form (Korean writes `{n, number}`
// or `#`), and `{d, date, medium}` writes a date. An apostrophe before `{` or `}` quotes it
// (write `'{'` for a literal brace); `<…>` would be read as a rich-text tag, so tables avoid it.
import { createTranslator } from 'next-intl';

export const LOCALES = ['en', 'ko'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';
/** The cookie the header switch writes. Not httpOnly: the choice is not a secret. */
export const LOCALE_COOKIE = 'cc-locale';
/** Dates in messages are written in UTC, as the interface shows times (components/lists/format.ts), on the server and in the browser alike. */
export const TIME_ZONE = 'UTC';

export type Dictionary = Record<string, string>;
/** A feature's strings: Korean must cover every English key. */
export type Messages<D extends Dictionary> = { en: D; ko: { [K in keyof D]: string } };

export function defineMessages<D extends Dictionary>(messages: Messages<D>): Messages<D> {
  return messages;
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export type Values = Record<string, string | number | Date>;
export type Translate<D extends Dictionary> = (key: keyof D & string, values?: Values) => string;

/**
 * What server code says to a user, as a key of one table and its values rather than a sentence:
 * the screen translates it in the reader's language, while logs, the command line and the JSON
 * API render the English table. A phrase travels to the browser (an import's rejected rows);
 * its table is the one the screen names.
 */
export type { Phrase, PhraseValues } from '@/lib/domain/phrase';
import type { Phrase, PhraseValues } from '@/lib/domain/phrase';
/**
 * A phrase with the table it is a key of, for server code (AppError, action results): the
 * action wrapper renders it in the reader's language, logs and the JSON API in English. It holds
 * the table, so it never goes to the browser as it is.
 */
export type Said = Phrase & { readonly messages: Messages<Dictionary> };

/** A phrase of `messages`, to throw or return from server code. */
export function say<D extends Dictionary>(messages: Messages<D>, key: keyof D & string, values?: PhraseValues): Said {
  return { messages: messages as unknown as Messages<Dictionary>, key, ...(values ? { values } : {}) };
}

/** A said phrase in `locale` (English for logs, the command line and the JSON API). */
export function sayText(said: Said, locale: Locale = 'en'): string {
  return phraseText([said.messages], locale, said);
}

export function isSaid(value: unknown): value is Said {
  return !!value && typeof value === 'object' && 'key' in value && 'messages' in value;
}

// next-intl reads `a.b` as a nested key; a few keys hold a dot (report.ts's `check.…`).
const DOT = '\u2024';
const keyOf = (key: string) => key.replaceAll('.', DOT);
const dotted = (table: Dictionary) => Object.fromEntries(Object.entries(table).map(([k, v]) => [keyOf(k), v]));

const translators = new WeakMap<object, Partial<Record<Locale, Translate<Dictionary>>>>();

/**
 * The table's messages in `locale`, formatted as ICU messages. A key missing from the table
 * falls back to the English text, then to the key; a message that cannot be formatted (a value
 * missing) is written with its placeholders visible instead of failing the page.
 */
export function translator<D extends Dictionary>(messages: Messages<D>, locale: Locale): Translate<D> {
  const cached = translators.get(messages)?.[locale];
  if (cached) return cached as Translate<D>;
  const table = messages[locale] as Dictionary;
  const english = messages.en as Dictionary;
  let failed = false;
  const t = createTranslator({
    locale,
    timeZone: TIME_ZONE,
    messages: dotted({ ...english, ...table }),
    onError: () => {
      failed = true;
    },
    getMessageFallback: ({ key }) => {
      const original = key.replaceAll(DOT, '.');
      return table[original] ?? english[original] ?? original;
    },
  }) as unknown as (key: string, values?: Values) => string;
  const translate: Translate<D> = (key, values) => {
    if (!Object.hasOwn(table, key) && !Object.hasOwn(english, key)) return key;
    failed = false;
    const text = t(keyOf(key), values);
    if (failed) console.error(`i18n: cannot format ${locale}.${key}`);
    return text;
  };
  translators.set(messages, { ...translators.get(messages), [locale]: translate as Translate<Dictionary> });
  return translate;
}

/** Is `value` a phrase (a key and perhaps values), whatever carries it. */
export const isPhrase = (value: unknown): value is Phrase => !!value && typeof value === 'object' && typeof (value as Phrase).key === 'string';

/**
 * A phrase in `locale`, looked up in the first of `tables` that has its key (a value that is a
 * phrase too, in the same tables); a key no table has is shown as it is: it is text already.
 */
export function phraseText(tables: readonly Messages<Dictionary>[], locale: Locale, phrase: Phrase): string {
  const table = tables.find((m) => Object.hasOwn(m.en, phrase.key));
  if (!table) return phrase.key;
  const values = phrase.values && Object.fromEntries(Object.entries(phrase.values).map(([k, v]) => [k, isPhrase(v) ? phraseText(tables, locale, v) : v]));
  return translator(table, locale)(phrase.key, values);
}

// Zod keeps only a string as an issue's message: a phrase travels in it, marked so that no text
// can be taken for one, and is decoded where the issues are read (lib/auth/field-errors.ts, the
// import's rejected rows).
const PHRASE_MARK = '\u0000phrase:';

/** A phrase as a zod issue's message. */
export function phraseMessage(key: string, values?: PhraseValues): string {
  return PHRASE_MARK + JSON.stringify(values ? { key, values } : { key });
}

/** The phrase a zod issue's message carries, if it carries one. */
export function phraseOfMessage(message: string): Phrase | null {
  if (!message.startsWith(PHRASE_MARK)) return null;
  const phrase: unknown = JSON.parse(message.slice(PHRASE_MARK.length));
  return isPhrase(phrase) ? phrase : null;
}

/** A message of the English table, for logs, the command line, the JSON API and stored text. */
export function english<D extends Dictionary>(messages: Messages<D>, key: keyof D & string, values?: Values): string {
  return translator(messages, 'en')(key, values);
}
