'use client';
// A run that ended for want of evidence, said plainly: what the pool held at the as-of date
// against the threshold, which guideline factors had nothing, and where to add evidence (the
// import page, the company page's filing connectors). Not a failure: nothing was run.
import Link from 'next/link';
import { Alert } from '@/components/ui/layout';
import { FACTORS } from '@/lib/domain/factors';
import type { EvidenceShortfall } from '@/lib/domain/red-flags';
import { useLocale, useT } from '@/lib/i18n/client';
import { shortfallMessages } from '@/lib/i18n/messages/shortfall';

export function useFactorLabel() {
  const locale = useLocale();
  return (id: string) => {
    const factor = FACTORS.find((f) => f.id === id);
    return factor ? (locale === 'ko' ? factor.labelKo : factor.label) : id;
  };
}

export function EvidenceShortfallNotice({
  shortfall,
  asOf,
  companyId,
  canWrite,
}: {
  shortfall: EvidenceShortfall;
  asOf: string;
  companyId: string;
  canWrite: boolean;
}) {
  const t = useT(shortfallMessages);
  const label = useFactorLabel();
  const locale = useLocale();
  const link = 'underline underline-offset-2';
  return (
    <div data-testid="run-insufficient-evidence">
      <Alert tone="info">
        <p className="font-semibold">{t('title')}</p>
        <p className="mt-1" data-testid="shortfall-held">
          {t('held', { asOf, items: shortfall.items, factors: shortfall.factors })}{' '}
          {t('needs', { minItems: shortfall.minItems, minFactors: shortfall.minFactors })}
        </p>
        {shortfall.missingFactors.length ? (
          <p className="mt-1" data-testid="shortfall-missing">
            {t('missing', { factors: shortfall.missingFactors.map(label).join(locale === 'ko' ? ', ' : '; ') })}
          </p>
        ) : null}
        {canWrite ? (
          <p className="mt-2">
            {t('next')}{' '}
            <Link className={link} href="/import" data-testid="shortfall-import">
              {t('importLink')}
            </Link>
            {' · '}
            <Link className={link} href={`/companies/${companyId}`} data-testid="shortfall-connectors">
              {t('connectorsLink')}
            </Link>
          </p>
        ) : null}
      </Alert>
    </div>
  );
}

/** One line for the case page's list of runs. */
export function ShortfallLine({ shortfall }: { shortfall: EvidenceShortfall }) {
  const t = useT(shortfallMessages);
  return (
    <span className="mt-1 block text-xs text-zinc-700 dark:text-zinc-300" data-testid="run-shortfall">
      {t('short', { items: shortfall.items, factors: shortfall.factors, minItems: shortfall.minItems, minFactors: shortfall.minFactors })}
    </span>
  );
}
