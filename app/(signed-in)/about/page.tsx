import type { Metadata } from 'next';
import { formatDateTime } from '@/components/lists/format';
import { Badge, Card, DataTable, PageHeader, Td } from '@/components/ui/layout';
import { loadSystemCard } from '@/lib/report/system-card';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { PROTOCOLS_BY_ID } from '@/lib/debate/protocols';
import { aboutMessages } from '@/lib/i18n/messages/about';
import { runMessages } from '@/lib/i18n/messages/run';
import { studiesMessages } from '@/lib/i18n/messages/studies';
import { getLocale, getT } from '@/lib/i18n/server';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(aboutMessages))('title') };
}

const fmt = (v: number | null) => (v === null || !Number.isFinite(v) ? '—' : Number.isInteger(v) ? String(v) : v.toFixed(2));

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-3" data-testid={`about-section-${id}`}>
      <h2 id={`${id}-heading`} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

// The system card for every signed-in role: intended use, systems and models, data sources,
// limits, evaluation results and owner. What each part means: docs/system-card.md.
export default async function AboutPage() {
  await requirePermission('app:use');
  const [t, run, studiesT, locale, card] = await Promise.all([
    getT(aboutMessages),
    getT(runMessages),
    getT(studiesMessages),
    getLocale(),
    getDb().then((db) => loadSystemCard({ db })),
  ]);
  const date = (d: Date | null) => (d ? formatDateTime(d, locale) : t('notYet'));
  const sourceState = (on: boolean, name?: string | null) =>
    on ? <Badge tone="green">{name ? t('configuredAs', { name }) : t('configured')}</Badge> : <Badge>{t('notConfigured')}</Badge>;
  const { models } = card;
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <div className="space-y-8 text-sm leading-relaxed">
        <Section id="use" title={t('intendedUseHeading')}>
          <p>{t('intendedUse')}</p>
          <p className="font-medium" data-testid="about-not-for-persons">
            {t('notForPersons')}
          </p>
          <p>{t('whoDecides')}</p>
        </Section>

        <Section id="systems" title={t('systemsHeading')}>
          <p>{t('systemsIntro')}</p>
          <ul className="list-disc space-y-1 pl-5">
            {card.protocols.map((p) => (
              <li key={p} data-testid={`about-protocol-${p}`}>
                <span className="font-medium">{PROTOCOLS_BY_ID[p].name}</span> — {run(`protocol_${p}`)}
              </li>
            ))}
          </ul>
        </Section>

        <Section id="models" title={t('modelsHeading')}>
          <Card>
            <p data-testid="about-model" data-kind={models.kind} data-model={models.model}>
              {models.kind === 'offline' ? t('modelsOffline', { model: models.model }) : t('modelsOpenai', { endpoint: models.endpoint, model: models.model })}
            </p>
            {models.kind === 'openai' && models.roleModels.length ? (
              <div className="mt-2">
                <p className="font-medium">{t('roleModels')}</p>
                <ul className="list-disc pl-5">
                  {models.roleModels.map((r) => (
                    <li key={r.variable}>
                      <code className="font-mono text-xs">{r.variable}</code>: {r.model}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
            {models.kind === 'openai' ? <p className="mt-2">{t('offlineAlso', { model: card.offlineModel })}</p> : null}
          </Card>
          <p data-testid="about-offline-is">{t('offlineIs')}</p>
          <p>{t('offlineIsNot')}</p>
        </Section>

        <Section id="sources" title={t('sourcesHeading')}>
          <p data-testid="about-pool">{t('sourcePool', card.sources.pool)}</p>
          <dl className="grid grid-cols-1 gap-2 sm:grid-cols-[auto_1fr] sm:gap-x-4">
            <dt className="font-medium">{t('sourceDart')}</dt>
            <dd>{sourceState(card.sources.openDart)}</dd>
            <dt className="font-medium">{t('sourceEdgar')}</dt>
            <dd>{sourceState(card.sources.secEdgar)}</dd>
            <dt className="font-medium">{t('sourceWeb')}</dt>
            <dd>{sourceState(card.sources.webSearch !== null, card.sources.webSearch)}</dd>
          </dl>
          <p>{t('sourceDocuments')}</p>
        </Section>

        <Section id="limits" title={t('limitsHeading')}>
          <ul className="list-disc space-y-1 pl-5">
            <li data-testid="about-threshold">{t('limitThreshold', { items: card.threshold.minItems, factors: card.threshold.minFactors })}</li>
            <li>{t('limitLanguages')}</li>
            <li>{t('limitScope')}</li>
            <li>{t('limitModels')}</li>
          </ul>
        </Section>

        <Section id="evaluation" title={t('evaluationHeading')}>
          <h3 className="font-semibold">{t('studiesHeading')}</h3>
          {card.studies.length === 0 ? (
            <p data-testid="about-studies-none">{t('noneYet')}</p>
          ) : (
            <ul className="space-y-4" data-testid="about-studies">
              {card.studies.map((s) => (
                <li key={s.id} data-testid="about-study">
                  <p>
                    {t('studyLine', {
                      name: s.name,
                      status: studiesT(`status_${s.status}`),
                      opened: date(s.openedAt),
                      closed: date(s.closedAt),
                      submitted: s.submitted,
                      assignments: s.assignments,
                      evaluators: s.evaluators,
                    })}
                  </p>
                  {s.status === 'closed' ? (
                    s.medians.length ? (
                      <div className="mt-2">
                        <DataTable caption={t('mediansCaption')} head={[t('colMeasure'), t('colSystem'), t('colN'), t('colMedian')]}>
                          {s.medians.map((m) => (
                            <tr key={`${m.measure}-${m.protocol}`}>
                              <Td>{studiesT(`measure_${m.measure as 'sus'}`)}</Td>
                              <Td>{PROTOCOLS_BY_ID[m.protocol].name}</Td>
                              <Td className="tabular-nums">{m.n}</Td>
                              <Td className="tabular-nums">{fmt(m.median)}</Td>
                            </tr>
                          ))}
                        </DataTable>
                      </div>
                    ) : null
                  ) : (
                    <p className="text-zinc-600 dark:text-zinc-400">{t('studyPending')}</p>
                  )}
                </li>
              ))}
            </ul>
          )}
          <h3 className="font-semibold">{t('judgesHeading')}</h3>
          {card.judges.length === 0 ? (
            <p data-testid="about-judges-none">{t('noneYet')}</p>
          ) : (
            <div data-testid="about-judges">
              <DataTable caption={t('judgesCaption')} head={[t('colKind'), t('colModel'), t('colJudgments'), t('colConsistent'), t('colFirst'), t('colLast')]}>
                {card.judges.map((j) => (
                  <tr key={`${j.kind}-${j.provider}-${j.model}`}>
                    <Td>{t(`kind_${j.kind}`)}</Td>
                    <Td>{j.model}</Td>
                    <Td className="tabular-nums">{j.judgments}</Td>
                    <Td className="tabular-nums">{j.kind === 'pairwise' ? `${j.consistent} / ${j.judgments}` : '—'}</Td>
                    <Td className="whitespace-nowrap">{date(j.first)}</Td>
                    <Td className="whitespace-nowrap">{date(j.last)}</Td>
                  </tr>
                ))}
              </DataTable>
            </div>
          )}
        </Section>

        <Section id="owner" title={t('ownerHeading')}>
          {card.owner ? (
            <div data-testid="about-owner">
              <p className="font-medium">
                {card.owner.name} · {card.owner.title}
              </p>
              {card.owner.contact ? <p>{t('ownerContact', { contact: card.owner.contact })}</p> : null}
              <p className="text-zinc-600 dark:text-zinc-400">{t('ownerUpdated', { date: date(card.owner.updatedAt), by: card.owner.updatedByName ?? '—' })}</p>
            </div>
          ) : (
            <p data-testid="about-owner-none">{t('ownerNone')}</p>
          )}
        </Section>

        <p className="text-zinc-600 dark:text-zinc-400">{t('documentNote')}</p>
      </div>
    </>
  );
}
