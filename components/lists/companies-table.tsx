import Link from 'next/link';
import { DataTable, Td } from '@/components/ui/layout';
import type { listCompaniesWithCounts } from '@/lib/db/queries/companies';

type Row = Awaited<ReturnType<typeof listCompaniesWithCounts>>[number];

export function CompaniesTable({ companies }: { companies: Row[] }) {
  return (
    <DataTable caption="Companies in the knowledge pool" head={['Company', 'Country', 'Industry', 'Evidence', 'Factors covered', 'Documents', 'Latest evidence']}>
      {companies.map((c) => (
        <tr key={c.id} data-testid="company-row">
          <Td className="font-medium">
            <Link className="text-blue-800 underline underline-offset-2 dark:text-blue-300" href={`/companies/${c.id}`}>
              {c.nameEn ?? c.name}
            </Link>
            {c.nameEn && c.nameEn !== c.name ? <span className="block text-xs text-zinc-600 dark:text-zinc-400">{c.name}</span> : null}
          </Td>
          <Td>{c.country}</Td>
          <Td className="max-w-xs text-zinc-700 dark:text-zinc-300">{c.industry ?? '—'}</Td>
          <Td>{c.evidenceCount}</Td>
          <Td>{c.factorCount} of 10</Td>
          <Td>{c.documentCount}</Td>
          <Td>{c.latestPublished ?? '—'}</Td>
        </tr>
      ))}
    </DataTable>
  );
}
