import type { Metadata } from 'next';
import { formatDateTime } from '@/components/lists/format';
import { Badge, DataTable, EmptyState, PageHeader, Td } from '@/components/ui/layout';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { listStudies } from '@/lib/db/queries/studies';

export const metadata: Metadata = { title: 'Studies' };

export default async function StudiesPage() {
  await requirePermission('studies:manage');
  const studies = await listStudies({ db: await getDb() });
  return (
    <>
      <PageHeader
        title="Studies"
        description="Blinded expert evaluations: evaluators rate reports on three Likert items and the SUS, and the results compare the systems."
      />
      {studies.length ? (
        <DataTable caption="Evaluation studies" head={['Study', 'Status', 'Ratings submitted', 'Created by', 'Created']}>
          {studies.map((s) => (
            <tr key={s.id}>
              <Td className="font-medium">{s.name}</Td>
              <Td>
                <Badge>{s.status}</Badge>
              </Td>
              <Td>
                {s.submitted} of {s.assignments}
              </Td>
              <Td>{s.createdByName}</Td>
              <Td>{formatDateTime(s.createdAt)}</Td>
            </tr>
          ))}
        </DataTable>
      ) : (
        <EmptyState title="No studies yet">
          A study needs finished reports: run analyses on a few cases first, then pick reports, evaluators and the instrument here.
        </EmptyState>
      )}
    </>
  );
}
