import { utcMinute } from '@/components/judges/judged-by';
import { DataTable, Td } from '@/components/ui/layout';
import type { RubricJudgmentRow } from '@/lib/domain/judgments';
import type { Translate } from '@/lib/i18n';
import type { judgesMessages } from '@/lib/i18n/messages/judges';

type T = Translate<(typeof judgesMessages)['en']>;

const sideKey = (team: string | undefined) => (team === 'affirmative' ? 'side_affirmative' : team === 'negative' ? 'side_negative' : 'side_unknown');

/** One stored rubric judgment (lib/eval/judges.ts): scores, fallacies, the trace and the overall view. */
export function RubricJudgmentView({ row, t, headingLevel = 4 }: { row: RubricJudgmentRow; t: T; headingLevel?: 3 | 4 }) {
  const { judgment, arguments: args } = row.result;
  const team = new Map(args.map((a) => [a.id, a.team]));
  const H = `h${headingLevel}` as 'h3' | 'h4';
  const heading = 'text-sm font-semibold';
  return (
    <div className="space-y-4" data-testid="rubric-judgment">
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        {t('judgedBy', { date: utcMinute(row.createdAt), model: row.model, name: row.createdByName ?? '—' })}
      </p>
      <DataTable caption={t('scoresCaption')} head={[t('argument'), t('side'), t('logic'), t('evidence'), t('responsiveness'), t('honesty'), t('weighted')]}>
        {judgment.scores.map((s) => (
          <tr key={s.argumentId} data-testid="rubric-score-row">
            <Td className="font-mono text-xs">{s.argumentId}</Td>
            <Td>{t(sideKey(team.get(s.argumentId)))}</Td>
            <Td>{s.logic}</Td>
            <Td>{s.evidence}</Td>
            <Td>{s.responsiveness}</Td>
            <Td>{s.honesty}</Td>
            <Td className="font-semibold">{s.weighted.toFixed(2)}</Td>
          </tr>
        ))}
      </DataTable>

      <H className={heading}>{t('fallaciesHeading')}</H>
      {judgment.fallacies.length ? (
        <ul className="list-disc space-y-1 pl-5 text-sm" data-testid="rubric-fallacies">
          {judgment.fallacies.map((f, i) => (
            <li key={`${f.argumentId}-${f.fallacy}-${i}`}>
              <span className="font-medium">{t('fallacyIn', { fallacy: t(`fallacy_${f.fallacy}`), argument: f.argumentId })}</span>: {f.explanation}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm">{t('noFallacies')}</p>
      )}

      <H className={heading}>{t('traceHeading')}</H>
      <DataTable caption={t('traceCaption')} head={[t('argument'), t('side'), t('standing'), t('note')]}>
        {judgment.trace.map((row) => (
          <tr key={row.argumentId} data-testid="rubric-trace-row">
            <Td className="font-mono text-xs">{row.argumentId}</Td>
            <Td>{t(sideKey(team.get(row.argumentId)))}</Td>
            <Td className="font-medium">{t(`standing_${row.standing}`)}</Td>
            <Td>{row.note}</Td>
          </tr>
        ))}
      </DataTable>

      <H className={heading}>{t('overallHeading')}</H>
      <div className="space-y-2 text-sm" data-testid="rubric-overall">
        <p className="font-medium">{t('totals', { aff: judgment.overall.affirmativeTotal.toFixed(2), neg: judgment.overall.negativeTotal.toFixed(2) })}</p>
        <p>
          <span className="font-medium">{t('keyInsight')}:</span> {judgment.overall.keyInsight}
        </p>
        {judgment.overall.unresolved.length ? (
          <div>
            <p className="font-medium">{t('unresolved')}:</p>
            <ul className="list-disc pl-5">
              {judgment.overall.unresolved.map((q, i) => (
                <li key={i}>{q}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <p>
          <span className="font-medium">{t('recommendation')}:</span> {judgment.overall.recommendation}
        </p>
      </div>
    </div>
  );
}
