import { JudgeButton } from '@/components/judges/judge-button';
import { RubricJudgmentView } from '@/components/judges/rubric-judgment';
import { Alert, Card, DataTable, Td } from '@/components/ui/layout';
import type { RubricJudgmentRow } from '@/lib/domain/judgments';
import type { RunView } from '@/lib/report/run-view';
import type { judgeAvailability } from '@/lib/eval/judge-actions';
import { groundingCounts, readabilityState } from '@/lib/eval/evaluation-view';
import { judgesMessages } from '@/lib/i18n/messages/judges';
import { getT } from '@/lib/i18n/server';

export async function EvaluationCard({
  view,
  rows,
  canRun,
  availability,
}: {
  view: RunView;
  rows: RubricJudgmentRow[];
  canRun: boolean;
  availability: ReturnType<typeof judgeAvailability>;
}) {
  const t = await getT(judgesMessages);
  const read = readabilityState(view);
  const grounding = groundingCounts(view);
  const [latest, ...earlier] = rows;
  const h3 = 'text-sm font-semibold';
  return (
    <Card title={t('evaluationHeading')} className="mt-8">
      <div className="space-y-6" data-testid="evaluation-card">
        <section className="space-y-2" data-testid="readability">
          <h3 className={h3}>{t('readabilityHeading')}</h3>
          {read.ok ? (
            <>
              <DataTable caption={t('readabilityCaption')} head={[t('measure'), t('value')]}>
                {(
                  [
                    ['fkgl', read.value.fkgl],
                    ['cli', read.value.colemanLiau],
                    ['ari', read.value.ari],
                  ] as const
                ).map(([key, value]) => (
                  <tr key={key} data-testid={`readability-${key}`}>
                    <Td>{t(key)}</Td>
                    <Td className="font-semibold">{value.toFixed(1)}</Td>
                  </tr>
                ))}
              </DataTable>
              <p className="text-xs text-zinc-600 dark:text-zinc-400">{t('readabilityCounts', { words: read.value.words, sentences: read.value.sentences })}</p>
            </>
          ) : (
            <p className="text-sm text-zinc-700 dark:text-zinc-300">
              {read.reason === 'korean' ? t('readabilityEnglishOnly') : read.reason === 'no-report' ? t('readabilityNoReport') : read.message}
            </p>
          )}
        </section>

        <section className="space-y-2">
          <h3 className={h3}>{t('groundingHeading')}</h3>
          <p className="text-sm" data-testid="grounding">
            {grounding.ratio === null
              ? t('groundingNone')
              : t('grounding', { percent: Math.round(grounding.ratio * 100), resolved: grounding.resolved, total: grounding.total })}
          </p>
        </section>

        <section className="space-y-3" data-testid="rubric-section">
          <h3 className={h3}>{t('rubricHeading')}</h3>
          <p className="text-sm text-zinc-700 dark:text-zinc-300">{t('rubricIntro')}</p>
          {canRun ? (
            <JudgeButton
              kind="rubric"
              fields={{ run_id: view.id }}
              unavailable={availability.available ? undefined : availability.reason}
              model={availability.available ? availability.model : undefined}
            />
          ) : (
            <Alert tone="info">{t('readOnly')}</Alert>
          )}
          {latest ? (
            <RubricJudgmentView row={latest} t={t} />
          ) : (
            <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="rubric-none">
              {t('noJudgments')}
            </p>
          )}
          {earlier.length ? (
            <details data-testid="rubric-earlier">
              <summary className="cursor-pointer text-sm font-semibold">
                {t('earlier')} ({earlier.length})
              </summary>
              <div className="mt-3 space-y-8">
                {earlier.map((row) => (
                  <RubricJudgmentView key={row.id} row={row} t={t} />
                ))}
              </div>
            </details>
          ) : null}
        </section>
      </div>
    </Card>
  );
}
