'use client';
// A citation as a small chip: the cited item's title (cut short, lib/report/chip-label.ts) and
// date on the chip, so the chips of one filing tell its items apart; the full title, the source,
// date and a link to the source in a popover tied to the chip with aria-describedby. Hover and keyboard
// focus show it while they last; a click, a tap, Enter or Space pins it open, and the same again
// closes it; Escape closes it and leaves focus on the chip, and so does a press outside it.
// Citations that resolve to nothing are marked unverified in words and by a dashed outline, never
// by colour alone; one dated after the as-of date says so instead (docs/protocols.md, "Taking
// answers in"). A finished run's chip shows the evidence as the run cited it, and says in the
// popover when the pool item has changed since.
import { useEffect, useId, useRef, useState } from 'react';
import type { EvidenceRef } from '@/lib/report/run-state';
import { useT } from '@/lib/i18n/client';
import { runMessages } from '@/lib/i18n/messages/run';
import { repairMessages } from '@/lib/i18n/messages/repairs';
import { POOL_NOTE_LABEL } from '@/lib/domain/cited-source';
import { chipLabel } from '@/lib/report/chip-label';

/**
 * Why the popover is open: a pointer resting on the chip, keyboard focus, or a click / tap /
 * Enter / Space, which pins it until the same again, Escape or a press elsewhere. A hover or
 * focus opens it first, so the click that follows them pins it rather than closing it.
 */
type PopoverVia = 'hover' | 'focus' | 'click' | null;

function nextVia(via: PopoverVia, event: 'enter' | 'leave' | 'focus' | 'blur' | 'click' | 'escape' | 'outside'): PopoverVia {
  switch (event) {
    case 'enter':
      return via ?? 'hover';
    case 'leave':
      return via === 'hover' ? null : via;
    case 'focus':
      return via ?? 'focus';
    case 'click':
      return via === 'click' ? null : 'click';
    case 'blur':
    case 'escape':
    case 'outside':
      return null;
  }
}

export type ChipCitation = { evidenceId?: string; source: string; date: string; value?: string; verified?: boolean; afterAsOf?: boolean };

export function CitationChip({ citation, evidence: ref }: { citation: ChipCitation; evidence?: EvidenceRef }) {
  // An unverified citation shows what the model wrote, never an item its step was not shown.
  const evidence = citation.verified === false ? undefined : ref;
  const t = useT(runMessages);
  const tr = useT(repairMessages);
  const tipId = useId();
  const [via, setVia] = useState<PopoverVia>(null);
  const open = via !== null;
  const wrapper = useRef<HTMLSpanElement>(null);
  const chip = useRef<HTMLButtonElement>(null);
  const pinned = via === 'click';
  // A pinned popover closes on a press anywhere else (a tap elsewhere may not move focus).
  useEffect(() => {
    if (!pinned) return;
    const onPointerDown = (e: PointerEvent) => {
      if (!wrapper.current?.contains(e.target as Node | null)) setVia((v) => nextVia(v, 'outside'));
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [pinned]);
  const unverified = citation.verified === false;
  const date = evidence?.date || citation.date;
  const source = evidence?.source || citation.source;
  // An unverified citation has no item behind it: the chip names the source the model wrote.
  const label = evidence?.title ? chipLabel(evidence.title) : source;
  return (
    <span
      ref={wrapper}
      className="relative inline-block"
      data-open={open ? 'true' : 'false'}
      onMouseEnter={() => setVia((v) => nextVia(v, 'enter'))}
      onMouseLeave={() => setVia((v) => nextVia(v, 'leave'))}
      onFocus={() => setVia((v) => nextVia(v, 'focus'))}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setVia((v) => nextVia(v, 'blur'));
      }}
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !open) return;
        // Closed here, not by whatever dialog or page the chip sits in.
        e.stopPropagation();
        // Focus back on the chip first (from the source link, say), then closed: the focus
        // this moves would otherwise reopen it.
        chip.current?.focus();
        setVia((v) => nextVia(v, 'escape'));
      }}
    >
      <button
        type="button"
        ref={chip}
        aria-describedby={tipId}
        aria-controls={tipId}
        aria-expanded={open}
        onClick={() => setVia((v) => nextVia(v, 'click'))}
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
        <span className="truncate" data-testid="citation-label">
          {label}
        </span>
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
        {unverified ? (
          <span className="mt-1 block text-red-800 dark:text-red-300">{citation.afterAsOf ? tr('afterAsOfHint') : t('unverifiedHint')}</span>
        ) : null}
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
        {evidence?.passage ? (
          <a className="mt-1 ml-3 inline-block text-blue-800 underline dark:text-blue-300" href={evidence.passage} data-testid="citation-passage">
            {t('openPassage')}
          </a>
        ) : null}
      </span>
    </span>
  );
}
