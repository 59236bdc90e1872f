'use client';
// The pro/con panels of a run: each guideline factor with its favorable and adverse arguments,
// their citations, and a link to the turn that made each one. Rebuilt from props on every
// render, so on the live run page it grows as turns finish. Filtering is client-side only.
import { useId, useMemo, useState } from 'react';
import { Badge } from '@/components/ui/layout';
import type { RunViewTurn } from '@/lib/report/run-doc';
import type { EvidenceRefs } from '@/lib/report/run-state';
import { redFlagMessages } from '@/lib/i18n/messages/red-flags';
import {
  buildFactorPanels,
  filterPanels,
  isCovered,
  NO_FILTER,
  panelCounts,
  type FactorPanel,
  type PanelArgument,
  type PanelFilter,
  type PanelSide,
} from '@/lib/eval/panels';
import { useLocale, useT } from '@/lib/i18n/client';
import { panelsMessages } from '@/lib/i18n/messages/panels';
import { FACTORS, type FactorId } from '@/lib/domain/factors';
import { useFactorName } from '@/components/run/content-language';

type Props = {
  turns: Pick<RunViewTurn, 'step' | 'team' | 'act' | 'status' | 'output'>[];
  /** The run page's path when the panels sit on another page; turn links are then `<runHref>#turn-D5`. */
  runHref?: string;
  headingLevel?: 2 | 3;
  /** The cited items with their tagged readings, to mark arguments that read against their evidence. */
  evidence?: EvidenceRefs;
};

const LINK = 'text-blue-800 underline underline-offset-2 hover:no-underline dark:text-blue-300';
const CONTROL = 'rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100';

/** Side marks are a symbol and a word as well as a colour, so they read without colour. */
const SIDE_STYLE: Record<PanelSide, { mark: string; border: string; tone: 'green' | 'red' | 'amber' }> = {
  favorable: { mark: '+', border: 'border-l-green-700 dark:border-l-green-400', tone: 'green' },
  adverse: { mark: '−', border: 'border-l-red-700 dark:border-l-red-400', tone: 'red' },
  context: { mark: '±', border: 'border-l-amber-700 dark:border-l-amber-400', tone: 'amber' },
};

