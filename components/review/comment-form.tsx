'use client';
// One form for a new thread (optionally anchored to a turn and one of its claims) or a reply.
import { useId } from 'react';
import { addComment } from '@/app/(signed-in)/(committee)/review/actions';
import { useKeptForm } from '@/components/case/use-kept-form';
import { Button } from '@/components/ui/button';
import { SelectField, TextAreaField } from '@/components/ui/field';
import { Alert } from '@/components/ui/layout';
import { useT } from '@/lib/i18n/client';
import { reviewMessages } from '@/lib/i18n/messages/review';

type Props = {
  caseId: string;
  runId?: string | null;
  stepId?: string | null;
  /** Claims of the turn: the new thread may be about one of them instead of the whole turn. */
  claimIds?: string[];
  parentId?: string;
  testId: string;
};

export function CommentForm({ caseId, runId, stepId, claimIds = [], parentId, testId }: Props) {
  const t = useT(reviewMessages);
  const id = useId();
  // A rejected comment stays in the box; a posted one clears it (the form re-mounts empty).
  const { values, failed, errors, formAction, pending, key } = useKeptForm(addComment, (k) => t(k as 'errBody'));
  const bodyErrors = errors('body') ?? [];
  return (
    <form key={failed ? key : 'fresh'} action={formAction} className="space-y-2" data-testid={testId}>
      <input type="hidden" name="case_id" value={caseId} />
      {runId ? <input type="hidden" name="run_id" value={runId} /> : null}
      {stepId ? <input type="hidden" name="step_id" value={stepId} /> : null}
      {parentId ? <input type="hidden" name="parent_id" value={parentId} /> : null}
      {!parentId && stepId && claimIds.length ? (
        <SelectField
          id={`${id}-claim`}
          name="claim_id"
          label={t('anchorLabel')}
          defaultValue={failed ? values.claim_id : ''}
          options={[{ value: '', label: t('anchorTurn', { step: stepId }) }, ...claimIds.map((c) => ({ value: c, label: t('anchorClaim', { id: c }) }))]}
        />
      ) : null}
      <TextAreaField
        id={`${id}-body`}
        name="body"
        label={parentId ? t('replyLabel') : t('commentLabel')}
        required
        maxLength={4000}
        errors={bodyErrors}
        rows={parentId ? 2 : 3}
        defaultValue={failed ? values.body : ''}
      />
      {failed && !bodyErrors.length ? <Alert>{failed.message}</Alert> : null}
      <Button type="submit" size="sm" variant={parentId ? 'secondary' : 'primary'} disabled={pending} data-testid={`${testId}-submit`}>
        {pending ? t('posting') : parentId ? t('postReply') : t('postComment')}
      </Button>
    </form>
  );
}
