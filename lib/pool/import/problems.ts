// What the import says about a row, as a phrase of lib/i18n/messages/import.ts with its English:
// the command line, the audit log and the JSON API read `message`; the Import page and the
// evidence form show `phrase` in the reader's language.
import { phraseMessage, phraseOfMessage, phraseText, type Phrase, type PhraseValues } from '@/lib/i18n';
import { importMessages } from '@/lib/i18n/messages/import';

export type ImportKey = keyof typeof importMessages.en;
export type Problem = { message: string; phrase?: Phrase };

export function problem(key: ImportKey, values?: PhraseValues): Required<Problem> {
  const phrase = values ? { key, values } : { key };
  return { message: phraseText([importMessages], 'en', phrase), phrase };
}

/** A problem as a zod check's message (zod keeps only strings). */
export const issueMessage = (key: ImportKey, values?: PhraseValues) => phraseMessage(key, values);

/** A zod issue's message as a problem: the phrase it carries, or zod's own (English) text. */
export function problemOfIssue(message: string): Problem {
  const phrase = phraseOfMessage(message);
  return phrase ? { message: phraseText([importMessages], 'en', phrase), phrase } : { message };
}
