// The committee's two lists: cases waiting for a decision and cases already decided or
// returned. Each row links to the read-only case page, where the review happens.
import Link from 'next/link';
import { formatAmount, formatDateTime } from '@/components/lists/format';
import { shortNote } from '@/components/review/cover-note';
import { Badge, DataTable, Td } from '@/components/ui/layout';
import type { ReviewQueueItem } from '@/lib/domain/views';
import type { Translate } from '@/lib/i18n';
import type { reviewMessages } from '@/lib/i18n/messages/review';

type T = Translate<(typeof reviewMessages)['en']>;
/** `soleProprietorLabel`: the badge beside a borrower that is an individual in business (docs/oversight.md). */
export function ReviewQueue({
  rows,
  caption,
  decided,
  t,
  soleProprietorLabel,
}: {
  rows: ReviewQueueItem[];
  caption: string;
  decided: boolean;
  t: T;
  soleProprietorLabel?: string;
}) {
  const head = [
    t('colCase'),
    t('colBorrower'),
    t('colLoan'),
    t('colAsOf'),
    t('colRm'),
    t('colSubmitted'),
    t('colRuns'),
    t('colComments'),
    ...(decided ? [t('colOutcome'), t('colDecidedAt')] : []),
  ];
  return (
    <DataTable caption={caption} head={head}>
      {rows.map((c) => (
        <tr key={c.id} data-testid={decided ? 'decided-row' : 'waiting-row'}>
          <Td className="font-medium">
            <Link className="text-blue-800 underline underline-offset-2 dark:text-blue-300" href={`/cases/${c.id}`}>
              {c.title}
            </Link>
            {c.submissionNote ? (
              <p className="mt-1 max-w-md text-xs font-normal text-zinc-600 dark:text-zinc-400" data-testid="queue-cover-note">
                {t('queueCoverNote')} {shortNote(c.submissionNote)}
              </p>
            ) : null}
          </Td>
          <Td>
            {c.companyNameEn ?? c.companyName}
            {c.soleProprietor && soleProprietorLabel ? (
              <span className="ml-2" data-testid="queue-sole-proprietor">
                <Badge tone="amber">{soleProprietorLabel}</Badge>
              </span>
            ) : null}
          </Td>
          <Td>
            {formatAmount(c.loanAmount, c.loanCurrency)} · {t('tenor', { n: c.loanTenorMonths })}
          </Td>
          <Td>{c.asOfDate}</Td>
          <Td>{c.ownerName}</Td>
          <Td className="whitespace-nowrap">{formatDateTime(c.submittedAt)}</Td>
          <Td>{c.runCount}</Td>
          <Td>{c.commentCount}</Td>
          {decided ? (
            <>
              <Td>
                {c.outcome ? (
                  <Badge tone={c.outcome === 'decline' ? 'red' : c.outcome === 'return' ? 'blue' : 'green'}>{t(`outcome_${c.outcome}`)}</Badge>
                ) : (
                  '—'
                )}
              </Td>
              <Td className="whitespace-nowrap">{formatDateTime(c.decidedAt)}</Td>
            </>
          ) : null}
        </tr>
      ))}
    </DataTable>
  );
}
