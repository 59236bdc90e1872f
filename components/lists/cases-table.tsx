import Link from 'next/link';
import { formatAmount, formatDateTime, formatNumber } from '@/components/lists/format';
import { Badge, DataTable, Td } from '@/components/ui/layout';
import { shownCaseStatus, type ShownCaseStatus } from '@/lib/domain/case-status';
import type { CaseListItem } from '@/lib/domain/views';
import type { CaseStatus } from '@/lib/domain/vocabulary';
import { casesMessages } from '@/lib/i18n/messages/cases';
import { listsMessages } from '@/lib/i18n/messages/lists';
import { getLocale, getT } from '@/lib/i18n/server';

const STATUS_TONE: Record<ShownCaseStatus, 'neutral' | 'blue' | 'amber' | 'green'> = {
  draft: 'neutral',
  analyzing: 'blue',
  not_submitted: 'neutral',
  submitted: 'amber',
  decided: 'green',
  returned: 'amber',
};

/** "Analyzing" only while a run of the case is queued or running (lib/domain/case-status.ts). */
export async function CaseStatusBadge({ status, activeRunCount }: { status: CaseStatus; activeRunCount: number }) {
  const t = await getT(casesMessages);
  const shown = shownCaseStatus(status, activeRunCount);
  return <Badge tone={STATUS_TONE[shown]}>{t(`status_${shown}`)}</Badge>;
}

export async function CasesTable({ cases, caption, showOwner = false }: { cases: CaseListItem[]; caption: string; showOwner?: boolean }) {
  const [t, locale] = await Promise.all([getT(listsMessages), getLocale()]);
  const head = [t('colCase'), t('colBorrower'), t('colLoan'), t('colAsOf'), t('colStatus'), t('colRuns'), ...(showOwner ? [t('colRm')] : []), t('colUpdated')];
  return (
    <DataTable caption={caption} head={head}>
      {cases.map((c) => (
        <tr key={c.id} data-testid="case-row">
          <Td className="font-medium">
            <Link className="text-blue-800 underline underline-offset-2 dark:text-blue-300" href={`/cases/${c.id}`}>
              {c.title}
            </Link>
          </Td>
          <Td>
            <Link className="text-blue-800 underline underline-offset-2 dark:text-blue-300" href={`/companies/${c.companyId}`}>
              {locale === 'ko' ? c.companyName : (c.companyNameEn ?? c.companyName)}
            </Link>
          </Td>
          <Td>
            {formatAmount(c.loanAmount, c.loanCurrency, locale)} · {t('months', { n: c.loanTenorMonths })}
          </Td>
          <Td>{c.asOfDate}</Td>
          <Td>
            <CaseStatusBadge status={c.status} activeRunCount={c.activeRunCount} />
          </Td>
          <Td>{formatNumber(c.runCount, locale)}</Td>
          {showOwner ? <Td>{c.ownerName}</Td> : null}
          <Td className="whitespace-nowrap">{formatDateTime(c.updatedAt, locale)}</Td>
        </tr>
      ))}
    </DataTable>
  );
}
