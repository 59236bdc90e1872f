import type { Metadata } from 'next';
import Link from 'next/link';
import { formatDateTime } from '@/components/lists/format';
import { Card, DataTable, EmptyState, PageHeader, Td } from '@/components/ui/layout';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { listHoldableCases, listHoldableCompanies, listHolds, type HoldRow } from '@/lib/db/queries/retention';
import { retentionMessages } from '@/lib/i18n/messages/retention';
import { getLocale, getT } from '@/lib/i18n/server';
import { LiftHoldForm, PlaceHoldForm } from './hold-forms';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(retentionMessages))('holdsTitle') };
}

// Legal holds (docs/retention.md): place one on a case or a borrower, lift it; both audited.
export default async function HoldsPage() {
  await requirePermission('retention:manage');
  const db = await getDb();
  const [t, locale, holds, cases, companies] = await Promise.all([
    getT(retentionMessages),
    getLocale(),
    listHolds({ db }),
    listHoldableCases({ db }),
    listHoldableCompanies({ db }),
  ]);
  const active = holds.filter((h) => !h.liftedAt);
  const lifted = holds.filter((h) => h.liftedAt);
  const on = (h: HoldRow) =>
    h.caseId ? (
      <Link href={`/cases/${h.caseId}`} className="font-medium text-blue-800 underline dark:text-blue-300">
        {h.caseTitle}
      </Link>
    ) : (
      <>
        <span className="font-medium">{h.companyName}</span>
        <span className="block text-xs text-zinc-600 dark:text-zinc-400">{t('wholeBorrower')}</span>
      </>
    );
  return (
    <>
      <PageHeader title={t('holdsTitle')} description={t('holdsDescription')} />
      {/* minmax(0, 1fr): a long case title in the select or a wide table scrolls inside its box instead of widening the page at 390 px. */}
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-3">
        <Card title={t('placeHold')} className="lg:col-span-1">
          <PlaceHoldForm cases={cases.map((c) => ({ id: c.id, label: `${c.title} — ${c.companyName}` }))} companies={companies} />
        </Card>
        <div className="space-y-6 lg:col-span-2" data-testid="active-holds">
          <h2 className="text-lg font-semibold">{t('activeHolds')}</h2>
          {active.length === 0 ? (
            <EmptyState title={t('noActiveHolds')} />
          ) : (
            <DataTable caption={t('activeHolds')} head={[t('colOn'), t('colReason'), t('colPlaced'), t('colLift')]}>
              {active.map((h) => (
                <tr key={h.id} data-testid={`hold-${h.id}`}>
                  <Td>{on(h)}</Td>
                  <Td className="whitespace-pre-wrap">{h.reason}</Td>
                  <Td>
                    {formatDateTime(h.placedAt, locale)}
                    {h.placedBy ? <span className="block text-xs text-zinc-600 dark:text-zinc-400">{t('by', { name: h.placedBy })}</span> : null}
                  </Td>
                  <Td>
                    <LiftHoldForm holdId={h.id} />
                  </Td>
                </tr>
              ))}
            </DataTable>
          )}
          {lifted.length > 0 ? (
            <>
              <h2 className="text-lg font-semibold">{t('liftedHolds')}</h2>
              <DataTable caption={t('liftedHolds')} head={[t('colOn'), t('colReason'), t('colPlaced'), t('colLifted')]}>
                {lifted.map((h) => (
                  <tr key={h.id} data-testid={`lifted-hold-${h.id}`}>
                    <Td>{on(h)}</Td>
                    <Td className="whitespace-pre-wrap">{h.reason}</Td>
                    <Td>{formatDateTime(h.placedAt, locale)}</Td>
                    <Td>
                      {formatDateTime(h.liftedAt, locale)}
                      {h.liftedBy ? <span className="block text-xs text-zinc-600 dark:text-zinc-400">{t('by', { name: h.liftedBy })}</span> : null}
                      {h.liftReason ? <span className="block text-xs">{h.liftReason}</span> : null}
                    </Td>
                  </tr>
                ))}
              </DataTable>
            </>
          ) : null}
        </div>
      </div>
    </>
  );
}
