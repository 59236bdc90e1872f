'use client';

import { useState } from 'react';
import { addEvidence, deleteEvidence, tagEvidence, updateEvidence } from '@/app/(signed-in)/(workspace)/companies/[id]/actions';
import { ActionOutcome, useServerText } from '@/components/forms/action-outcome';
import { fieldErrors, useActionForm } from '@/components/forms/use-action-form';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { EVIDENCE_CATEGORIES, FACTORS } from '@/lib/domain/factors';
import { LANGUAGES } from '@/lib/domain/protocol';
import { POLARITIES } from '@/lib/domain/vocabulary';
import type { Dictionary, Messages } from '@/lib/i18n';
import { useLocale, useT } from '@/lib/i18n/client';
import { importMessages } from '@/lib/i18n/messages/import';
import { poolMessages } from '@/lib/i18n/messages/pool';
import type { PoolEvidence } from '@/lib/pool/types';

// Field errors come from the import's checks (lib/pool/import) and the actions, in English.
const TABLES = [poolMessages, importMessages] as Messages<Dictionary>[];

function useOptions() {
  const t = useT(poolMessages);
  const locale = useLocale();
  return {
    t,
    categories: EVIDENCE_CATEGORIES.map((c) => ({ value: c, label: t(`cat_${c}`) })),
    factors: FACTORS.map((f) => ({ value: f.id, label: locale === 'ko' ? f.labelKo : f.label })),
    polarities: POLARITIES.map((p) => ({ value: p, label: t(`polarity_${p}`) })),
    languages: LANGUAGES.map((l) => ({ value: l, label: t(`lang_${l}`) })),
  };
}

export type EditableEvidence = Pick<
  PoolEvidence,
  'id' | 'category' | 'title' | 'text' | 'value' | 'eventDate' | 'publishedDate' | 'sourceName' | 'sourceUrl' | 'language'
> & { factor: string | null; polarity: string | null };

function EvidenceFields({ prefix, item, state }: { prefix: string; item?: EditableEvidence; state: Parameters<typeof fieldErrors>[0] }) {
  const id = (name: string) => `${prefix}-${name}`;
  const { t, categories, languages } = useOptions();
  const text = useServerText(...TABLES);
  const errors = (field: string) => fieldErrors(state, field, text);
  return (
    <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
      <SelectField
        id={id('category')}
        name="category"
        label={t('category')}
        options={categories}
        defaultValue={item?.category ?? 'news'}
        errors={errors('category')}
      />
      <SelectField
        id={id('language')}
        name="language"
        label={t('language')}
        options={languages}
        defaultValue={item?.language ?? 'ko'}
        errors={errors('language')}
      />
      <div className="md:col-span-2">
        <TextField id={id('title')} name="title" label={t('title')} defaultValue={item?.title} required errors={errors('title')} />
      </div>
      <div className="space-y-1 md:col-span-2">
        <label htmlFor={id('text')} className="block text-sm font-medium">
          {t('text')}
        </label>
        <textarea
          id={id('text')}
          name="text"
          rows={3}
          defaultValue={item?.text}
          className="block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
          aria-invalid={errors('text') ? true : undefined}
        />
        {errors('text') ? <p className="text-sm text-red-700 dark:text-red-400">{errors('text')!.join(' ')}</p> : null}
      </div>
      <TextField
        id={id('published_date')}
        name="published_date"
        label={t('publishedLabel')}
        type="date"
        defaultValue={item?.publishedDate}
        required
        errors={errors('published_date')}
      />
      <TextField
        id={id('event_date')}
        name="event_date"
        label={t('eventDate')}
        type="date"
        defaultValue={item?.eventDate ?? ''}
        errors={errors('event_date')}
      />
      <TextField id={id('source_name')} name="source_name" label={t('source')} defaultValue={item?.sourceName} required errors={errors('source_name')} />
      <TextField
        id={id('source_url')}
        name="source_url"
        label={t('sourceUrl')}
        type="url"
        defaultValue={item?.sourceUrl}
        required
        errors={errors('source_url')}
      />
      <TextField id={id('value')} name="value" label={t('value')} defaultValue={item?.value ?? ''} errors={errors('value')} />
    </div>
  );
}

export function AddEvidenceForm({ companyId }: { companyId: string }) {
  const [state, formAction, pending] = useActionForm(addEvidence);
  const t = useT(poolMessages);
  return (
    <form action={formAction} className="space-y-3" data-testid="add-evidence-form" noValidate>
      <input type="hidden" name="company_id" value={companyId} />
      <ActionOutcome state={state} messages={TABLES} success={t('evidenceAdded')} />
      <EvidenceFields prefix="add" state={state} />
      <Button type="submit" disabled={pending}>
        {pending ? t('adding') : t('addEvidence')}
      </Button>
    </form>
  );
}

/**
 * Edit, re-tag and delete controls of one item, folded away until asked for. The forms are
 * only rendered once opened: a company with thousands of items would otherwise ship thousands
 * of forms in its first page.
 */
export function EvidenceControls({ item }: { item: EditableEvidence }) {
  const [opened, setOpened] = useState(false);
  const t = useT(poolMessages);
  return (
    <details className="mt-2 text-sm" data-testid={`evidence-controls-${item.id}`} onToggle={(e) => e.currentTarget.open && setOpened(true)}>
      <summary className="cursor-pointer text-blue-800 dark:text-blue-300">{t('editRetagDelete')}</summary>
      {opened ? <ControlForms item={item} /> : null}
    </details>
  );
}

function ControlForms({ item }: { item: EditableEvidence }) {
  const [editState, editAction, editPending] = useActionForm(updateEvidence);
  const [tagState, tagAction, tagPending] = useActionForm(tagEvidence);
  const [deleteState, deleteAction, deletePending] = useActionForm(deleteEvidence);
  const [confirming, setConfirming] = useState(false);
  const { t, factors, polarities } = useOptions();
  const prefix = `ev-${item.id}`;
  return (
    <div className="mt-3 space-y-4 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      <form action={tagAction} className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="id" value={item.id} />
        <div className="w-64">
          <SelectField id={`${prefix}-factor`} name="factor" label={t('factor')} options={factors} defaultValue={item.factor ?? 'other'} />
        </div>
        <div className="w-48">
          <SelectField id={`${prefix}-polarity`} name="polarity" label={t('reading')} options={polarities} defaultValue={item.polarity ?? 'context'} />
        </div>
        <Button type="submit" size="sm" variant="secondary" disabled={tagPending}>
          {t('saveTag')}
        </Button>
      </form>
      <ActionOutcome state={tagState} messages={TABLES} success={t('tagSaved')} />
      <form action={editAction} className="space-y-3" noValidate>
        <input type="hidden" name="id" value={item.id} />
        <EvidenceFields prefix={prefix} item={item} state={editState} />
        <ActionOutcome state={editState} messages={TABLES} success={t('saved')} />
        <Button type="submit" size="sm" disabled={editPending}>
          {t('saveChanges')}
        </Button>
      </form>
      <form action={deleteAction}>
        <input type="hidden" name="id" value={item.id} />
        {confirming ? (
          <span className="flex items-center gap-2">
            <span>{t('confirmDelete')}</span>
            <Button type="submit" size="sm" variant="danger" disabled={deletePending}>
              {t('delete')}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
              {t('keep')}
            </Button>
          </span>
        ) : (
          <Button size="sm" variant="danger" onClick={() => setConfirming(true)}>
            {t('deleteEllipsis')}
          </Button>
        )}
        <ActionOutcome state={deleteState} messages={TABLES} success={t('deleted')} />
      </form>
    </div>
  );
}
