import type { Metadata } from 'next';
import Link from 'next/link';
import { CompareFactors } from '@/components/run/compare-factors';
import { CompareMetrics } from '@/components/run/compare-metrics';
import { ComparePicker } from '@/components/run/compare-picker';
import { FactorPanels } from '@/components/run/factor-panels';
import { PairwiseCard } from '@/components/judges/pairwise-card';
import { ReasoningTreeView } from '@/components/run/reasoning-tree';
import { Alert, PageHeader } from '@/components/ui/layout';
import { can } from '@/lib/auth/permissions';
import { canAccessCase, requireCaseAccess } from '@/lib/auth/run-access';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { listRunsForCase } from '@/lib/db/queries/cases';
import { listPairwiseJudgments } from '@/lib/db/queries/judgments';
import { getRun } from '@/lib/db/queries/runs';
import { PROTOCOLS_BY_ID } from '@/lib/debate/protocols';
import { runEvidenceRefs } from '@/lib/report/live-state';
import { loadRunView, type RunView } from '@/lib/report/run-view';
import { compareRuns } from '@/lib/eval/compare';
import { measureStability } from '@/lib/report/stability';
import { StabilityFigures } from '@/components/run/stability-figures';
import { stabilityMessages } from '@/lib/i18n/messages/stability';
import { judgeAvailability } from '@/lib/eval/judge-actions';
import { getT } from '@/lib/i18n/server';
import { compareMessages } from '@/lib/i18n/messages/compare';
import { ContentLanguage } from '@/components/run/content-language';
import { contentLanguageOf } from '@/lib/i18n/content-language';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(compareMessages))('title') };
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
// Only what the client components read: the whole run view would be sent to the browser otherwise.
const turnsOf = (v: RunView) => v.turns.map(({ step, team, act, status, output }) => ({ step, team, act, status, output }));
const LINK = 'text-blue-800 underline underline-offset-2 hover:no-underline dark:text-blue-300';

