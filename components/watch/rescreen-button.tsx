'use client';

// "Re-screen now" on a watch alert: the server copies the watched case as of today, starts the
// run and opens it; a refusal (the run limit, a case no longer there) is said here.
import { rescreenAlert } from '@/app/(signed-in)/inbox/actions';
import { ActionOutcome } from '@/components/forms/action-outcome';
import { useActionForm } from '@/components/forms/use-action-form';
import { Button } from '@/components/ui/button';
import type { Dictionary, Messages } from '@/lib/i18n';
import { useT } from '@/lib/i18n/client';
import { runMessages } from '@/lib/i18n/messages/run';
import { watchMessages } from '@/lib/i18n/messages/watch';

const tables = [watchMessages, runMessages] as Messages<Dictionary>[];

export function RescreenButton({ alertId }: { alertId: string }) {
  const t = useT(watchMessages);
  const [state, submit, pending] = useActionForm(rescreenAlert);
  return (
    <form action={submit} className="space-y-2">
      <input type="hidden" name="alert_id" value={alertId} />
      <Button type="submit" size="sm" disabled={pending} title={t('rescreenHint')} data-testid="watch-rescreen">
        {t('rescreen')}
      </Button>
      {state && !state.ok ? <ActionOutcome state={state} messages={tables} success="" /> : null}
    </form>
  );
}
