'use client';
// The committee's decision on a submitted case: outcome, rationale (always), conditions (for
// an approval with conditions). Recorded once per submission; the server enforces both. The
// button asks first (components/ui/confirm-dialog.tsx), repeating the outcome and that it is final.
import { useState } from 'react';
import { recordDecision } from '@/app/(signed-in)/(committee)/review/actions';
import { useKeptForm } from '@/components/case/use-kept-form';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TextAreaField } from '@/components/ui/field';
import { Alert } from '@/components/ui/layout';
import type { DecisionOutcome } from '@/lib/domain/vocabulary';
import { useT } from '@/lib/i18n/client';
import { reviewMessages } from '@/lib/i18n/messages/review';

// The schema's DECISION_OUTCOMES, kept here so the browser bundle does not pull in the schema module.
const OUTCOMES = ['approve', 'approve_with_conditions', 'decline', 'return'] as const satisfies readonly DecisionOutcome[];

export function DecisionForm({ caseId }: { caseId: string }) {
  const t = useT(reviewMessages);
  // A rejected decision keeps what was written (the form re-mounts with it as defaults).
  const { values: v, failed, errors: fieldErrors, formAction, pending, key } = useKeptForm(recordDecision, (k) => t(k as 'errRationale'));
  const errors = (field: string) => fieldErrors(field) ?? [];
  const [outcome, setOutcome] = useState<DecisionOutcome>('approve');
  return (
    <form key={key} action={formAction} className="space-y-3" data-testid="decision-form">
      <input type="hidden" name="case_id" value={caseId} />
      <fieldset>
        <legend className="text-sm font-medium">{t('outcomeLabel')}</legend>
        <div className="mt-1 grid gap-1">
          {OUTCOMES.map((o) => (
            <label key={o} className="flex items-center gap-2 text-sm">
              <input type="radio" name="outcome" value={o} checked={outcome === o} onChange={() => setOutcome(o)} data-testid={`outcome-${o}`} />
              {t(`outcome_${o}`)}
            </label>
          ))}
        </div>
        {errors('outcome').length ? <p className="text-sm text-red-700 dark:text-red-400">{errors('outcome').join(' ')}</p> : null}
      </fieldset>
      <TextAreaField
        id="decision-rationale"
        name="rationale"
        label={t('rationaleLabel')}
        hint={t('rationaleHint')}
        errors={errors('rationale')}
        rows={4}
        maxLength={8000}
        defaultValue={v.rationale}
        aria-required
      />
      <TextAreaField
        id="decision-conditions"
        name="conditions"
        label={t('conditionsLabel')}
        hint={t('conditionsHint')}
        errors={errors('conditions')}
        rows={3}
        maxLength={8000}
        defaultValue={v.conditions}
        aria-required={outcome === 'approve_with_conditions'}
      />
      <p className="text-xs text-zinc-600 dark:text-zinc-400">{t('decisionOnceNote')}</p>
      {failed && failed.code !== 'bad_request' ? <Alert>{failed.message}</Alert> : null}
      <ConfirmDialog
        triggerLabel={t('recordDecision')}
        pendingLabel={t('recording')}
        pending={pending}
        triggerTestId="record-decision"
        title={t('confirmDecisionTitle')}
        irreversible={t('confirmDecisionText')}
        summary={
          <p className="font-medium" data-testid="confirm-decision-outcome">
            {t('confirmDecisionOutcome', { outcome: t(`outcome_${outcome}`) })}
          </p>
        }
        confirmLabel={t('confirmDecision')}
        cancelLabel={t('cancel')}
        confirmVariant={outcome === 'decline' ? 'danger' : 'primary'}
        confirmTestId="record-decision-confirm"
      />
    </form>
  );
}
