import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ChartLegend, MediansChart, SYSTEM_COLORS } from '@/components/studies/medians-chart';
import { Badge, Card, DataTable, EmptyState, PageHeader, Td } from '@/components/ui/layout';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { getStudy } from '@/lib/db/queries/studies';
import { LIKERT_ITEMS, type Measure } from '@/lib/domain/study';
import { loadStudyData } from '@/lib/eval/study-data';
import { SMALL_SAMPLE_N, studyResults } from '@/lib/eval/study-results';
import { WILCOXON_EXACT_MAX_N } from '@/lib/eval/stats';
import { systemName } from '@/lib/eval/study-systems';
import { studiesMessages } from '@/lib/i18n/messages/studies';
import { getT } from '@/lib/i18n/server';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getT(studiesMessages);
  return { title: t('resultsTitle', { name: '' }).replace(/[:：]\s*$/, '') };
}

const link = 'text-sm text-blue-800 underline underline-offset-2 dark:text-blue-300';
const fmt = (v: number | null, digits = 2) => (v === null || !Number.isFinite(v) ? '—' : Number.isInteger(v) ? String(v) : v.toFixed(digits));
const fmtP = (p: number | null) => (p === null ? '—' : p < 0.001 ? '< .001' : p.toFixed(3).replace(/^0/, ''));

