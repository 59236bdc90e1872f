'use client';
// Red flags at the top of a page: the decisive credit events the rule table (lib/pool/red-flags.ts)
// found in the evidence, each with its kind in words, its date, the item's title and the citation
// popover that opens the evidence item. Nothing at all when there are none: no empty panel. A
// heading and a list, so screen readers announce how many there are; the mark is a symbol and a
// word as well as a colour.
import { useId } from 'react';
import { CitationChip } from '@/components/run/citation-chip';
import type { RedFlag } from '@/lib/domain/red-flags';
import { useT } from '@/lib/i18n/client';
import { redFlagKindKey, redFlagMessages } from '@/lib/i18n/messages/red-flags';
import type { EvidenceRefs } from '@/lib/report/run-state';

/** Where the flags were read: a company's pool today, a case's as-of date, or a run's. */
export type RedFlagScope = { kind: 'company' | 'case' | 'run'; date: string };

const SCOPE_KEY = { company: 'scopeCompany', case: 'scopeCase', run: 'scopeRun' } as const;

export function RedFlagsPanel({
  flags,
  evidence = {},
  scope,
  headingLevel = 2,
}: {
  flags: readonly RedFlag[];
  /** Source name, date and link of the flagged items, by evidence id, for the popover. */
  evidence?: EvidenceRefs;
  scope: RedFlagScope;
  headingLevel?: 2 | 3;
}) {
  const t = useT(redFlagMessages);
  const id = useId();
  if (!flags.length) return null;
  const H = `h${headingLevel}` as const;
  return (
    <section
      aria-labelledby={`${id}-h`}
      data-testid="red-flags"
      data-count={flags.length}
      className="rounded-lg border-2 border-red-700 bg-red-50 p-4 text-red-950 dark:border-red-400 dark:bg-red-950 dark:text-red-50"
    >
      <H id={`${id}-h`} className="flex items-center gap-2 text-base font-semibold">
        <span
          aria-hidden="true"
          className="inline-flex h-6 w-6 items-center justify-center rounded-full bg-red-700 text-sm font-bold text-white dark:bg-red-400 dark:text-red-950"
        >
          !
        </span>
        {t('heading')} ({flags.length})
      </H>
      <p className="mt-1 text-sm">
        {t('intro')} {t(SCOPE_KEY[scope.kind], { date: scope.date })}
      </p>
      <ul className="mt-3 space-y-2">
        {flags.map((f) => {
          const ref = evidence[f.evidenceId];
          return (
            <li
              key={`${f.kind}-${f.evidenceId}`}
              data-testid="red-flag"
              data-kind={f.kind}
              data-evidence-id={f.evidenceId}
              className="rounded-md border border-red-200 bg-white px-3 py-2 text-sm text-zinc-900 dark:border-red-800 dark:bg-zinc-900 dark:text-zinc-100"
            >
              <p className="flex flex-wrap items-baseline gap-x-2">
                <span className="font-semibold" data-testid="red-flag-kind">
                  {t(redFlagKindKey(f.kind))}
                </span>
                <span aria-hidden="true">·</span>
                <time dateTime={f.date} className="tabular-nums" data-testid="red-flag-date">
                  {f.date}
                </time>
              </p>
              <p className="mt-0.5 break-words" data-testid="red-flag-title">
                {f.title}
              </p>
              <p className="mt-1 flex flex-wrap items-center gap-2 text-xs">
                <span>{t('item')}:</span>
                <CitationChip
                  citation={{ evidenceId: f.evidenceId, source: ref?.source || t('item'), date: ref?.date || f.date, verified: true }}
                  evidence={ref ?? { id: f.evidenceId, title: f.title, date: f.date, source: t('item'), url: '' }}
                />
                {/* The same event as other items report it (the filing reached the pool twice): one flag, each copy cited. */}
                {(f.alsoEvidenceIds ?? []).map((id) => {
                  const also = evidence[id];
                  return (
                    <CitationChip
                      key={id}
                      citation={{ evidenceId: id, source: also?.source || t('item'), date: also?.date || f.date, verified: true }}
                      evidence={also ?? { id, title: f.title, date: f.date, source: t('item'), url: '' }}
                    />
                  );
                })}
              </p>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
