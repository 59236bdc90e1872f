'use client';

import { Alert } from '@/components/ui/layout';
import type { Dictionary, Messages } from '@/lib/i18n';
import { useLocale } from '@/lib/i18n/client';
import { localizer } from '@/lib/i18n/localize';
import { errorMessages } from '@/lib/i18n/messages/errors';

/**
 * Server text in the reader's language: keys or English texts of `tables`, then the error
 * codes' default messages. Shared by forms for their messages and field errors.
 */
export function useServerText(...tables: Messages<Dictionary>[]) {
  // Cheap to build: each table's index is computed once (lib/i18n/localize.ts).
  return localizer([...tables, errorMessages as Messages<Dictionary>], useLocale());
}

/** The latest result of a form's server action: a success line, or the error's message. */
export function ActionOutcome({
  state,
  success,
  messages = [],
}: {
  state: { ok: boolean; message?: string } | null;
  success: string;
  /** Tables whose keys or English texts the action's message may be. */
  messages?: Messages<Dictionary>[];
}) {
  const text = useServerText(...messages);
  if (!state) return null;
  return state.ok ? <Alert tone="success">{success}</Alert> : <Alert>{state.message ? text(state.message) : null}</Alert>;
}
