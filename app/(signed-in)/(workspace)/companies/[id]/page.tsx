import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Badge, Card, DataTable, EmptyState, PageHeader, Td } from '@/components/ui/layout';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { getCompanyById, listDocumentsForCompany, listEvidenceForCompany } from '@/lib/db/queries/companies';
import { getFactor, isFactorId } from '@/lib/pool/factors';

export const metadata: Metadata = { title: 'Company' };

function factorLabel(factor: string | null) {
  return factor && isFactorId(factor) ? getFactor(factor).label : 'Untagged';
}

const POLARITY_TONE = { favorable: 'green', adverse: 'red', context: 'amber' } as const;

export default async function CompanyPage({ params }: { params: Promise<{ id: string }> }) {
  await requirePermission('companies:read');
  const { id } = await params;
  const db = await getDb();
  const company = await getCompanyById({ db, id });
  if (!company) notFound();
  const [evidence, docs] = await Promise.all([listEvidenceForCompany({ db, companyId: id }), listDocumentsForCompany({ db, companyId: id })]);
  const identifiers = Object.entries(company.identifiers);

  return (
    <>
      <PageHeader title={company.nameEn ?? company.name} description={company.description ?? undefined} />
      <div className="mb-6 grid gap-4 md:grid-cols-3">
        <Card title="Profile">
          <dl className="space-y-1 text-sm">
            <div>
              <dt className="inline font-medium">Name: </dt>
              <dd className="inline">{company.name}</dd>
            </div>
            <div>
              <dt className="inline font-medium">Country: </dt>
              <dd className="inline">{company.country}</dd>
            </div>
            <div>
              <dt className="inline font-medium">Industry: </dt>
              <dd className="inline">{company.industry ?? '—'}</dd>
            </div>
            {identifiers.map(([k, v]) => (
              <div key={k}>
                <dt className="inline font-medium">{k}: </dt>
                <dd className="inline font-mono">{v}</dd>
              </div>
            ))}
          </dl>
        </Card>
        <Card title="Documents" className="md:col-span-2">
          {docs.length ? (
            <ul className="space-y-1 text-sm">
              {docs.map((d) => (
                <li key={d.id}>
                  <a className="text-blue-800 underline-offset-2 hover:underline dark:text-blue-300" href={d.sourceUrl} rel="noreferrer noopener" target="_blank">
                    {d.title}
                  </a>{' '}
                  <span className="text-zinc-600 dark:text-zinc-400">
                    · {d.publishedDate} · {Math.round(d.length / 1000)}k characters
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">No long documents for this company.</p>
          )}
        </Card>
      </div>
      <h2 className="mb-3 text-lg font-semibold">Evidence ({evidence.length})</h2>
      {evidence.length ? (
        <DataTable caption="Evidence items, newest first" head={['Published', 'Factor', 'Title', 'Source']}>
          {evidence.map((e) => (
            <tr key={e.id} data-testid="evidence-row">
              <Td className="whitespace-nowrap">{e.publishedDate}</Td>
              <Td>
                <span className="block">{factorLabel(e.factor)}</span>
                {e.polarity ? <Badge tone={POLARITY_TONE[e.polarity]}>{e.polarity}</Badge> : null}
              </Td>
              <Td>
                <span className="font-medium">{e.title}</span>
                <span className="mt-1 block text-xs text-zinc-600 dark:text-zinc-400">{e.category}</span>
              </Td>
              <Td>
                <a className="text-blue-800 underline-offset-2 hover:underline dark:text-blue-300" href={e.sourceUrl} rel="noreferrer noopener" target="_blank">
                  {e.sourceName}
                </a>
              </Td>
            </tr>
          ))}
        </DataTable>
      ) : (
        <EmptyState title="No evidence yet">Evidence for this company arrives by import or from OpenDART and SEC EDGAR.</EmptyState>
      )}
    </>
  );
}
