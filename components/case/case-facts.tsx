import Link from 'next/link';
import { CaseStatusBadge } from '@/components/lists/cases-table';
import { formatAmount, formatDateTime } from '@/components/lists/format';
import type { CaseDetail } from '@/lib/domain/views';
import type { Translate } from '@/lib/i18n';
import type { casesMessages } from '@/lib/i18n/messages/cases';
import { getLocale } from '@/lib/i18n/server';

type T = Translate<(typeof casesMessages)['en']>;

export async function CaseFacts({ kase, t }: { kase: CaseDetail; t: T }) {
  const locale = await getLocale();
  const rows: [string, React.ReactNode][] = [
    [
      t('borrower'),
      <Link key="b" className="text-blue-800 underline underline-offset-2 dark:text-blue-300" href={`/companies/${kase.companyId}`}>
        {kase.companyNameEn && kase.companyNameEn !== kase.companyName ? `${kase.companyName} (${kase.companyNameEn})` : kase.companyName}
      </Link>,
    ],
    [t('loanRequest'), `${formatAmount(kase.loanAmount, kase.loanCurrency, locale)} · ${t('tenorMonths', { n: kase.loanTenorMonths })}`],
    [t('purpose'), kase.loanPurpose],
    [t('asOfDate'), kase.asOfDate],
    [t('caseStatus'), <CaseStatusBadge key="s" status={kase.status} activeRunCount={kase.activeRunCount} />],
    [t('owner'), kase.ownerName],
    ...(kase.submittedAt ? ([[t('submittedAt'), formatDateTime(kase.submittedAt, locale)]] as [string, React.ReactNode][]) : []),
    ...(kase.notes ? ([[t('notes'), kase.notes]] as [string, React.ReactNode][]) : []),
  ];
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr]" data-testid="case-facts">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-medium text-zinc-600 dark:text-zinc-400">{label}</dt>
          <dd className="whitespace-pre-line">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
