'use client';

import { ActionOutcome, useServerText } from '@/components/forms/action-outcome';
import { fieldErrors, useActionForm } from '@/components/forms/use-action-form';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { MAX_RETENTION_MONTHS, MIN_RETENTION_MONTHS, RETENTION_KINDS, type RetentionPeriods } from '@/lib/domain/retention';
import type { Dictionary, Messages } from '@/lib/i18n';
import { useT } from '@/lib/i18n/client';
import { retentionMessages } from '@/lib/i18n/messages/retention';
import { saveRetentionSettings } from './actions';

const TABLES = [retentionMessages as Messages<Dictionary>];

export function RetentionForm({ periods }: { periods: RetentionPeriods }) {
  const [state, formAction, pending] = useActionForm(saveRetentionSettings);
  const t = useT(retentionMessages);
  const text = useServerText(...TABLES);
  return (
    <form action={formAction} className="space-y-4" data-testid="retention-form" noValidate>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">{t('retentionDescription')}</p>
      <ActionOutcome state={state} messages={TABLES} success={t('retentionSaved')} />
      {RETENTION_KINDS.map((kind) => (
        <TextField
          key={kind}
          id={kind}
          label={`${t(`kind_${kind}`)} (${t('months')})`}
          type="number"
          inputMode="numeric"
          min={MIN_RETENTION_MONTHS}
          max={MAX_RETENTION_MONTHS}
          step={1}
          required
          defaultValue={periods[kind]}
          errors={fieldErrors(state, kind, text)}
        />
      ))}
      <Button type="submit" disabled={pending}>
        {pending ? t('saving') : t('saveRetention')}
      </Button>
    </form>
  );
}
