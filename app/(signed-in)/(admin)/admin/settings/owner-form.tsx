'use client';

import { ActionOutcome, useServerText } from '@/components/forms/action-outcome';
import { fieldErrors, useActionForm } from '@/components/forms/use-action-form';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import type { Dictionary, Messages } from '@/lib/i18n';
import { useT } from '@/lib/i18n/client';
import { aboutMessages } from '@/lib/i18n/messages/about';
import { setSystemOwnerAction } from './actions';

const TABLES = [aboutMessages as Messages<Dictionary>];

/** The system card's owner (docs/system-card.md), set by an admin. */
export function OwnerForm({ owner }: { owner: { name: string; title: string; contact: string } | null }) {
  const [state, formAction, pending] = useActionForm(setSystemOwnerAction);
  const t = useT(aboutMessages);
  const text = useServerText(...TABLES);
  return (
    <form action={formAction} className="space-y-4" data-testid="owner-form" noValidate>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('ownerFormHint')}</p>
      <ActionOutcome state={state} messages={TABLES} success={t('ownerSaved')} />
      <TextField
        id="owner-name"
        name="name"
        label={t('ownerName')}
        defaultValue={owner?.name ?? ''}
        required
        maxLength={200}
        errors={fieldErrors(state, 'name', text)}
      />
      <TextField
        id="owner-title"
        name="title"
        label={t('ownerTitle')}
        defaultValue={owner?.title ?? ''}
        required
        maxLength={200}
        errors={fieldErrors(state, 'title', text)}
      />
      <TextField
        id="owner-contact"
        name="contact"
        label={t('ownerContactField')}
        hint={t('ownerContactHint')}
        defaultValue={owner?.contact ?? ''}
        maxLength={200}
        errors={fieldErrors(state, 'contact', text)}
      />
      <Button type="submit" disabled={pending} data-testid="owner-save">
        {pending ? t('ownerSaving') : t('ownerSave')}
      </Button>
    </form>
  );
}
