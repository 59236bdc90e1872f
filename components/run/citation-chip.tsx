'use client';
// A citation as a small chip: the source and date on the chip, the evidence's title, date and
// a link to the source in a popover that opens on hover, on keyboard focus and on click, and is
// tied to the chip with aria-describedby. Citations that resolve to nothing are marked unverified
// in words and by a dashed outline, never by colour alone; one dated after the as-of date says so
// instead (docs/protocols.md, "Taking answers in"). A finished run's chip shows the evidence as
// the run cited it, and says in the popover when the pool item has changed since.
import { useId, useState } from 'react';
import type { EvidenceRef } from '@/lib/report/run-state';
import { useT } from '@/lib/i18n/client';
import { runMessages } from '@/lib/i18n/messages/run';
import { repairMessages } from '@/lib/i18n/messages/repairs';
import { POOL_NOTE_LABEL } from '@/lib/domain/cited-source';

export type ChipCitation = { evidenceId?: string; source: string; date: string; value?: string; verified?: boolean; afterAsOf?: boolean };

export function CitationChip({ citation, evidence }: { citation: ChipCitation; evidence?: EvidenceRef }) {
  const t = useT(runMessages);
  const tr = useT(repairMessages);
  const tipId = useId();
  const [open, setOpen] = useState(false);
  const unverified = citation.verified === false;
  const date = evidence?.date || citation.date;
  const source = evidence?.source || citation.source;
  return (
    <span
      className="relative inline-block"
      onMouseEnter={() => setOpen(true)}
      onMouseLeave={() => setOpen(false)}
      onFocus={() => setOpen(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') setOpen(false);
      }}
    >
      <button
        type="button"
        aria-describedby={tipId}
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        data-testid="citation-chip"
        data-evidence-id={citation.evidenceId ?? ''}
        data-verified={unverified ? 'false' : 'true'}
        data-after-as-of={citation.afterAsOf ? 'true' : undefined}
        className={`inline-flex max-w-[18rem] items-center gap-1 truncate rounded-full border px-2 py-0.5 text-xs ${
          unverified
            ? 'border-dashed border-red-700 bg-red-50 text-red-900 dark:border-red-400 dark:bg-red-950 dark:text-red-100'
            : 'border-zinc-300 bg-zinc-50 text-zinc-800 dark:border-zinc-600 dark:bg-zinc-800 dark:text-zinc-100'
        }`}
      >
        <span className="truncate">{source}</span>
        <span aria-hidden>·</span>
        <span data-testid="citation-date">{date}</span>
        {unverified ? <span className="font-semibold uppercase">{citation.afterAsOf ? tr('afterAsOf') : t('unverified')}</span> : null}
      </button>
      <span
        id={tipId}
        role="tooltip"
        className={`${open ? 'block' : 'hidden'} absolute left-0 top-full z-20 mt-1 w-72 rounded-md border border-zinc-300 bg-white p-3 text-xs text-zinc-900 shadow-lg dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100`}
      >
        <span className="block font-semibold" data-testid="citation-title">
          {evidence?.title ?? citation.source}
        </span>
        <span className="mt-1 block">
          {source} · {date}
          {citation.value ? ` · ${citation.value}` : ''}
        </span>
        {unverified ? <span className="mt-1 block text-red-800 dark:text-red-300">{citation.afterAsOf ? tr('afterAsOfHint') : t('unverifiedHint')}</span> : null}
        {evidence?.poolNote ? (
          <span className="mt-1 block text-amber-800 dark:text-amber-300" data-testid="citation-pool-note" data-pool-note={evidence.poolNote}>
            {t(POOL_NOTE_LABEL[evidence.poolNote])}
          </span>
        ) : null}
        {evidence?.url ? (
          <a className="mt-1 inline-block text-blue-800 underline dark:text-blue-300" href={evidence.url} target="_blank" rel="noreferrer noopener">
            {t('openSource')}
          </a>
        ) : null}
      </span>
    </span>
  );
}
