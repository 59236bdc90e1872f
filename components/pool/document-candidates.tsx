'use client';

// The candidate evidence items of an uploaded document, beside its text: each with its date, its
// category and factor, its page and a link that highlights its passage, and the RM's choices —
// accept, edit then accept, or reject. Nothing enters the pool any other way.
import Link from 'next/link';
import { useState, useTransition } from 'react';
import { acceptDocumentCandidate, rejectDocumentCandidate } from '@/app/(signed-in)/(workspace)/companies/[id]/documents/[documentId]/actions';
import { useServerText } from '@/components/forms/action-outcome';
import { Button } from '@/components/ui/button';
import { SelectField, TextAreaField, TextField } from '@/components/ui/field';
import { Alert } from '@/components/ui/layout';
import { EVIDENCE_CATEGORIES, FACTORS } from '@/lib/domain/factors';
import type { CandidateView } from '@/lib/domain/passage';
import type { Dictionary, Messages } from '@/lib/i18n';
import { useLocale, useT } from '@/lib/i18n/client';
import { documentMessages } from '@/lib/i18n/messages/documents';
import { importMessages } from '@/lib/i18n/messages/import';
import { poolMessages } from '@/lib/i18n/messages/pool';

type Outcome = { ok: boolean; message?: string; fieldErrors?: Record<string, string[]> } | null;

function CandidateCard({ candidate, passageHref, active }: { candidate: CandidateView; passageHref: string; active: boolean }) {
  const t = useT(documentMessages);
  const tp = useT(poolMessages);
  const locale = useLocale();
  const text = useServerText(...([documentMessages, importMessages] as Messages<Dictionary>[]));
  const [pending, startTransition] = useTransition();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const factor = FACTORS.find((f) => f.id === candidate.factor);
  const decided = candidate.status !== 'proposed';

  const accept = (form?: FormData) =>
    startTransition(async () => {
      const edits = form
        ? {
            category: String(form.get('category')),
            title: String(form.get('title')),
            text: String(form.get('text')),
            event_date: String(form.get('event_date') ?? ''),
          }
        : {};
      setOutcome(await acceptDocumentCandidate({ id: candidate.id, ...edits } as Parameters<typeof acceptDocumentCandidate>[0]));
    });
  const reject = () => startTransition(async () => setOutcome(await rejectDocumentCandidate({ id: candidate.id })));
  const errors = (field: string) => (outcome && !outcome.ok ? outcome.fieldErrors?.[field]?.map(text) : undefined);
  const id = (field: string) => `candidate-${candidate.id}-${field}`;

  return (
    <li
      className={`rounded-md border p-3 text-sm ${active ? 'border-amber-500 bg-amber-50 dark:bg-amber-950/30' : 'border-zinc-200 dark:border-zinc-800'}`}
      data-testid="candidate"
      data-status={candidate.status}
    >
      <p className="font-medium">{candidate.title}</p>
      <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
        {candidate.eventDate ?? candidate.publishedDate} · {tp(`cat_${candidate.category}` as keyof typeof poolMessages.en)}
        {factor ? ` · ${locale === 'ko' ? factor.labelKo : factor.label}` : ''}
        {candidate.page ? ` · ${t('page', { page: candidate.page })}` : ''} · {t('offsets', { start: candidate.charStart, end: candidate.charEnd })} ·{' '}
        {candidate.proposedBy === 'rule' ? t('proposedByRule', { reason: candidate.reason }) : t('proposedByModel')}
      </p>
      {candidate.reading ? (
        <p className="mt-1 text-xs italic text-zinc-600 dark:text-zinc-400" data-testid="candidate-model-reading">
          {t('modelReadingOf', { reading: candidate.reading })}
        </p>
      ) : null}
      <p className="mt-1">
        <Link className="text-blue-800 underline underline-offset-2 dark:text-blue-300" href={passageHref} scroll={false} data-testid="show-passage">
          {t('showPassage')}
        </Link>
      </p>
      {decided ? (
        <p className="mt-2 text-xs font-medium" data-testid="candidate-status">
          {candidate.status === 'accepted' ? t('statusAccepted') : t('statusRejected')}
        </p>
      ) : (
        <>
          <div className="mt-2 flex flex-wrap gap-2">
            <Button size="sm" disabled={pending} onClick={() => accept()} data-testid="accept-candidate">
              {t('accept')}
            </Button>
            <Button size="sm" variant="secondary" disabled={pending} onClick={reject} data-testid="reject-candidate">
              {t('reject')}
            </Button>
          </div>
          <details className="mt-2">
            <summary className="cursor-pointer text-xs">{t('edit')}</summary>
            <form action={(form) => accept(form)} className="mt-2 space-y-2">
              <SelectField
                id={id('category')}
                name="category"
                label={t('categoryLabel')}
                defaultValue={candidate.category}
                options={EVIDENCE_CATEGORIES.map((c) => ({ value: c, label: tp(`cat_${c}` as keyof typeof poolMessages.en) }))}
                errors={errors('category')}
              />
              <TextField id={id('title')} name="title" label={t('titleLabel')} defaultValue={candidate.title} maxLength={500} errors={errors('title')} />
              <TextAreaField id={id('text')} name="text" label={t('textLabel')} defaultValue={candidate.text} rows={4} errors={errors('text')} />
              <TextField
                id={id('event_date')}
                name="event_date"
                type="date"
                label={t('eventDateLabel')}
                defaultValue={candidate.eventDate ?? ''}
                errors={errors('event_date')}
              />
              <Button type="submit" size="sm" disabled={pending}>
                {t('acceptEdited')}
              </Button>
            </form>
          </details>
        </>
      )}
      {outcome ? <div className="mt-2">{outcome.ok ? null : <Alert>{outcome.message ? text(outcome.message) : null}</Alert>}</div> : null}
    </li>
  );
}

export function DocumentCandidates({
  candidates,
  hrefs,
  active,
  editable,
}: {
  candidates: CandidateView[];
  hrefs: Record<string, string>;
  active: string | null;
  editable: boolean;
}) {
  const t = useT(documentMessages);
  const waiting = candidates.filter((c) => c.status === 'proposed');
  const decided = candidates.filter((c) => c.status !== 'proposed');
  if (!editable) return null;
  return (
    <section aria-labelledby="candidates-heading" className="space-y-3" data-testid="candidates">
      <h2 id="candidates-heading" className="text-lg font-semibold">
        {t('candidatesHeading', { n: waiting.length })}
      </h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('candidatesHint')}</p>
      {waiting.length ? (
        <ul className="space-y-2">
          {waiting.map((c) => (
            <CandidateCard key={c.id} candidate={c} passageHref={hrefs[c.id]} active={active === c.id} />
          ))}
        </ul>
      ) : (
        <p className="text-sm">{t('noCandidates')}</p>
      )}
      {decided.length ? (
        <details>
          <summary className="cursor-pointer text-sm font-medium">
            {t('decidedHeading')} ({decided.length})
          </summary>
          <ul className="mt-2 space-y-2">
            {decided.map((c) => (
              <CandidateCard key={c.id} candidate={c} passageHref={hrefs[c.id]} active={active === c.id} />
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
