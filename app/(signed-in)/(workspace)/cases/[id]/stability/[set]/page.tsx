import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { RefreshWhile } from '@/components/run/refresh-while';
import { StabilityFigures } from '@/components/run/stability-figures';
import { Alert, PageHeader } from '@/components/ui/layout';
import { requireCaseAccess } from '@/lib/auth/run-access';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { listStabilityRuns } from '@/lib/db/queries/stability';
import { PROTOCOLS_BY_ID } from '@/lib/debate/protocols';
import { compareMessages } from '@/lib/i18n/messages/compare';
import { stabilityMessages } from '@/lib/i18n/messages/stability';
import { getT } from '@/lib/i18n/server';
import { loadRunView } from '@/lib/report/run-view';
import { measureStability, MIN_STABILITY_RUNS } from '@/lib/report/stability';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(stabilityMessages))('cardTitle') };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ACTIVE = new Set(['queued', 'running']);
const LINK = 'text-blue-800 underline underline-offset-2 hover:no-underline dark:text-blue-300';

/** The stability view of one set (docs/stability.md): its runs, and their agreement once all have ended. */
export default async function StabilitySetPage({ params }: { params: Promise<{ id: string; set: string }> }) {
  await requirePermission('runs:read');
  const { id, set } = await params;
  const { kase } = await requireCaseAccess(id, 'read');
  if (!UUID.test(set)) notFound();
  const db = await getDb();
  // Only the case's own runs of the set: a set id of another case finds nothing.
  const runs = await listStabilityRuns({ db, caseId: kase.id, setId: set });
  if (!runs.length) notFound();
  const [t, tc] = await Promise.all([getT(stabilityMessages), getT(compareMessages)]);
  const protocol = PROTOCOLS_BY_ID[runs[0].protocol as keyof typeof PROTOCOLS_BY_ID]?.name ?? runs[0].protocol;
  const ended = runs.filter((r) => !ACTIVE.has(r.status));
  const waiting = ended.length < runs.length;
  const succeeded = runs.filter((r) => r.status === 'succeeded');
  const views = !waiting && succeeded.length >= MIN_STABILITY_RUNS ? await Promise.all(succeeded.map((r) => loadRunView({ db, runId: r.id }))) : [];

  return (
    <>
      <PageHeader
        title={t('pageTitle', { n: runs.length })}
        description={t('pageDescription', { case: kase.title, protocol, model: runs[0].model, n: runs.length })}
        actions={
          <Link className={LINK} href={`/cases/${kase.id}`}>
            {t('backToCase')}
          </Link>
        }
      />
      <RefreshWhile active={waiting} />
      <div className="space-y-8" data-testid="stability-view" data-state={waiting ? 'waiting' : views.length ? 'done' : 'too-few'}>
        <section aria-labelledby="stability-runs" className="space-y-3">
          <h2 id="stability-runs" className="text-lg font-semibold">
            {t('runsHeading')}
          </h2>
          <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
            {runs.map((r, i) => (
              <li key={r.id} data-testid="stability-run" data-status={r.status}>
                <Link className={LINK} href={`/runs/${r.id}`}>
                  {t('openRun', { n: i + 1 })}
                </Link>{' '}
                ({tc(`status_${r.status}` as keyof typeof compareMessages.en)})
              </li>
            ))}
          </ul>
        </section>
        {waiting ? (
          <Alert tone="info">{t('waiting', { done: ended.length, n: runs.length })}</Alert>
        ) : views.length ? (
          <section aria-labelledby="stability-figures" className="space-y-3">
            <h2 id="stability-figures" className="text-lg font-semibold">
              {t('figuresHeading')}
            </h2>
            {succeeded.length < runs.length ? <Alert tone="info">{t('notCompared', { n: succeeded.length })}</Alert> : null}
            <StabilityFigures stability={measureStability(views)} runLabels={succeeded.map((r) => t('openRun', { n: runs.indexOf(r) + 1 }))} />
          </section>
        ) : (
          <Alert tone="info">{t('tooFew')}</Alert>
        )}
      </div>
    </>
  );
}
