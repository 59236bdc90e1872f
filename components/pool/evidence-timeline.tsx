import Link from 'next/link';
import { EvidenceControls } from '@/components/pool/evidence-editor';
import { Badge } from '@/components/ui/layout';
import type { CompanyEvidence, FactorTotals } from '@/lib/domain/views';
import { poolMessages } from '@/lib/i18n/messages/pool';
import { getLocale, getT } from '@/lib/i18n/server';
import { FACTORS } from '@/lib/domain/factors';

const POLARITY_TONE = { favorable: 'green', adverse: 'red', context: 'amber' } as const;

// Connector names are proper names; the others are translated.
const ORIGIN: Record<string, { name: string } | { key: 'origin_import' | 'origin_web' | 'origin_manual' | 'origin_document' }> = {
  import: { key: 'origin_import' },
  dart: { name: 'OpenDART' },
  edgar: { name: 'SEC EDGAR' },
  web: { key: 'origin_web' },
  manual: { key: 'origin_manual' },
  document: { key: 'origin_document' },
};

/** The company's evidence as one timeline per guideline factor, newest first within each. */
export async function EvidenceTimeline({
  evidence,
  totals,
  editable,
  companyId,
  expanded,
  passages = {},
}: {
  evidence: CompanyEvidence[];
  totals: FactorTotals;
  editable: boolean;
  companyId: string;
  expanded?: string;
  /** Items read out of an uploaded document: the address of their passage (lib/domain/passage.ts). */
  passages?: Record<string, string>;
}) {
  const [t, locale] = await Promise.all([getT(poolMessages), getLocale()]);
  const ko = locale === 'ko';
  const totalsOf = (id: string) => totals.find((x) => x.factor === id) ?? { total: 0, favorable: 0, adverse: 0 };
  // The factor's name in the reader's language; English readers also see the guideline's Korean term.
  const groups = [
    ...FACTORS.map((f) => ({ id: f.id as string, label: ko ? f.labelKo : f.label, other: ko ? '' : f.labelKo, reading: ko ? f.readingKo : f.reading })),
    { id: '', label: t('untagged'), other: '', reading: '' },
  ]
    .map((f) => ({ ...f, items: evidence.filter((e) => (e.factor ?? '') === f.id) }))
    .filter((g) => g.items.length > 0);
  const origin = (o: string) => {
    const known = ORIGIN[o];
    return !known ? o : 'name' in known ? known.name : t(known.key);
  };

  return (
    <div className="space-y-6">
      {groups.map((g) => {
        const { total, favorable, adverse } = totalsOf(g.id);
        const key = g.id || 'untagged';
        return (
          <section key={key} aria-labelledby={`factor-${key}`} data-testid={`factor-${key}`}>
            <h3 id={`factor-${key}`} className="flex flex-wrap items-baseline gap-x-3 text-base font-semibold">
              {g.label}
              {g.other ? <span className="text-sm font-normal text-zinc-600 dark:text-zinc-400">{g.other}</span> : null}
              {g.reading ? <span className="text-xs font-normal text-zinc-600 dark:text-zinc-400">({g.reading})</span> : null}
              <span className="text-xs font-normal">{t('factorCounts', { total, favorable, adverse })}</span>
            </h3>
            <ol className="mt-2 border-l-2 border-zinc-200 pl-4 dark:border-zinc-700">
              {g.items.map((e) => (
                <li key={e.id} className="relative pb-4" data-testid="evidence-item">
                  <span aria-hidden className="absolute -left-[1.4rem] top-1.5 h-2.5 w-2.5 rounded-full bg-zinc-400 dark:bg-zinc-500" />
                  <div className="flex flex-wrap items-center gap-2 text-sm">
                    <time dateTime={e.publishedDate} className="font-mono">
                      {e.publishedDate}
                    </time>
                    {e.polarity ? <Badge tone={POLARITY_TONE[e.polarity]}>{t(`polarity_${e.polarity}`)}</Badge> : null}
                    {e.factorSource === 'rm' ? <Badge tone="blue">{t('tagSetByRm')}</Badge> : null}
                    <span className="text-xs text-zinc-600 dark:text-zinc-400">{categoryLabel(t, e.category)}</span>
                  </div>
                  <p className="mt-1 font-medium">{e.title}</p>
                  <p className="mt-1 line-clamp-3 text-sm text-zinc-700 dark:text-zinc-300">{e.text}</p>
                  <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
                    {e.value ? <>{t('valueOf', { value: e.value })} · </> : null}
                    {e.eventDate && e.eventDate !== e.publishedDate ? <>{t('eventOn', { date: e.eventDate })} · </> : null}
                    <a className="text-blue-800 underline underline-offset-2 dark:text-blue-300" href={e.sourceUrl} target="_blank" rel="noreferrer noopener">
                      {e.sourceName}
                    </a>{' '}
                    {passages[e.id] ? (
                      <>
                        ·{' '}
                        <Link className="text-blue-800 underline underline-offset-2 dark:text-blue-300" href={passages[e.id]} data-testid="evidence-passage">
                          {t('openPassage')}
                        </Link>{' '}
                      </>
                    ) : null}
                    · {e.addedBy ? t('addedBy', { name: e.addedBy }) : t('from', { origin: origin(e.origin) })} · {t('idLabel')}{' '}
                    <code className="font-mono">{e.id}</code>
                  </p>
                  {editable ? <EvidenceControls item={e} /> : null}
                </li>
              ))}
            </ol>
            {total > g.items.length ? (
              <Link
                className="text-sm text-blue-800 underline underline-offset-2 dark:text-blue-300"
                href={`/companies/${companyId}?factor=${g.id}#factor-${key}`}
              >
                {t('showAll', { n: total, factor: ko ? g.label : g.label.toLowerCase() })}
              </Link>
            ) : expanded === g.id && total > 20 ? (
              <Link className="text-sm text-blue-800 underline underline-offset-2 dark:text-blue-300" href={`/companies/${companyId}#factor-${key}`}>
                {t('showNewest')}
              </Link>
            ) : null}
          </section>
        );
      })}
    </div>
  );
}

/** An evidence category in the reader's language; a category we do not know is shown as it is. */
export function categoryLabel(t: (key: `cat_${string}` & keyof typeof poolMessages.en) => string, category: string) {
  const key = `cat_${category}`;
  return key in poolMessages.en ? t(key as `cat_${string}` & keyof typeof poolMessages.en) : category.replaceAll('_', ' ');
}
