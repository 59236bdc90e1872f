import Link from 'next/link';
import { formatAmount, formatDateTime } from '@/components/lists/format';
import { Badge, DataTable, Td } from '@/components/ui/layout';
import type { CaseListItem } from '@/lib/db/queries/cases';
import type { CaseStatus } from '@/lib/db/schema';

const STATUS_TONE: Record<CaseStatus, 'neutral' | 'blue' | 'amber' | 'green'> = {
  draft: 'neutral',
  analyzing: 'blue',
  submitted: 'amber',
  decided: 'green',
};

export function CaseStatusBadge({ status }: { status: CaseStatus }) {
  return <Badge tone={STATUS_TONE[status]}>{status}</Badge>;
}

export function CasesTable({ cases, caption, showOwner = false }: { cases: CaseListItem[]; caption: string; showOwner?: boolean }) {
  const head = ['Case', 'Borrower', 'Loan request', 'As of', 'Status', 'Runs', ...(showOwner ? ['RM'] : []), 'Updated'];
  return (
    <DataTable caption={caption} head={head}>
      {cases.map((c) => (
        <tr key={c.id} data-testid="case-row">
          <Td className="font-medium">{c.title}</Td>
          <Td>
            <Link className="text-blue-800 underline underline-offset-2 dark:text-blue-300" href={`/companies/${c.companyId}`}>
              {c.companyNameEn ?? c.companyName}
            </Link>
          </Td>
          <Td>
            {formatAmount(c.loanAmount, c.loanCurrency)} · {c.loanTenorMonths} months
          </Td>
          <Td>{c.asOfDate}</Td>
          <Td>
            <CaseStatusBadge status={c.status} />
          </Td>
          <Td>{c.runCount}</Td>
          {showOwner ? <Td>{c.ownerName}</Td> : null}
          <Td className="whitespace-nowrap">{formatDateTime(c.updatedAt)}</Td>
        </tr>
      ))}
    </DataTable>
  );
}
