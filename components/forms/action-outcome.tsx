'use client';

import { Alert } from '@/components/ui/layout';
import { phraseText, type Dictionary, type Messages, type Phrase } from '@/lib/i18n';
import { useLocale } from '@/lib/i18n/client';
import { errorMessages } from '@/lib/i18n/messages/errors';

/**
 * Server text in the reader's language, by key: a phrase (key and values) or a bare key of one
 * of `tables` or of the error codes' messages is translated; any other text came already in the
 * reader's language (the action wrapper renders phrases, lib/auth/action.ts) and is shown as is.
 */
export function useServerText(...tables: Messages<Dictionary>[]) {
  const locale = useLocale();
  const all = [...tables, errorMessages as Messages<Dictionary>];
  return (text: string | Phrase): string => phraseText(all, locale, typeof text === 'string' ? { key: text } : text);
}

/** The latest result of a form's server action: a success line, or the error's message. */
export function ActionOutcome({
  state,
  success,
  messages = [],
}: {
  state: { ok: boolean; message?: string } | null;
  success: string;
  /** Tables whose keys the action's message may be. */
  messages?: Messages<Dictionary>[];
}) {
  const text = useServerText(...messages);
  if (!state) return null;
  return state.ok ? <Alert tone="success">{success}</Alert> : <Alert>{state.message ? text(state.message) : null}</Alert>;
}
