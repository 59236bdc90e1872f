// The cover note an RM may send with a case to the credit committee (cases.submission_note): its
// bound, shared by the submit form (the textarea's maxLength; this module stays free of zod for
// the browser) and the server's check (lib/domain/submission-input.ts).

/** Characters a cover note may have, after trimming and with line breaks counted as one. */
export const SUBMISSION_NOTE_MAX = 2000;

/** Line breaks as "\n" (a browser sends a textarea's as "\r\n", which its maxLength counts as one), trimmed. */
export function normalizeNote(text: string) {
  return text.replace(/\r\n?/g, '\n').trim();
}