export function FactorPanels({ turns, runHref = '', headingLevel = 2, evidence }: Props) {
  const t = useT(panelsMessages);
  const locale = useLocale();
  const id = useId();
  const [filter, setFilter] = useState<PanelFilter>({ ...NO_FILTER, verifiedOnly: false });
  const panels = useMemo(() => buildFactorPanels(turns, (id) => evidence?.[id]?.polarity), [turns, evidence]);
  const shown = useMemo(() => filterPanels(panels, filter), [panels, filter]);
  const covered = new Set(panels.filter(isCovered).map((p) => p.factor));
  const uncovered = panels.filter((p) => !covered.has(p.factor));
  const visible = shown.filter((p) => covered.has(p.factor));
  const count = visible.reduce((n, p) => n + p.favorable.length + p.adverse.length + p.context.length, 0);
  // A panel is named in the run's language, like the arguments in it; its guidance stays in the reader's.
  const label: (f: FactorId) => string = useFactorName();
  const H = `h${headingLevel}` as const;
  const H2 = `h${headingLevel + 1}` as 'h3' | 'h4';

  return (
    <section aria-labelledby={`${id}-h`} className="@container space-y-4" data-testid="factor-panels">
      <div>
        <H id={`${id}-h`} className="text-lg font-semibold">
          {t('heading')}
        </H>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('intro')}</p>
      </div>

      <fieldset className="flex flex-wrap items-end gap-4 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
        <legend className="px-1 text-sm font-medium">{t('filters')}</legend>
        <label className="flex flex-col gap-1 text-sm">
          {t('factor')}
          <select
            className={CONTROL}
            value={filter.factor}
            onChange={(e) => setFilter({ ...filter, factor: e.target.value as PanelFilter['factor'] })}
            data-testid="panels-factor"
          >
            <option value="all">{t('allFactors')}</option>
            {FACTORS.map((f) => (
              <option key={f.id} value={f.id}>
                {label(f.id)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm">
          {t('side')}
          <select
            className={CONTROL}
            value={filter.side}
            onChange={(e) => setFilter({ ...filter, side: e.target.value as PanelFilter['side'] })}
            data-testid="panels-side"
          >
            <option value="all">{t('allSides')}</option>
            <option value="favorable">{t('favorable')}</option>
            <option value="adverse">{t('adverse')}</option>
            <option value="context">{t('context')}</option>
          </select>
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={filter.citedOnly}
            onChange={(e) => setFilter({ ...filter, citedOnly: e.target.checked })}
            data-testid="panels-cited"
          />
          {t('citedOnly')}
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={filter.verifiedOnly ?? false} onChange={(e) => setFilter({ ...filter, verifiedOnly: e.target.checked })} />
          {t('verifiedOnly')}
        </label>
        <p className="text-sm text-zinc-600 dark:text-zinc-400" role="status" data-testid="panels-count">
          {t('showing', { n: count })}
        </p>
      </fieldset>

      {covered.size === 0 ? <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('noneYet')}</p> : null}

      {visible.map((panel) => {
        const all = panelCounts(panels.find((p) => p.factor === panel.factor)!);
        const factor = FACTORS.find((f) => f.id === panel.factor)!;
        return (
          <section
            key={panel.factor}
            aria-labelledby={`${id}-${panel.factor}`}
            className="rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900"
            data-testid={`panel-${panel.factor}`}
          >
            <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
              <H2 id={`${id}-${panel.factor}`} className="font-semibold">
                {label(panel.factor)}
              </H2>
              <p className="text-xs text-zinc-600 dark:text-zinc-400">
                {t('counts', { fav: all.favorable, adv: all.adverse, cites: all.citations })}
                {all.context ? ` · ${t('contextCount', { n: all.context })}` : ''}
                {all.unverified ? ` · ${t('unverifiedCount', { n: all.unverified })}` : ''}
                {' · '}
                {t('reading', { reading: locale === 'ko' ? factor.readingKo : factor.reading })}
              </p>
            </div>
            {/* A container query: side by side on the full-width run page, stacked in a compare column. */}
            <div className="grid grid-cols-1 gap-4 @2xl:grid-cols-2">
              {/* Both sides by default, so an empty one shows as a gap; a side filter shows only its side. */}
              {(['favorable', 'adverse', 'context'] as const)
                .filter((side) => (filter.side === 'all' ? side !== 'context' || panel.context.length > 0 : side === filter.side))
                .map((side) => (
                  <SideColumn key={side} side={side} args={panel[side]} runHref={runHref} level={headingLevel + 2} evidence={evidence} />
                ))}
            </div>
          </section>
        );
      })}

      <section
        aria-labelledby={`${id}-gaps`}
        className="rounded-lg border border-dashed border-zinc-300 p-3 text-sm dark:border-zinc-700"
        data-testid="panels-uncovered"
      >
        <H2 id={`${id}-gaps`} className="font-semibold">
          {t('uncovered', { n: uncovered.length })}
        </H2>
        {uncovered.length ? (
          <ul className="mt-1 flex flex-wrap gap-2">
            {uncovered.map((p: FactorPanel) => (
              <li key={p.factor}>
                <Badge>{label(p.factor)}</Badge>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-1 text-zinc-600 dark:text-zinc-400">{t('uncoveredNone')}</p>
        )}
      </section>
    </section>
  );
}

function SideColumn({
  side,
  args,
  runHref,
  level,
  evidence,
}: {
  side: PanelSide;
  args: PanelArgument[];
  runHref: string;
  level: number;
  evidence?: EvidenceRefs;
}) {
  const t = useT(panelsMessages);
  const tf = useT(redFlagMessages);
  const style = SIDE_STYLE[side];
  const H = `h${Math.min(level, 6)}` as 'h4' | 'h5' | 'h6';
  return (
    <div data-testid={`side-${side}`}>
      <H className="mb-2 flex items-center gap-2 text-sm font-semibold">
        <span aria-hidden="true" className="inline-flex h-5 w-5 items-center justify-center rounded-full border border-current font-bold">
          {style.mark}
        </span>
        {t(side)} ({args.length})
      </H>
      {args.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('noneOnSide')}</p>
      ) : (
        <ul className="space-y-3">
          {args.map((a) => (
            <li
              key={a.key}
              className={`border-l-4 pl-3 ${style.border}`}
              data-testid="panel-argument"
              data-reads-against={a.readsAgainst.length ? 'true' : undefined}
            >
              <p className="text-sm">{a.text}</p>
              {a.readsAgainst.length ? (
                <div className="mt-1 text-xs text-red-800 dark:text-red-300" data-testid="reads-against">
                  <span title={tf('readsAgainstHint')}>
                    <Badge tone="red">⚠ {tf('readsAgainst')}</Badge>
                  </span>
                  <ul className="mt-0.5">
                    {a.readsAgainst.map((x) => (
                      <li key={x.evidenceId}>
                        {tf('readsAgainstItem', { reading: tf(`reading_${x.reading}`), title: evidence?.[x.evidenceId]?.title ?? x.evidenceId })}
                      </li>
                    ))}
                  </ul>
                </div>
              ) : null}
              <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
                <a className={LINK} href={`${runHref}#turn-${a.stepId}`} aria-label={t('openTurn', { step: a.stepId })}>
                  {t('turn', { step: a.stepId })}
                </a>
                {a.claimId ? <span>{a.claimId}</span> : null}
                {a.respondsTo ? <span>{t('reply', { id: a.respondsTo })}</span> : null}
                {a.contextual ? <Badge tone="amber">{t('contextTag')}</Badge> : null}
                {a.source === 'report' ? <Badge>{t('fromReport')}</Badge> : null}
              </p>
              {a.citations.length ? (
                <ul className="mt-1 space-y-0.5 text-xs" aria-label={t('citations')}>
                  {a.citations.map((c, i) => (
                    <li key={i} className="text-zinc-700 dark:text-zinc-300">
                      <span className="font-medium">{c.date || '—'}</span> · {c.source}
                      {c.value ? ` (${c.value})` : ''}{' '}
                      {c.verified ? null : (
                        <span title={t('unverifiedHint')}>
                          <Badge tone="red">⚠ {t('unverified')}</Badge>
                        </span>
                      )}
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">{t('noCitation')}</p>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
