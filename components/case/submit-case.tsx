'use client';

import { submitCase } from '@/app/(signed-in)/(workspace)/cases/[id]/actions';
import { ActionOutcome } from '@/components/forms/action-outcome';
import { useActionForm } from '@/components/forms/use-action-form';
import { Button } from '@/components/ui/button';
import { useT } from '@/lib/i18n/client';
import { casesMessages } from '@/lib/i18n/messages/cases';

export function SubmitCase({ caseId }: { caseId: string }) {
  const t = useT(casesMessages);
  const [state, formAction, pending] = useActionForm(submitCase);
  return (
    <form action={formAction} className="space-y-3" data-testid="submit-case-form">
      <input type="hidden" name="case_id" value={caseId} />
      <p className="text-sm text-zinc-700 dark:text-zinc-300">{t('submitHint')}</p>
      <ActionOutcome state={state} success={t('submitted')} />
      <Button type="submit" disabled={pending} data-testid="submit-case">
        {pending ? t('submitting') : t('submit')}
      </Button>
    </form>
  );
}
