// The red-flag screening (docs/protocols.md, "Red-flag screening"): the report of a run that ended
// `red_flag_screening` — a pool too thin to debate that holds decisive red flags. It is built from
// what the run stored (its red flags and its shortfall) and the flagged items' sources, by the same
// words on every system, so the page, the Markdown and the PDF say the same. Pure.
import type { EvidenceShortfall } from '@/lib/domain/red-flags';
import { translator, type Locale } from '@/lib/i18n';
import { screeningMessages } from '@/lib/i18n/messages/screening';
import type { Block, CitationRef, RedFlagRow, Section } from '@/lib/report/doc';

export type ScreeningInput = {
  asOf: string;
  shortfall: EvidenceShortfall | null;
  /** The run's red flags as the report lists them (lib/report/model.ts), with source and link. */
  flags: RedFlagRow[];
  factorLabel: (factor: string) => string;
  locale: Locale;
};

/** The notice at the top of the screening: what it is, what the pool held, and that no model was called. */
export function screeningNotice({ asOf, shortfall, flags, locale }: ScreeningInput): { tone: 'info'; title: string; text: string } {
  const t = translator(screeningMessages, locale);
  const items = shortfall?.items ?? 0;
  return {
    tone: 'info',
    title: t('noticeTitle'),
    text: t('noticeBody', {
      asOf,
      items: items === 1 ? t('item') : t('items', { n: items }),
      factors: shortfall?.factors ?? 0,
      minItems: shortfall?.minItems ?? 0,
      minFactors: shortfall?.minFactors ?? 0,
      flags: flags.length === 1 ? t('flag') : t('flags', { n: flags.length }),
    }),
  };
}

/**
 * The screening's sections: each decisive event (what, when, source, why it decides), what the
 * pool lacks (the factors with nothing), what the committee must weigh, and how it was made.
 */
export function screeningSections({ asOf, shortfall, flags, factorLabel, locale }: ScreeningInput): Section[] {
  const t = translator(screeningMessages, locale);
  const events: Block[] = flags.map((f) => {
    const citation: CitationRef = { source: f.source ?? '', date: f.date, evidenceId: f.evidenceId, verified: true, url: f.url, title: f.title };
    return {
      kind: 'group',
      title: `${f.label} — ${f.date}`,
      blocks: [
        {
          kind: 'fields',
          items: [
            { label: t('eventWhat'), value: f.title },
            { label: t('eventWhen'), value: f.date },
            { label: t('eventSource'), value: f.source ?? t('noSource') },
            { label: t('eventWhy'), value: t(`why_${f.kind}`) },
            ...(f.alsoEvidenceIds?.length ? [{ label: t('eventAlso'), value: f.alsoEvidenceIds.join(', ') }] : []),
          ],
        },
        { kind: 'citations', items: [citation] },
      ],
    };
  });
  const missing = shortfall?.missingFactors ?? [];
  const gaps: Block[] = missing.length
    ? [
        { kind: 'paragraph', text: t('gapsBody', { asOf }) },
        { kind: 'list', items: missing.map(factorLabel) },
      ]
    : [{ kind: 'paragraph', text: t('gapsNone') }];
  // One question per kind of event, in the order the flags are listed, then the two every screening asks.
  const kinds = [...new Set(flags.map((f) => f.kind))];
  const weigh: Block[] = [{ kind: 'list', items: [...kinds.map((k) => t(`weigh_${k}`)), t('weighCurrent', { asOf }), t('weighFull')] }];
  return [
    { id: 'screening-events', title: t('eventsTitle'), blocks: events },
    { id: 'screening-gaps', title: t('gapsTitle'), blocks: gaps },
    { id: 'screening-weigh', title: t('weighTitle'), blocks: weigh },
    { id: 'screening-method', title: t('methodTitle'), blocks: [{ kind: 'paragraph', text: t('methodBody') }] },
  ];
}
