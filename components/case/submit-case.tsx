'use client';
// Submitting a case to the committee: the button asks first (components/ui/confirm-dialog.tsx),
// saying what cannot be undone, and takes an optional cover note the committee reads on the
// case page and in its queue. A refused submission keeps the note (useKeptForm). A failed final
// check or an unaddressed red flag (issue 26 item 5) needs a reason each, asked on the card.
import { submitCase } from '@/app/(signed-in)/(workspace)/cases/[id]/actions';
import { useKeptForm } from '@/components/case/use-kept-form';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TextAreaField } from '@/components/ui/field';
import { Alert } from '@/components/ui/layout';
import { ACK_REASON_MAX, ackField } from '@/lib/domain/acknowledgements';
import { SUBMISSION_NOTE_MAX } from '@/lib/domain/submission';
import { useT } from '@/lib/i18n/client';
import { acknowledgementMessages } from '@/lib/i18n/messages/acknowledgements';
import { casesMessages } from '@/lib/i18n/messages/cases';

/** One failed check or unaddressed red flag to acknowledge, in the reader's words (lib/report/acknowledgements.ts). */
export type AckFormItem = { key: string; text: string; hint: string | null; href: string | null };

export function SubmitCase({ caseId, acknowledge = [] }: { caseId: string; acknowledge?: AckFormItem[] }) {
  const t = useT(casesMessages);
  const ta = useT(acknowledgementMessages);
  const {
    values: v,
    failed,
    errors,
    formAction,
    pending,
    key,
  } = useKeptForm(submitCase, (k) =>
    k === 'errAckRequired' ? ta('errAckRequired') : k === 'errAckTooLong' ? ta('errAckTooLong', { max: ACK_REASON_MAX }) : t(k as 'errNoteTooLong'),
  );
  const noteErrors = errors('note') ?? [];
  return (
    <form key={key} action={formAction} className="space-y-3" data-testid="submit-case-form">
      <input type="hidden" name="case_id" value={caseId} />
      <p className="text-sm text-zinc-700 dark:text-zinc-300">{t('submitHint')}</p>
      {/* The note's field sits in the closed dialog after a refusal: its error is repeated here. */}
      {noteErrors.length ? <Alert>{noteErrors.join(' ')}</Alert> : failed ? <Alert>{failed.message}</Alert> : null}
      {/* Outside the dialog, so the browser asks for each reason before the dialog opens; the server checks again. */}
      {acknowledge.length ? (
        <fieldset className="space-y-3 rounded-md border border-amber-700 p-3 dark:border-amber-400" data-testid="ack-list" data-count={acknowledge.length}>
          <legend className="px-1 text-sm font-semibold">{ta('formTitle')}</legend>
          <p className="text-sm text-zinc-700 dark:text-zinc-300">{ta('formLead')}</p>
          {acknowledge.map((item, i) => {
            const name = ackField(item.key);
            return (
              <div key={item.key} className="space-y-1" data-testid="ack-item" data-key={item.key}>
                <p className="text-sm font-medium">
                  {item.text}
                  {item.href ? (
                    <>
                      {' '}
                      <a href={item.href} className="text-blue-800 underline underline-offset-2 dark:text-blue-300" target="_blank" rel="noopener noreferrer">
                        {ta('openRun')}
                      </a>
                    </>
                  ) : null}
                </p>
                {item.hint ? <p className="text-xs text-zinc-600 dark:text-zinc-400">{item.hint}</p> : null}
                <TextAreaField
                  id={`ack-${i}`}
                  name={name}
                  label={ta('reasonLabel')}
                  hint={ta('reasonHint', { max: ACK_REASON_MAX })}
                  errors={errors(name) ?? []}
                  rows={2}
                  required
                  maxLength={ACK_REASON_MAX}
                  defaultValue={v[name]}
                  data-testid="ack-reason"
                />
              </div>
            );
          })}
        </fieldset>
      ) : null}
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