export default async function StudyResultsPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ ties?: string }> }) {
  await requirePermission('studies:manage');
  const { id } = await params;
  const tieCorrection = (await searchParams).ties !== 'off';
  const db = await getDb();
  const study = await getStudy({ db, id });
  if (!study) notFound();
  const [t, data] = await Promise.all([getT(studiesMessages), loadStudyData({ db, studyId: id })]);
  const results = studyResults(data.ratings, { tieCorrection });
  const measureLabel = (m: Measure) => t(`measure_${m}`);
  const systems = results.protocols.map(systemName);
  const groupsFor = (measures: readonly Measure[]) =>
    measures.map((m) => ({
      label: measureLabel(m),
      bars: results.protocols.map((p, i) => ({
        system: systemName(p),
        value: results.summaries.find((s) => s.measure === m && s.protocol === p)?.median ?? null,
        color: SYSTEM_COLORS[i % SYSTEM_COLORS.length],
      })),
    }));

  return (
    <>
      <PageHeader
        title={t('resultsTitle', { name: study.name })}
        description={t('resultsDescription', { n: data.ratings.length, total: data.assignments.length })}
        actions={
          <div className="flex flex-wrap gap-4">
            <a href={`/api/studies/${id}/ratings`} className={link} data-testid="csv-link" download>
              {t('csvLink')}
            </a>
            <Link href={`/admin/studies/${id}`} className={link}>
              {t('back')}
            </Link>
          </div>
        }
      />
      <div className="space-y-6">
        {data.ratings.length === 0 ? <EmptyState title={t('noRatings')} /> : null}

        <section aria-labelledby="summary-heading" className="space-y-3">
          <h2 id="summary-heading" className="text-lg font-semibold">
            {t('summaryHeading')}
          </h2>
          <div data-testid="summary-table">
            <DataTable caption={t('summaryCaption')} head={[t('colMeasure'), t('colSystem'), t('colN'), t('colMedian'), t('colIqr')]}>
              {results.summaries.map((s) => (
                <tr key={`${s.measure}-${s.protocol}`} data-testid={`summary-${s.measure}-${s.protocol}`}>
                  <Td>{measureLabel(s.measure)}</Td>
                  <Td>{systemName(s.protocol)}</Td>
                  <Td className="tabular-nums">{s.n}</Td>
                  <Td className="tabular-nums">
                    <span data-testid="median">{fmt(s.median)}</span>
                  </Td>
                  <Td className="tabular-nums">{s.q1 === null ? '—' : `${fmt(s.q1)}–${fmt(s.q3)}`}</Td>
                </tr>
              ))}
            </DataTable>
          </div>
          <Card>
            <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">{t('chartLabel')}</p>
            <ChartLegend systems={systems} />
            <div className="mt-3 grid grid-cols-1 gap-6 md:grid-cols-2">
              <MediansChart title={t('chartLikertTitle')} groups={groupsFor(LIKERT_ITEMS)} max={5} ticks={[0, 1, 2, 3, 4, 5]} testId="chart-likert" />
              <MediansChart title={t('chartSusTitle')} groups={groupsFor(['sus'])} max={100} ticks={[0, 25, 50, 75, 100]} testId="chart-sus" />
            </div>
          </Card>
        </section>

        <section aria-labelledby="wilcoxon-heading" className="space-y-3">
          <h2 id="wilcoxon-heading" className="text-lg font-semibold">
            {t('wilcoxonHeading')}
          </h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {t('wilcoxonNote')}{' '}
            <span className="font-medium text-zinc-900 dark:text-zinc-100">{tieCorrection ? t('tieCorrectionOn') : t('tieCorrectionOff')}</span> ·{' '}
            <Link href={tieCorrection ? `?ties=off` : '?'} className={link} data-testid="toggle-ties">
              {tieCorrection ? t('tieCorrectionOff') : t('tieCorrectionOn')}
            </Link>
          </p>
          <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="small-sample-note">
            {t('smallSampleNote', { n: SMALL_SAMPLE_N, exactMax: WILCOXON_EXACT_MAX_N })}
          </p>
          {results.tests.length === 0 ? (
            <p className="text-sm">{t('noPairs')}</p>
          ) : (
            <div data-testid="wilcoxon-table">
              <DataTable
                caption={t('wilcoxonCaption')}
                head={[t('colMeasure'), t('colSystems'), t('colPairs'), t('colMedians'), t('colN'), t('colW'), t('colZ'), t('colP'), t('colPExact'), t('colR')]}
              >
                {results.tests.map((w) => (
                  <tr key={`${w.measure}-${w.a}-${w.b}`} data-testid={`wilcoxon-${w.measure}`} data-small-sample={w.smallSample ? 'yes' : 'no'}>
                    <Td>{measureLabel(w.measure)}</Td>
                    <Td>
                      {systemName(w.a)} vs {systemName(w.b)}
                    </Td>
                    <Td className="tabular-nums">{w.pairs}</Td>
                    <Td className="tabular-nums">
                      {fmt(w.medianA)} / {fmt(w.medianB)}
                    </Td>
                    <Td className="tabular-nums">
                      <span className="whitespace-nowrap">
                        {w.n}
                        {w.smallSample ? (
                          <>
                            {' '}
                            <Badge tone="amber">{t('smallSample')}</Badge>
                          </>
                        ) : null}
                      </span>
                    </Td>
                    <Td className="tabular-nums">{fmt(w.W, 1)}</Td>
                    <Td className="tabular-nums">{fmt(w.z, 3)}</Td>
                    <Td className="tabular-nums">{fmtP(w.p)}</Td>
                    <Td className="tabular-nums">
                      <span data-testid="p-exact">{fmtP(w.pExact)}</span>
                    </Td>
                    <Td className="tabular-nums">{fmt(w.r, 3)}</Td>
                  </tr>
                ))}
              </DataTable>
            </div>
          )}
        </section>

        <section aria-labelledby="rei-heading" className="space-y-3" data-testid="rei-table">
          <h2 id="rei-heading" className="text-lg font-semibold">
            {t('reiHeading')}
          </h2>
          <DataTable caption={t('reiCaption')} head={[t('colCompany'), t('colSystem'), t('colBreadth'), t('colDepths'), t('colRei')]}>
            {data.runs.map((r) => (
              <tr key={r.runId} data-testid={`rei-${r.protocol}`}>
                <Td>{r.companyName}</Td>
                <Td>{systemName(r.protocol)}</Td>
                <Td className="tabular-nums">{r.breadth}</Td>
                <Td className="tabular-nums">{r.depths.join(', ') || '—'}</Td>
                <Td className="tabular-nums">{r.rei}</Td>
              </tr>
            ))}
          </DataTable>
        </section>

        <section aria-labelledby="latency-heading" className="space-y-3" data-testid="latency-table">
          <h2 id="latency-heading" className="text-lg font-semibold">
            {t('latencyHeading')}
          </h2>
          <DataTable caption={t('latencyCaption')} head={[t('colCompany'), t('colSystem'), t('colMode'), t('colSeconds')]}>
            {data.runs.map((r) => (
              <tr key={r.runId} data-testid={`latency-${r.protocol}`}>
                <Td>{r.companyName}</Td>
                <Td>{systemName(r.protocol)}</Td>
                <Td>{r.mode}</Td>
                <Td className="tabular-nums">{r.latencyMs === null ? '—' : (r.latencyMs / 1000).toFixed(2)}</Td>
              </tr>
            ))}
          </DataTable>
        </section>
      </div>
    </>
  );
}
