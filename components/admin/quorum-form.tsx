'use client';
// The admin's quorum: how many committee members must agree before a decision is final
// (docs/oversight.md). A case on a sole proprietor needs at least two whatever this says.
import { setQuorum } from '@/app/(signed-in)/(admin)/admin/settings/actions';
import { ActionOutcome, useServerText } from '@/components/forms/action-outcome';
import { fieldErrors, useActionForm } from '@/components/forms/use-action-form';
import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/field';
import { QUORUM_MAX } from '@/lib/domain/oversight';
import type { Dictionary, Messages } from '@/lib/i18n';
import { useT } from '@/lib/i18n/client';
import { oversightMessages } from '@/lib/i18n/messages/oversight';

const TABLES = [oversightMessages as Messages<Dictionary>];

export function QuorumForm({ quorum }: { quorum: number }) {
  const [state, formAction, pending] = useActionForm(setQuorum);
  const t = useT(oversightMessages);
  const text = useServerText(...TABLES);
  const options = Array.from({ length: QUORUM_MAX }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }));
  return (
    <form action={formAction} className="space-y-3" data-testid="quorum-form">
      <ActionOutcome state={state} messages={TABLES} success={state?.ok ? t('quorumSaved') : ''} />
      <SelectField
        id="quorum"
        label={t('quorumLabel')}
        hint={t('quorumHint')}
        options={options}
        defaultValue={String(quorum)}
        errors={fieldErrors(state, 'quorum', text)}
      />
      <Button type="submit" disabled={pending}>
        {t('quorumSave')}
      </Button>
    </form>
  );
}
