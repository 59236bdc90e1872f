// The server's check of the cover note sent with a submission (app/(signed-in)/(workspace)/cases/[id]/actions.ts).
import { z } from 'zod';
import { normalizeNote, SUBMISSION_NOTE_MAX } from '@/lib/domain/submission';

/**
 * The note as the server takes it: normalized (normalizeNote), blank or absent as null. Too long
 * is refused with the message key `errNoteTooLong` (lib/i18n/messages/cases.ts), never cut.
 */
export const submissionNoteInput = z
  .preprocess((v) => (typeof v === 'string' ? normalizeNote(v) : v), z.string('errNoteTooLong').max(SUBMISSION_NOTE_MAX, 'errNoteTooLong').optional())
  .transform((v) => (v ? v : null));
