// What reading a document says when it cannot: a phrase of lib/i18n/messages/documents.ts that
// names the file, with its English text for the audit log and the JSON API. Thrown as a
// DocumentProblem so the worker can hand it back across the thread boundary as plain data.
import { phraseText, type Dictionary, type Messages, type Phrase, type PhraseValues } from '@/lib/i18n';
import { documentMessages } from '@/lib/i18n/messages/documents';
import { importMessages } from '@/lib/i18n/messages/import';

/** The tables a document problem's phrases come from: its own, and the import's for a field's check. */
export const DOCUMENT_TABLES = [documentMessages, importMessages] as unknown as Messages<Dictionary>[];

export type DocumentKey = keyof typeof documentMessages.en;

export class DocumentProblem extends Error {
  readonly phrase: Phrase;
  constructor(key: DocumentKey, values?: PhraseValues) {
    const phrase = values ? { key, values } : { key };
    super(phraseText(DOCUMENT_TABLES, 'en', phrase));
    this.name = 'DocumentProblem';
    this.phrase = phrase;
  }

  /** The problem again from its data (the worker thread's answer). */
  static fromData(data: ProblemData): DocumentProblem {
    return new DocumentProblem(data.phrase.key as DocumentKey, data.phrase.values);
  }
}

/** A problem as data (the worker's answer, the route's JSON): its English and its phrase. */
export type ProblemData = { message: string; phrase: Phrase };
export const problemData = (p: DocumentProblem): ProblemData => ({ message: p.message, phrase: p.phrase });
