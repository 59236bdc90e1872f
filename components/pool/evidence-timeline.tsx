import { EvidenceControls } from '@/components/pool/evidence-editor';
import { Badge } from '@/components/ui/layout';
import Link from 'next/link';
import type { CompanyEvidence, FactorTotals } from '@/lib/db/queries/companies';
import { FACTORS } from '@/lib/pool/factors';

const POLARITY = {
  favorable: { tone: 'green', label: 'favorable' },
  adverse: { tone: 'red', label: 'adverse' },
  context: { tone: 'amber', label: 'context-dependent' },
} as const;

const ORIGIN_LABEL: Record<string, string> = { import: 'import', dart: 'OpenDART', edgar: 'SEC EDGAR', web: 'web search', manual: 'added by hand' };

/** The company's evidence as one timeline per guideline factor, newest first within each. */
export function EvidenceTimeline({
  evidence,
  totals,
  editable,
  companyId,
  expanded,
}: {
  evidence: CompanyEvidence[];
  totals: FactorTotals;
  editable: boolean;
  companyId: string;
  expanded?: string;
}) {
  const totalsOf = (id: string) => totals.find((t) => t.factor === id) ?? { total: 0, favorable: 0, adverse: 0 };
  const groups = [...FACTORS.map((f) => ({ id: f.id as string, label: f.label, labelKo: f.labelKo, reading: f.reading })), { id: '', label: 'Untagged', labelKo: '', reading: '' }]
    .map((f) => ({ ...f, items: evidence.filter((e) => (e.factor ?? '') === f.id) }))
    .filter((g) => g.items.length > 0);

  return (
    <div className="space-y-6">
      {groups.map((g) => {
        const { total, favorable, adverse } = totalsOf(g.id);
        const key = g.id || 'untagged';
        return (
          <section key={g.id || 'untagged'} aria-labelledby={`factor-${g.id || 'untagged'}`} data-testid={`factor-${g.id || 'untagged'}`}>
            <h3 id={`factor-${g.id || 'untagged'}`} className="flex flex-wrap items-baseline gap-x-3 text-base font-semibold">
              {g.label}
              {g.labelKo ? <span className="text-sm font-normal text-zinc-600 dark:text-zinc-400">{g.labelKo}</span> : null}
              {g.reading ? <span className="text-xs font-normal text-zinc-600 dark:text-zinc-400">({g.reading})</span> : null}
              <span className="text-xs font-normal">
                {total} items · {favorable} favorable · {adverse} adverse
              </span>
            </h3>
            <ol className="mt-2 border-l-2 border-zinc-200 pl-4 dark:border-zinc-700">
              {g.items.map((e) => (
                <li key={e.id} className="relative pb-4" data-testid="evidence-item">
                  <span aria-hidden className="absolute -left-[1.4rem] top-1.5 h-2.5 w-2.5 rounded-full bg-zinc-400 dark:bg-zinc-500" />
                  <div className="flex flex-wrap items-center gap-2 text-sm">
                    <time dateTime={e.publishedDate} className="font-mono">
                      {e.publishedDate}
                    </time>
                    {e.polarity ? <Badge tone={POLARITY[e.polarity].tone}>{POLARITY[e.polarity].label}</Badge> : null}
                    {e.factorSource === 'rm' ? <Badge tone="blue">tag set by RM</Badge> : null}
                    <span className="text-xs text-zinc-600 dark:text-zinc-400">{e.category.replaceAll('_', ' ')}</span>
                  </div>
                  <p className="mt-1 font-medium">{e.title}</p>
                  <p className="mt-1 line-clamp-3 text-sm text-zinc-700 dark:text-zinc-300">{e.text}</p>
                  <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
                    {e.value ? <>Value {e.value} · </> : null}
                    {e.eventDate && e.eventDate !== e.publishedDate ? <>event {e.eventDate} · </> : null}
                    <a className="text-blue-800 underline underline-offset-2 dark:text-blue-300" href={e.sourceUrl} target="_blank" rel="noreferrer noopener">
                      {e.sourceName}
                    </a>{' '}
                    · {e.addedBy ? `added by ${e.addedBy}` : `from ${ORIGIN_LABEL[e.origin] ?? e.origin}`} · id <code className="font-mono">{e.id}</code>
                  </p>
                  {editable ? <EvidenceControls item={e} /> : null}
                </li>
              ))}
            </ol>
            {total > g.items.length ? (
              <Link className="text-sm text-blue-800 underline underline-offset-2 dark:text-blue-300" href={`/companies/${companyId}?factor=${g.id}#factor-${key}`}>
                Show all {total} items on {g.label.toLowerCase()}
              </Link>
            ) : expanded === g.id && total > 20 ? (
              <Link className="text-sm text-blue-800 underline underline-offset-2 dark:text-blue-300" href={`/companies/${companyId}#factor-${key}`}>
                Show the newest only
              </Link>
            ) : null}
          </section>
        );
      })}
    </div>
  );
}
