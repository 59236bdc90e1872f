'use client';

import { useActionState } from 'react';
import type { ActionResult } from '@/lib/auth/action';

type Submitted = { result: ActionResult<unknown> | null; values: Record<string, string> };

/**
 * useActionState for a wrapped server action that also keeps what was submitted: the form uses
 * the values as its fields' defaults (and as its key, to re-mount with them), so a rejected form
 * loses nothing. `errors(field)` maps the action's field-error keys through the form's translator.
 */
export function useKeptForm(serverAction: (form: FormData) => Promise<ActionResult<unknown>>, translate: (key: string) => string) {
  const [state, formAction, pending] = useActionState<Submitted, FormData>(
    async (_prev, form) => ({ result: await serverAction(form), values: Object.fromEntries([...form].map(([k, v]) => [k, String(v)])) }),
    { result: null, values: {} },
  );
  const failed = state.result && !state.result.ok ? state.result : null;
  const errors = (field: string) => failed?.fieldErrors?.[field]?.map(translate);
  return { values: state.values, failed, errors, formAction, pending, key: JSON.stringify(state.values) };
}
