'use client';

import { useActionState } from 'react';
import type { ActionResult } from '@/lib/auth/action';

/** useActionState for a wrapped server action: the latest typed result, a form action, pending. */
export function useActionForm<T>(serverAction: (form: FormData) => Promise<ActionResult<T>>) {
  return useActionState<ActionResult<T> | null, FormData>((_prev, form) => serverAction(form), null);
}

/** A field's errors, through `translate` (see useServerText) when given. */
export function fieldErrors(state: ActionResult<unknown> | null, field: string, translate?: (text: string) => string) {
  const errors = state && !state.ok ? state.fieldErrors?.[field] : undefined;
  return translate ? errors?.map(translate) : errors;
}
