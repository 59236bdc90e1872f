'use client';

import { createCase } from '@/app/(signed-in)/(workspace)/cases/new/actions';
import { CURRENCIES } from '@/components/case/case-options';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { Alert } from '@/components/ui/layout';
import { useKeptForm } from '@/components/case/use-kept-form';
import { useT } from '@/lib/i18n/client';
import { casesMessages } from '@/lib/i18n/messages/cases';

const TEXTAREA =
  'block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 aria-[invalid=true]:border-red-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100';

export function CaseForm({ companies, today }: { companies: { id: string; label: string }[]; today: string }) {
  const t = useT(casesMessages);
  const { values: v, failed, errors, formAction, pending, key } = useKeptForm(createCase, (k) => t(k as keyof typeof casesMessages.en));
  const textArea = (id: 'loan_purpose' | 'notes', label: string, rows: number, maxLength: number, required: boolean) => (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <textarea
        id={id}
        name={id}
        rows={rows}
        required={required}
        maxLength={maxLength}
        defaultValue={v[id]}
        className={TEXTAREA}
        aria-invalid={errors(id) ? true : undefined}
        aria-describedby={errors(id) ? `${id}-error` : undefined}
      />
      {errors(id) ? (
        <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-400">
          {errors(id)!.join(' ')}
        </p>
      ) : null}
    </div>
  );
  return (
    <form action={formAction} className="max-w-2xl space-y-4" data-testid="case-form" noValidate key={key}>
      {failed ? <Alert>{failed.message}</Alert> : null}
      <SelectField
        id="company_id"
        label={t('company')}
        defaultValue={v.company_id ?? ''}
        errors={errors('company_id')}
        options={[{ value: '', label: t('chooseCompany') }, ...companies.map((c) => ({ value: c.id, label: c.label }))]}
        required
      />
      <TextField id="title" label={t('caseTitle')} defaultValue={v.title} errors={errors('title')} required maxLength={200} />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <div className="sm:col-span-2">
          <TextField id="loan_amount" label={t('loanAmount')} inputMode="decimal" defaultValue={v.loan_amount} errors={errors('loan_amount')} required />
        </div>
        <SelectField
          id="loan_currency"
          label={t('loanCurrency')}
          defaultValue={v.loan_currency ?? 'KRW'}
          errors={errors('loan_currency')}
          options={CURRENCIES.map((c) => ({ value: c, label: c }))}
        />
      </div>
      {textArea('loan_purpose', t('loanPurpose'), 2, 1000, true)}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          id="loan_tenor_months"
          label={t('loanTenor')}
          type="number"
          min={1}
          max={600}
          defaultValue={v.loan_tenor_months ?? '12'}
          errors={errors('loan_tenor_months')}
          required
        />
        <TextField
          id="as_of_date"
          label={t('asOfDate')}
          type="date"
          max={today}
          defaultValue={v.as_of_date ?? today}
          hint={t('asOfHint')}
          errors={errors('as_of_date')}
          required
        />
      </div>
      {textArea('notes', t('notes'), 3, 5000, false)}
      <Button type="submit" disabled={pending} data-testid="case-submit">
        {pending ? t('creating') : t('create')}
      </Button>
    </form>
  );
}
