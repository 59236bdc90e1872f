import { Alert } from '@/components/ui/layout';

/** The latest result of a form's server action: a success line, or the error's message. */
export function ActionOutcome({ state, success }: { state: { ok: boolean; message?: string } | null; success: string }) {
  if (!state) return null;
  return state.ok ? <Alert tone="success">{success}</Alert> : <Alert>{state.message}</Alert>;
}
