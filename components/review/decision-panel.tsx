// A case's decisions, newest first (one per submission round), and the committee's form while
// the case is submitted. Read-only for the RM.
import { formatDateTime } from '@/components/lists/format';
import { Alert, Badge } from '@/components/ui/layout';
import type { CaseDecision } from '@/lib/domain/views';
import type { CaseStatus, DecisionOutcome } from '@/lib/domain/vocabulary';
import { reviewMessages } from '@/lib/i18n/messages/review';
import { getT } from '@/lib/i18n/server';
import { DecisionForm } from './decision-form';

const OUTCOME_TONE: Record<DecisionOutcome, 'green' | 'amber' | 'red' | 'blue'> = {
  approve: 'green',
  approve_with_conditions: 'amber',
  decline: 'red',
  return: 'blue',
};

export async function DecisionPanel({
  caseId,
  status,
  decisions,
  canDecide,
}: {
  caseId: string;
  status: CaseStatus;
  decisions: CaseDecision[];
  canDecide: boolean;
}) {
  const t = await getT(reviewMessages);
  return (
    <div className="space-y-4" data-testid="decision-panel">
      {status === 'returned' && !canDecide ? <Alert tone="info">{t('returnedNote')}</Alert> : null}
      {decisions.length ? (
        <ol className="space-y-3" aria-label={t('decisionHistory')}>
          {decisions.map((d) => (
            <li key={d.id} className="rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800" data-testid="decision">
              <p className="flex flex-wrap items-center gap-2">
                <Badge tone={OUTCOME_TONE[d.outcome]}>
                  <span data-testid="decision-outcome">{t(`outcome_${d.outcome}`)}</span>
                </Badge>
                <span className="text-xs text-zinc-600 dark:text-zinc-400">{t('decidedBy', { name: d.deciderName, time: formatDateTime(d.createdAt) })}</span>
              </p>
              <h3 className="mt-2 text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400">{t('rationale')}</h3>
              <p className="whitespace-pre-line" data-testid="decision-rationale">
                {d.rationale}
              </p>
              {d.conditions ? (
                <>
                  <h3 className="mt-2 text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400">{t('conditions')}</h3>
                  <p className="whitespace-pre-line" data-testid="decision-conditions">
                    {d.conditions}
                  </p>
                </>
              ) : null}
            </li>
          ))}
        </ol>
      ) : !canDecide ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('noDecisionYet')}</p>
      ) : null}
      {canDecide ? <DecisionForm caseId={caseId} /> : null}
    </div>
  );
}
