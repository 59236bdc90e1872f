'use client';

import { useState } from 'react';
import { ActionOutcome, useServerText } from '@/components/forms/action-outcome';
import { fieldErrors, useActionForm } from '@/components/forms/use-action-form';
import { Button } from '@/components/ui/button';
import { SelectField, TextAreaField, TextField } from '@/components/ui/field';
import { HOLD_REASON_MAX } from '@/lib/domain/retention';
import type { Dictionary, Messages } from '@/lib/i18n';
import { useT } from '@/lib/i18n/client';
import { retentionMessages } from '@/lib/i18n/messages/retention';
import { liftLegalHold, placeLegalHold } from './actions';

const TABLES = [retentionMessages as Messages<Dictionary>];

export function PlaceHoldForm({ cases, companies }: { cases: { id: string; label: string }[]; companies: { id: string; name: string }[] }) {
  const [state, formAction, pending] = useActionForm(placeLegalHold);
  const [target, setTarget] = useState<'case' | 'company'>('case');
  const t = useT(retentionMessages);
  const text = useServerText(...TABLES);
  return (
    <form action={formAction} className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="place-hold-form" noValidate>
      <ActionOutcome state={state} messages={TABLES} success={t('placed')} />
      <SelectField
        id="target"
        label={t('target')}
        value={target}
        onChange={(e) => setTarget(e.target.value === 'company' ? 'company' : 'case')}
        options={[
          { value: 'case', label: t('targetCase') },
          { value: 'company', label: t('targetCompany') },
        ]}
        errors={fieldErrors(state, 'target', text)}
      />
      {target === 'case' ? (
        <SelectField
          id="caseId"
          label={t('case')}
          required
          defaultValue=""
          options={[{ value: '', label: t('chooseCase') }, ...cases.map((c) => ({ value: c.id, label: c.label }))]}
          errors={fieldErrors(state, 'caseId', text)}
        />
      ) : (
        <SelectField
          id="companyId"
          label={t('company')}
          required
          defaultValue=""
          options={[{ value: '', label: t('chooseCompany') }, ...companies.map((c) => ({ value: c.id, label: c.name }))]}
          errors={fieldErrors(state, 'companyId', text)}
        />
      )}
      <TextAreaField
        id="reason"
        name="reason"
        label={t('reason')}
        hint={t('reasonHint')}
        required
        maxLength={HOLD_REASON_MAX}
        errors={fieldErrors(state, 'reason', text)}
      />
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? t('placing') : t('placeButton')}
        </Button>
      </div>
    </form>
  );
}

export function LiftHoldForm({ holdId }: { holdId: string }) {
  const [state, formAction, pending] = useActionForm(liftLegalHold);
  const t = useT(retentionMessages);
  return (
    <form action={formAction} className="space-y-2" data-testid={`lift-hold-${holdId}`}>
      <input type="hidden" name="holdId" value={holdId} />
      <TextField id={`lift-reason-${holdId}`} name="reason" label={t('liftReason')} maxLength={HOLD_REASON_MAX} />
      <Button type="submit" variant="secondary" size="sm" disabled={pending}>
        {pending ? t('lifting') : t('liftButton')}
      </Button>
      <ActionOutcome state={state} messages={TABLES} success={t('lifted')} />
    </form>
  );
}
