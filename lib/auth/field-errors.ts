// A server action's input errors by field, as forms show them under each field. Two checks of one
// field may fail with the same message (a format check and a range check both saying "Enter a
// loan amount greater than zero."): each message is listed once, in the order it was found.
import { z } from 'zod';

export function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  const flat = z.flattenError(error).fieldErrors as Record<string, string[] | undefined>;
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(flat)) if (messages?.length) out[field] = [...new Set(messages)];
  return out;
}
