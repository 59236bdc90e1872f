'use client';
// On a company's page, for those who edit the pool: mark the borrower as a sole proprietor (an
// individual in business) or clear the mark (docs/oversight.md).
import { markSoleProprietor } from '@/app/(signed-in)/(workspace)/companies/[id]/actions';
import { ActionOutcome } from '@/components/forms/action-outcome';
import { useActionForm } from '@/components/forms/use-action-form';
import { Button } from '@/components/ui/button';
import { useT } from '@/lib/i18n/client';
import { oversightMessages } from '@/lib/i18n/messages/oversight';

export function SoleProprietorToggle({ companyId, value }: { companyId: string; value: boolean }) {
  const [state, formAction, pending] = useActionForm(markSoleProprietor);
  const t = useT(oversightMessages);
  return (
    <form action={formAction} className="mt-4 space-y-2" data-testid="sole-proprietor-form">
      <input type="hidden" name="company_id" value={companyId} />
      <input type="hidden" name="value" value={value ? 'off' : 'on'} />
      <p className="text-sm" data-testid="sole-proprietor-state">
        {value ? t('soleProprietorIs') : t('soleProprietorIsNot')}
      </p>
      {state && !state.ok ? <ActionOutcome state={state} success="" /> : null}
      <Button type="submit" variant="secondary" size="sm" disabled={pending} data-testid="sole-proprietor-toggle">
        {value ? t('soleProprietorClear') : t('soleProprietorMark')}
      </Button>
    </form>
  );
}
