'use client';
// Submitting a case to the committee: the button asks first (components/ui/confirm-dialog.tsx),
// saying what cannot be undone, and takes an optional cover note the committee reads on the
// case page and in its queue. A refused submission keeps the note (useKeptForm).
import { submitCase } from '@/app/(signed-in)/(workspace)/cases/[id]/actions';
import { useKeptForm } from '@/components/case/use-kept-form';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TextAreaField } from '@/components/ui/field';
import { Alert } from '@/components/ui/layout';
import { SUBMISSION_NOTE_MAX } from '@/lib/domain/submission';
import { useT } from '@/lib/i18n/client';
import { casesMessages } from '@/lib/i18n/messages/cases';

export function SubmitCase({ caseId }: { caseId: string }) {
  const t = useT(casesMessages);
  const { values: v, failed, errors, formAction, pending, key } = useKeptForm(submitCase, (k) => t(k as 'errNoteTooLong'));
  const noteErrors = errors('note') ?? [];
  return (
    <form key={key} action={formAction} className="space-y-3" data-testid="submit-case-form">
      <input type="hidden" name="case_id" value={caseId} />
      <p className="text-sm text-zinc-700 dark:text-zinc-300">{t('submitHint')}</p>
      {/* The note's field sits in the closed dialog after a refusal: its error is repeated here. */}
      {noteErrors.length ? <Alert>{noteErrors.join(' ')}</Alert> : failed ? <Alert>{failed.message}</Alert> : null}
      <ConfirmDialog
        triggerLabel={t('submit')}
        pendingLabel={t('submitting')}
        pending={pending}
        triggerTestId="submit-case"
        title={t('confirmSubmitTitle')}
        irreversible={t('confirmSubmitText')}
        confirmLabel={t('confirmSubmit')}
        cancelLabel={t('cancel')}
        confirmTestId="submit-case-confirm"
      >
        <TextAreaField
          id="submission-note"
          name="note"
          label={t('coverNoteLabel')}
          hint={t('coverNoteHint', { max: SUBMISSION_NOTE_MAX })}
          errors={noteErrors}
          rows={5}
          maxLength={SUBMISSION_NOTE_MAX}
          defaultValue={v.note}
          data-testid="submission-note"
        />
      </ConfirmDialog>
    </form>
  );
}
