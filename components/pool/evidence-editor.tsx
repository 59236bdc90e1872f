'use client';

import { useState } from 'react';
import { addEvidence, deleteEvidence, tagEvidence, updateEvidence } from '@/app/(signed-in)/(workspace)/companies/[id]/actions';
import { ActionOutcome } from '@/components/forms/action-outcome';
import { fieldErrors, useActionForm } from '@/components/forms/use-action-form';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { EVIDENCE_CATEGORIES, FACTORS } from '@/lib/pool/factors';
import type { PoolEvidence } from '@/lib/pool/types';

const CATEGORY_OPTIONS = EVIDENCE_CATEGORIES.map((c) => ({ value: c, label: c.replaceAll('_', ' ') }));
const FACTOR_OPTIONS = FACTORS.map((f) => ({ value: f.id, label: f.label }));
const POLARITY_OPTIONS = [
  { value: 'favorable', label: 'favorable' },
  { value: 'adverse', label: 'adverse' },
  { value: 'context', label: 'context-dependent' },
];
const LANGUAGE_OPTIONS = [
  { value: 'ko', label: 'Korean' },
  { value: 'en', label: 'English' },
];

export type EditableEvidence = Pick<
  PoolEvidence,
  'id' | 'category' | 'title' | 'text' | 'value' | 'eventDate' | 'publishedDate' | 'sourceName' | 'sourceUrl' | 'language'
> & { factor: string | null; polarity: string | null };

function EvidenceFields({ prefix, item, state }: { prefix: string; item?: EditableEvidence; state: Parameters<typeof fieldErrors>[0] }) {
  const id = (name: string) => `${prefix}-${name}`;
  return (
    <div className="grid gap-3 md:grid-cols-2">
      <SelectField id={id('category')} name="category" label="Category" options={CATEGORY_OPTIONS} defaultValue={item?.category ?? 'news'} errors={fieldErrors(state, 'category')} />
      <SelectField id={id('language')} name="language" label="Language" options={LANGUAGE_OPTIONS} defaultValue={item?.language ?? 'ko'} errors={fieldErrors(state, 'language')} />
      <div className="md:col-span-2">
        <TextField id={id('title')} name="title" label="Title" defaultValue={item?.title} required errors={fieldErrors(state, 'title')} />
      </div>
      <div className="space-y-1 md:col-span-2">
        <label htmlFor={id('text')} className="block text-sm font-medium">
          Text
        </label>
        <textarea
          id={id('text')}
          name="text"
          rows={3}
          defaultValue={item?.text}
          className="block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
          aria-invalid={fieldErrors(state, 'text') ? true : undefined}
        />
        {fieldErrors(state, 'text') ? <p className="text-sm text-red-700 dark:text-red-400">{fieldErrors(state, 'text')!.join(' ')}</p> : null}
      </div>
      <TextField id={id('published_date')} name="published_date" label="Published" type="date" defaultValue={item?.publishedDate} required errors={fieldErrors(state, 'published_date')} />
      <TextField id={id('event_date')} name="event_date" label="Event date (optional)" type="date" defaultValue={item?.eventDate ?? ''} errors={fieldErrors(state, 'event_date')} />
      <TextField id={id('source_name')} name="source_name" label="Source" defaultValue={item?.sourceName} required errors={fieldErrors(state, 'source_name')} />
      <TextField id={id('source_url')} name="source_url" label="Source URL" type="url" defaultValue={item?.sourceUrl} required errors={fieldErrors(state, 'source_url')} />
      <TextField id={id('value')} name="value" label="Value (optional)" defaultValue={item?.value ?? ''} errors={fieldErrors(state, 'value')} />
    </div>
  );
}

export function AddEvidenceForm({ companyId }: { companyId: string }) {
  const [state, formAction, pending] = useActionForm(addEvidence);
  return (
    <form action={formAction} className="space-y-3" data-testid="add-evidence-form" noValidate>
      <input type="hidden" name="company_id" value={companyId} />
      <ActionOutcome state={state} success="Evidence added." />
      <EvidenceFields prefix="add" state={state} />
      <Button type="submit" disabled={pending}>
        {pending ? 'Adding…' : 'Add evidence'}
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
  return (
    <details className="mt-2 text-sm" data-testid={`evidence-controls-${item.id}`} onToggle={(e) => e.currentTarget.open && setOpened(true)}>
      <summary className="cursor-pointer text-blue-800 dark:text-blue-300">Edit, re-tag or delete</summary>
      {opened ? <ControlForms item={item} /> : null}
    </details>
  );
}

function ControlForms({ item }: { item: EditableEvidence }) {
  const [editState, editAction, editPending] = useActionForm(updateEvidence);
  const [tagState, tagAction, tagPending] = useActionForm(tagEvidence);
  const [deleteState, deleteAction, deletePending] = useActionForm(deleteEvidence);
  const [confirming, setConfirming] = useState(false);
  const prefix = `ev-${item.id}`;
  return (
    <div className="mt-3 space-y-4 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      <form action={tagAction} className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="id" value={item.id} />
        <div className="w-64">
          <SelectField id={`${prefix}-factor`} name="factor" label="Factor" options={FACTOR_OPTIONS} defaultValue={item.factor ?? 'other'} />
        </div>
        <div className="w-48">
          <SelectField id={`${prefix}-polarity`} name="polarity" label="Reading" options={POLARITY_OPTIONS} defaultValue={item.polarity ?? 'context'} />
        </div>
        <Button type="submit" size="sm" variant="secondary" disabled={tagPending}>
          Save tag
        </Button>
      </form>
      <ActionOutcome state={tagState} success="Tag saved; it will survive re-imports." />
      <form action={editAction} className="space-y-3" noValidate>
        <input type="hidden" name="id" value={item.id} />
        <EvidenceFields prefix={prefix} item={item} state={editState} />
        <ActionOutcome state={editState} success="Saved." />
        <Button type="submit" size="sm" disabled={editPending}>
          Save changes
        </Button>
      </form>
      <form action={deleteAction}>
        <input type="hidden" name="id" value={item.id} />
        {confirming ? (
          <span className="flex items-center gap-2">
            <span>Delete this item? The deletion is recorded in the audit log.</span>
            <Button type="submit" size="sm" variant="danger" disabled={deletePending}>
              Delete
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
              Keep
            </Button>
          </span>
        ) : (
          <Button size="sm" variant="danger" onClick={() => setConfirming(true)}>
            Delete…
          </Button>
        )}
        <ActionOutcome state={deleteState} success="Deleted." />
      </form>
    </div>
  );
}
