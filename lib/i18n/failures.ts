// Why a step or a run stopped. The engine says it as a phrase of lib/i18n/messages/run-failures.ts
// (a key and its values; a value may be a phrase itself, or an error's own text), and keeps two
// forms: the English text (run_steps.error, runs.error: logs, the CLI, exports, the JSON API) and
// the phrase (error_phrase), from which the run page writes the reader's language, live and after
// a reload alike. A reason stored before phrases were kept, or an error from a library, has no
// phrase and is shown as it was written.
import { isPhrase, phraseText, type Locale, type Phrase, type PhraseValues } from '@/lib/i18n';
import { runFailureMessages, type RunFailureKey } from '@/lib/i18n/messages/run-failures';

const TABLES = [runFailureMessages];

/** A reason as a phrase of the run-failure table. */
export function stopPhrase(key: RunFailureKey, values?: PhraseValues): Phrase {
  return values ? { key, values } : { key };
}

/** A phrase of the run-failure table in `locale` (English: the stored text). */
export function reasonText(phrase: Phrase, locale: Locale = 'en'): string {
  return phraseText(TABLES, locale, phrase);
}

/** The English reason, as the engine stores and sends it. */
export function stopReason(key: RunFailureKey, values?: PhraseValues): string {
  return reasonText(stopPhrase(key, values));
}

/** An error that says why in a phrase: its message is the phrase's English. */
export class ReasonError extends Error {
  constructor(readonly phrase: Phrase) {
    super(reasonText(phrase));
  }
}

/** What an error says, for a phrase's value: its phrase when it has one, else its own text. */
export function reasonOf(err: unknown): string | Phrase {
  if (err && typeof err === 'object' && 'phrase' in err && isPhrase((err as { phrase: unknown }).phrase)) return (err as { phrase: Phrase }).phrase;
  return err instanceof Error ? err.message : String(err);
}

/**
 * A stored reason in `locale`: from its phrase when it was kept with one, else the text as it was
 * written (English, or an older reason). No text is matched back to a key.
 */
export function failureText(text: string, locale: Locale, phrase?: Phrase | null): string {
  return phrase ? reasonText(phrase, locale) : text;
}
