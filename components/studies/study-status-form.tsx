'use client';

import { changeStudyStatus } from '@/app/(signed-in)/(admin)/admin/studies/actions';
import { ActionOutcome } from '@/components/forms/action-outcome';
import { useActionForm } from '@/components/forms/use-action-form';
import { Button } from '@/components/ui/button';
import type { StudyStatus } from '@/lib/domain/vocabulary';
import { useT } from '@/lib/i18n/client';
import { studiesMessages } from '@/lib/i18n/messages/studies';

/** Draft → open → closed; the server refuses any other step. */
export function StudyStatusForm({ studyId, status }: { studyId: string; status: StudyStatus }) {
  const t = useT(studiesMessages);
  const [state, formAction, pending] = useActionForm(changeStudyStatus);
  // The page re-renders with the new status after the action, so the message follows the result.
  const outcome = <ActionOutcome state={state} success={state?.ok && state.data.status === 'open' ? t('openedOk') : t('closedOk')} />;
  if (status === 'closed') return outcome;
  const next = status === 'draft' ? 'open' : 'closed';
  return (
    <div className="space-y-2">
      <form action={formAction}>
        <input type="hidden" name="studyId" value={studyId} />
        <input type="hidden" name="status" value={next} />
        <Button type="submit" variant={next === 'open' ? 'primary' : 'danger'} disabled={pending} data-testid={next === 'open' ? 'open-study' : 'close-study'}>
          {next === 'open' ? (pending ? t('opening') : t('openStudy')) : pending ? t('closing') : t('closeStudy')}
        </Button>
      </form>
      {outcome}
    </div>
  );
}
