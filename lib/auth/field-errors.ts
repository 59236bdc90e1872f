// A server action's input errors by field, as forms show them under each field. Two checks of one
// field may fail with the same message (a format check and a range check both saying "Enter a
// loan amount greater than zero."): each message is listed once, in the order it was found.
// A message is a key of the form's table, or a phrase with values (lib/i18n, phraseMessage) that
// the action wrapper renders in the reader's language.
import { z } from 'zod';
import type { FieldError } from '@/lib/errors';
import { phraseOfMessage } from '@/lib/i18n';

export function fieldErrorsOf(error: z.ZodError): Record<string, FieldError[]> {
  const flat = z.flattenError(error).fieldErrors as Record<string, string[] | undefined>;
  const out: Record<string, FieldError[]> = {};
  for (const [field, messages] of Object.entries(flat)) if (messages?.length) out[field] = [...new Set(messages)].map((m) => phraseOfMessage(m) ?? m);
  return out;
}