export default async function CompareRunsPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requirePermission('runs:read');
  const { id } = await params;
  const { user, kase } = await requireCaseAccess(id, 'read');
  const query = await searchParams;
  const [a, b] = [one(query.a), one(query.b)];
  const t = await getT(compareMessages);
  const db = await getDb();
  const runs = await listRunsForCase({ db, caseId: kase.id });

  // Only ids from this case's own run list are ever loaded: a run of another case (or
  // anything else in the URL) gets an error next to the picker, never a query.
  let error: string | undefined;
  if (a || b) {
    if (!a || !b) error = t('errorMissing');
    else if (a === b) error = t('errorSame');
    else {
      const stranger = [a, b].find((r) => !runs.some((x) => x.id === r));
      if (stranger) error = t('errorNotInCase', { id: stranger.slice(0, 40) });
    }
  }

  const header = (
    <PageHeader
      title={t('title')}
      description={t('description', { case: kase.title })}
      actions={
        <Link className={LINK} href={`/cases/${kase.id}`}>
          {t('backToCase')}
        </Link>
      }
    />
  );

  if (!a || !b || error) {
    return (
      <>
        {header}
        <ComparePicker caseId={kase.id} runs={runs} a={a} b={b} error={error} />
      </>
    );
  }

  const [viewA, viewB, judgments, runA, runB] = await Promise.all([
    loadRunView({ db, runId: a }),
    loadRunView({ db, runId: b }),
    listPairwiseJudgments({ db, a, b }),
    getRun({ db, id: a }),
    getRun({ db, id: b }),
  ]);
  // The cited items with their tagged readings, as each run recorded them: the panels mark an
  // argument that reads against its evidence, as on the run page.
  const [evidenceA, evidenceB] = await Promise.all([
    runA ? runEvidenceRefs({ db, run: runA, turns: viewA.turns }) : {},
    runB ? runEvidenceRefs({ db, run: runB, turns: viewB.turns }) : {},
  ]);
  const evidenceOf = (v: RunView) => (v === viewA ? evidenceA : evidenceB);
  // Only the owning RM runs judges; the committee sees the stored ones.
  const canJudge = can(user.role, 'cases:write') && canAccessCase(user, kase, 'write');
  const comparison = compareRuns(viewA, viewB);
  const ts = await getT(stabilityMessages);
  const protocolName = (v: RunView) => PROTOCOLS_BY_ID[v.protocol]?.name ?? v.protocol;
  const sides = [
    ['A', viewA],
    ['B', viewB],
  ] as const;

  return (
    <>
      {header}
      <div className="space-y-8">
        {sides
          .filter(([, v]) => v.status !== 'succeeded')
          .map(([label, v]) => (
            <Alert key={label} tone="info">
              {t('failedRun', { label, status: t(`status_${v.status}`) })}
            </Alert>
          ))}
        <section aria-labelledby="compare-metrics" className="space-y-3">
          <h2 id="compare-metrics" className="text-lg font-semibold">
            {t('metricsHeading')}
          </h2>
          <ul className="flex flex-wrap gap-4 text-sm">
            {sides.map(([label, v]) => (
              <li key={label}>
                <Link className={LINK} href={`/runs/${v.id}`} data-testid={`open-run-${label}`}>
                  {t('openRun', { label })}
                </Link>{' '}
                ({protocolName(v)})
              </li>
            ))}
          </ul>
          <CompareMetrics comparison={comparison} />
        </section>
        <section aria-labelledby="compare-agreement" className="space-y-3" data-testid="compare-agreement">
          <h2 id="compare-agreement" className="text-lg font-semibold">
            {ts('compareHeading')}
          </h2>
          <p className="text-sm text-zinc-700 dark:text-zinc-300">{ts('compareLead')}</p>
          <StabilityFigures stability={measureStability([viewA, viewB])} runLabels={[t('runA'), t('runB')]} />
        </section>
        <PairwiseCard caseId={kase.id} a={a} b={b} rows={judgments} canRun={canJudge} availability={judgeAvailability()} />
        <section aria-labelledby="compare-coverage" className="space-y-3">
          <h2 id="compare-coverage" className="text-lg font-semibold">
            {t('coverageHeading')}
          </h2>
          <CompareFactors comparison={comparison} />
        </section>
        <section aria-labelledby="compare-trees" className="space-y-3">
          <h2 id="compare-trees" className="text-lg font-semibold">
            {t('treesHeading')}
          </h2>
          <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
            {sides.map(([label, v]) => (
              <div key={label} className="min-w-0 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800" data-testid={`compare-tree-${label}`}>
                <p className="mb-2 text-sm font-semibold">{t('runLabel', { label, protocol: protocolName(v) })}</p>
                <ContentLanguage language={contentLanguageOf(v.params)}>
                  <ReasoningTreeView turns={turnsOf(v)} runHref={`/runs/${v.id}`} headingLevel={3} />
                </ContentLanguage>
              </div>
            ))}
          </div>
        </section>
        <section aria-labelledby="compare-arguments" className="space-y-3">
          <h2 id="compare-arguments" className="text-lg font-semibold">
            {t('argumentsHeading')}
          </h2>
          <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
            {sides.map(([label, v]) => (
              <details key={label} className="min-w-0 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800" data-testid={`compare-panels-${label}`}>
                <summary className="cursor-pointer text-sm font-semibold">{t('runLabel', { label, protocol: protocolName(v) })}</summary>
                <div className="mt-3">
                  <ContentLanguage language={contentLanguageOf(v.params)}>
                    <FactorPanels turns={turnsOf(v)} runHref={`/runs/${v.id}`} headingLevel={3} evidence={evidenceOf(v)} />
                  </ContentLanguage>
                </div>
              </details>
            ))}
          </div>
        </section>
      </div>
    </>
  );
}
