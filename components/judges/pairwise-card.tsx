import { JudgeButton } from '@/components/judges/judge-button';
import { utcMinute } from '@/components/judges/judged-by';
import { Alert, Card, DataTable, Td } from '@/components/ui/layout';
import type { PairwiseJudgmentRow } from '@/lib/domain/judgments';
import type { Translate } from '@/lib/i18n';
import { judgesMessages } from '@/lib/i18n/messages/judges';
import { getT } from '@/lib/i18n/server';

type T = Translate<(typeof judgesMessages)['en']>;

function PairwiseVerdict({ row, t }: { row: PairwiseJudgmentRow; t: T }) {
  const r = row.result;
  return (
    <div className="space-y-2" data-testid="pairwise-judgment">
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        {t('judgedBy', { date: utcMinute(row.createdAt), model: row.model, name: row.createdByName ?? '—' })}
      </p>
      <DataTable caption={t('pairwiseCaption')} head={[t('order'), t('verdict'), t('reason')]}>
        {r.comparisons.map((c) => (
          <tr key={c.order} data-testid={`pairwise-${c.order}`}>
            <Td>{t(c.order === 'a-first' ? 'orderAFirst' : 'orderBFirst')}</Td>
            <Td className="font-medium">{t(`winner_${c.winner}`)}</Td>
            <Td>{c.reason}</Td>
          </tr>
        ))}
      </DataTable>
      <p className="text-sm font-medium" data-testid="pairwise-win-rates">
        {t('winRates', { a: r.winRate.a.toFixed(2), b: r.winRate.b.toFixed(2), n: r.comparisons.length })}
      </p>
      <p className="text-sm" data-testid="pairwise-agreement">
        {t(r.consistent ? 'consistent' : 'inconsistent')}
      </p>
    </div>
  );
}

/** Judgments listed newest first: the latest in full, earlier ones folded. */
export async function PairwiseCard({
  caseId,
  a,
  b,
  rows,
  canRun,
  availability,
}: {
  caseId: string;
  a: string;
  b: string;
  rows: PairwiseJudgmentRow[];
  canRun: boolean;
  availability: { available: true; model: string } | { available: false; reason: string };
}) {
  const t = await getT(judgesMessages);
  const [latest, ...earlier] = rows;
  return (
    <Card title={t('pairwiseHeading')}>
      <div className="space-y-4" data-testid="pairwise-card">
        <p className="text-sm text-zinc-700 dark:text-zinc-300">{t('pairwiseIntro')}</p>
        {canRun ? (
          <JudgeButton
            kind="pairwise"
            fields={{ case_id: caseId, a, b }}
            unavailable={availability.available ? undefined : availability.reason}
            model={availability.available ? availability.model : undefined}
          />
        ) : (
          <Alert tone="info">{t('readOnly')}</Alert>
        )}
        {latest ? (
          <>
            <h3 className="text-sm font-semibold">{t('latest')}</h3>
            <PairwiseVerdict row={latest} t={t} />
          </>
        ) : (
          <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="pairwise-none">
            {t('noJudgments')}
          </p>
        )}
        {earlier.length ? (
          <details data-testid="pairwise-earlier">
            <summary className="cursor-pointer text-sm font-semibold">
              {t('earlier')} ({earlier.length})
            </summary>
            <div className="mt-3 space-y-6">
              {earlier.map((row) => (
                <PairwiseVerdict key={row.id} row={row} t={t} />
              ))}
            </div>
          </details>
        ) : null}
      </div>
    </Card>
  );
}
