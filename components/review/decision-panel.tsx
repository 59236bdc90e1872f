// A case's decisions, newest first (one per submission round), and the committee's form while
// the case is submitted. Read-only for the RM.
import { formatDateTime } from '@/components/lists/format';
import { Alert, Badge } from '@/components/ui/layout';
import type { CaseDecision } from '@/lib/domain/views';
import type { VoteView } from '@/lib/domain/oversight';
import type { CaseStatus, DecisionOutcome } from '@/lib/domain/vocabulary';
import { oversightMessages } from '@/lib/i18n/messages/oversight';
import { reviewMessages } from '@/lib/i18n/messages/review';
import { getT } from '@/lib/i18n/server';
import { DecisionForm, type DecisionFormRun } from './decision-form';

/**
 * The open round's votes and what the form needs (docs/oversight.md): shown to the committee
 * while the case is with it. `notVoted`: committee members with no vote in this round.
 */
export type RoundOversight = {
  quorum: number;
  votes: Pick<VoteView, 'voterId' | 'voterName' | 'outcome' | 'updatedAt'>[];
  stillNeeded: number;
  notVoted: string[];
  myOutcome: DecisionOutcome | null;
  runs: DecisionFormRun[];
};

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
  round = null,
  decisionVotes = {},
}: {
  caseId: string;
  status: CaseStatus;
  decisions: CaseDecision[];
  canDecide: boolean;
  round?: RoundOversight | null;
  /** The votes that made each decision, by decision id: the oversight record shown under it. */
  decisionVotes?: Record<string, VoteView[]>;
}) {
  const t = await getT(reviewMessages);
  const to = await getT(oversightMessages);
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
              {decisionVotes[d.id]?.length ? (
                <div className="mt-2" data-testid="decision-oversight">
                  <h3 className="text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400">{to('oversightHeading')}</h3>
                  <p>{to('decidedByVotes', { names: decisionVotes[d.id].map((v) => v.voterName).join(', ') })}</p>
                  <ul className="list-disc space-y-1 pl-5">
                    {decisionVotes[d.id].map((v) => (
                      <li key={v.id} data-testid="oversight-confirmed">
                        {to('confirmedLine', { name: v.voterName, checks: to('confirmedChecks', { n: v.confirmed.failedChecks.length }) })}
                      </li>
                    ))}
                    {decisionVotes[d.id].flatMap((v) =>
                      v.overrides.map((o) => (
                        <li key={`${v.id}-${o.ref}`} data-testid="oversight-override">
                          {to('overrideLine', { name: v.voterName, label: o.label, reason: o.reason })}
                        </li>
                      )),
                    )}
                  </ul>
                </div>
              ) : null}
            </li>
          ))}
        </ol>
      ) : !canDecide ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('noDecisionYet')}</p>
      ) : null}
      {round && status === 'submitted' && round.quorum > 1 ? (
        <div className="space-y-1 rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800" data-testid="round-votes">
          <p className="font-medium">{to('quorumMany', { n: round.quorum })}</p>
          <h3 className="text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400">{to('votesHeading')}</h3>
          {round.votes.length ? (
            <ul className="list-disc pl-5">
              {round.votes.map((v) => (
                <li key={v.voterId} data-testid="round-vote">
                  {v.voterName}: {t(`outcome_${v.outcome}`)}
                </li>
              ))}
            </ul>
          ) : (
            <p>{to('noVotes')}</p>
          )}
          <p data-testid="votes-still-needed">{to('stillNeeded', { n: round.stillNeeded })}</p>
          {round.notVoted.length ? <p className="text-zinc-600 dark:text-zinc-400">{to('notYetVoted', { names: round.notVoted.join(', ') })}</p> : null}
          {round.myOutcome ? <p data-testid="my-vote">{to('yourVote', { outcome: t(`outcome_${round.myOutcome}`) })}</p> : null}
        </div>
      ) : null}
      {canDecide ? <DecisionForm caseId={caseId} quorum={round?.quorum ?? 1} runs={round?.runs ?? []} /> : null}
    </div>
  );
}
