'use client';
// The debate in protocol order: one card per turn with speaker, side (a word and a colour),
// act and step number, the text as it streams, its claims with factor and polarity and their
// citations, and cross-examination questions linked to the claims they target.
import { TurnComments } from '@/components/review/turn-comments';
import { CitationChip, type ChipCitation } from '@/components/run/citation-chip';
import { StepRepairs } from '@/components/run/step-repairs';
import { Alert, Badge } from '@/components/ui/layout';
import type { RunViewTurn } from '@/lib/report/run-doc';
import type { StepWait } from '@/lib/domain/protocol';
import { blockedBy, pendingStepNote, type EvidenceRefs, type StreamingStep } from '@/lib/report/run-state';
import type { RunStatus } from '@/lib/domain/vocabulary';
import { formatUsd } from '@/components/run/live-format';
import { failureText } from '@/lib/i18n/failures';
import { useLocale, useT } from '@/lib/i18n/client';
import { actLabel, agentLabel } from '@/lib/i18n/messages/debate-terms';
import { runMessages } from '@/lib/i18n/messages/run';
import { useFactorName } from '@/components/run/content-language';
import { readsAgainst } from '@/lib/eval/reading-consistency';
import { redFlagMessages } from '@/lib/i18n/messages/red-flags';

const TEAM_STYLE: Record<string, string> = {
  affirmative: 'border-l-blue-700 dark:border-l-blue-400',
  negative: 'border-l-orange-700 dark:border-l-orange-400',
  neutral: 'border-l-zinc-500 dark:border-l-zinc-400',
};
const TEAM_TONE = { affirmative: 'blue', negative: 'amber', neutral: 'neutral' } as const;
const STEP_TONE = { pending: 'neutral', running: 'blue', done: 'green', failed: 'red' } as const;

/** A report-type turn's citations (it has no claims to hang them on), each source once. */
function distinctCitations(citations: ChipCitation[]) {
  const seen = new Set<string>();
  return citations.filter((c) => {
    const key = c.evidenceId || `${c.source}|${c.date}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Why a running step has nothing new yet: it waits for quota or for a retry, until about `until`. */
function WaitNotice({ wait }: { wait: StepWait }) {
  const t = useT(runMessages);
  const locale = useLocale();
  const time = new Date(wait.until).toLocaleTimeString(locale === 'ko' ? 'ko-KR' : 'en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return (
    <p
      role="status"
      data-testid="step-waiting"
      data-reason={wait.reason}
      className="mb-2 rounded border border-amber-300 bg-amber-50 px-2 py-1 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
    >
      {/* The server renders in its time zone, the browser in the viewer's. */}
      <span suppressHydrationWarning>{t(`wait_${wait.reason}`, { time })}</span>
    </p>
  );
}

/** A running step's spend so far, estimated from its stream (the finished step shows its own usage). */
function StreamingUsage({ streaming }: { streaming: StreamingStep }) {
  const t = useT(runMessages);
  const tokens = streaming.usage ? streaming.usage.promptTokens + streaming.usage.completionTokens : 0;
  if (!tokens) return null;
  return (
    <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400" data-testid="streaming-usage">
      {t('streamingUsage', { tokens })}
    </p>
  );
}

function TurnCard({
  turn,
  n,
  evidence,
  wait,
  streaming,
  blocked,
  runStatus,
}: {
  turn: RunViewTurn;
  n: number;
  evidence: EvidenceRefs;
  wait?: StepWait;
  streaming?: StreamingStep;
  /** For a pending step that cannot start: the failed steps it waits on. */
  blocked?: string[];
  /** The run's status: a pending step of a run that has ended says why it never ran. */
  runStatus: RunStatus;
}) {
  const t = useT(runMessages);
  const tf = useT(redFlagMessages);
  const locale = useLocale();
  // A claim's factor is named in the run's language, like the claim (components/run/content-language.tsx).
  const factorLabel = useFactorName();
  const team = turn.team in TEAM_STYLE ? turn.team : 'neutral';
  // The tagged reading of each cited item, as the run recorded it (lib/eval/reading-consistency.ts).
  const readingOf = (id: string) => evidence[id]?.polarity;
  const pendingNote = pendingStepNote(runStatus, Boolean(blocked?.length));
  return (
    <article
      id={`turn-${turn.step}`}
      data-testid={`turn-${turn.step}`}
      data-status={turn.status}
      aria-busy={turn.status === 'running'}
      aria-labelledby={`turn-${turn.step}-heading`}
      className={`scroll-mt-20 rounded-lg border border-l-4 border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900 ${TEAM_STYLE[team]}`}
    >
      <header className="mb-2 flex flex-wrap items-center gap-2 text-sm">
        <h3 id={`turn-${turn.step}-heading`} className="font-semibold">
          {agentLabel(turn.agent, locale)}
        </h3>
        <Badge tone={TEAM_TONE[team as keyof typeof TEAM_TONE]}>{t(`team_${team}` as 'team_neutral')}</Badge>
        <span className="text-zinc-700 dark:text-zinc-300">{actLabel(turn.act, locale)}</span>
        <span className="text-zinc-600 dark:text-zinc-400">{t('stepNumber', { n, id: turn.step })}</span>
        <span className="ml-auto" data-testid="turn-status">
          <Badge tone={STEP_TONE[turn.status]}>{t(`step_${turn.status}`)}</Badge>
        </span>
      </header>
      {turn.status === 'running' && wait ? <WaitNotice wait={wait} /> : null}
      {turn.status === 'failed' ? (
        <Alert>
          <span className="font-semibold">{t('stepFailed')}: </span>
          <span data-testid="step-error">{turn.error ? failureText(turn.error, locale, turn.errorPhrase) : null}</span>
        </Alert>
      ) : null}
      {turn.text ? (
        <p className="whitespace-pre-line text-sm leading-relaxed" data-testid="turn-text">
          {turn.text}
          {turn.status === 'running' ? <span aria-hidden className="ml-0.5 inline-block h-4 w-1.5 animate-pulse bg-blue-700 align-middle" /> : null}
        </p>
      ) : turn.status === 'pending' && blocked?.length ? (
        <p className="text-sm text-red-800 dark:text-red-300" data-testid="step-blocked">
          {t('blockedBy', { steps: blocked.join(', ') })}
        </p>
      ) : turn.status === 'pending' ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="step-pending-note" data-note={pendingNote}>
          {t(pendingNote === 'blocked' ? 'waitingForContext' : pendingNote)}
        </p>
      ) : null}
      {turn.claims.length ? (
        <section className="mt-3" aria-label={t('claims')}>
          <h4 className="text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400">{t('claims')}</h4>
          <ul className="mt-1 space-y-2">
            {/* A running step's claims are as far as written: any field may be missing yet. */}
            {turn.claims.map((c, i) => {
              const against = readsAgainst(c, readingOf);
              return (
                <li
                  key={c.id ?? i}
                  id={c.id ? `claim-${c.id}` : undefined}
                  data-testid="claim"
                  data-reads-against={against.length ? 'true' : undefined}
                  className="scroll-mt-20 text-sm"
                >
                  <span className="mr-2 font-mono text-xs text-zinc-600 dark:text-zinc-400">{c.id}</span>
                  {c.factor ? <Badge>{factorLabel(c.factor)}</Badge> : null}{' '}
                  {c.polarity ? (
                    <Badge tone={c.polarity === 'favorable' ? 'green' : c.polarity === 'adverse' ? 'red' : 'amber'}>{t(`polarity_${c.polarity}`)}</Badge>
                  ) : null}
                  {against.length ? (
                    <>
                      {' '}
                      <span data-testid="reads-against" title={tf('readsAgainstHint')}>
                        <Badge tone="red">⚠ {tf('readsAgainst')}</Badge>
                      </span>
                    </>
                  ) : null}
                  <p className="mt-1">{c.text}</p>
                  {against.length ? (
                    <ul className="mt-1 text-xs text-red-800 dark:text-red-300">
                      {against.map((a) => (
                        <li key={a.evidenceId}>
                          {tf('readsAgainstItem', { reading: tf(`reading_${a.reading}`), title: evidence[a.evidenceId]?.title ?? a.evidenceId })}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                  {c.citations?.length ? (
                    <span className="mt-1 flex flex-wrap gap-1">
                      {(c.citations as ChipCitation[]).map((cit, i) => (
                        <CitationChip key={i} citation={cit} evidence={cit.evidenceId ? evidence[cit.evidenceId] : undefined} />
                      ))}
                    </span>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
      {!turn.claims.length && turn.citations.length ? (
        <section className="mt-3" aria-label={t('citedEvidence')} data-testid="turn-citations">
          <h4 className="text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400">{t('citedEvidence')}</h4>
          <span className="mt-1 flex flex-wrap gap-1">
            {distinctCitations(turn.citations as ChipCitation[]).map((cit, i) => (
              <CitationChip key={i} citation={cit} evidence={cit.evidenceId ? evidence[cit.evidenceId] : undefined} />
            ))}
          </span>
        </section>
      ) : null}
      {turn.questions.length ? (
        <section className="mt-3" aria-label={t('questions')}>
          <h4 className="text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400">{t('questions')}</h4>
          <ol className="mt-1 list-decimal space-y-1 pl-5 text-sm">
            {turn.questions.map((q, i) => (
              <li key={q.id ?? i} id={q.id ? `question-${q.id}` : undefined} data-testid="question" className="scroll-mt-20">
                {q.text}{' '}
                {q.targetClaimId ? (
                  <a href={`#claim-${q.targetClaimId}`} className="text-blue-800 underline dark:text-blue-300" data-testid="question-target">
                    {t('targets', { id: q.targetClaimId })}
                  </a>
                ) : null}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      {turn.status === 'running' && streaming ? <StreamingUsage streaming={streaming} /> : null}
      {/* A failed step shows what its attempts spent too: the run's totals include it. */}
      {(turn.status === 'done' || turn.status === 'failed') && turn.usage.promptTokens + turn.usage.completionTokens > 0 ? (
        <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400" data-testid="turn-usage">
          {turn.usage.costUsd > 0
            ? t('turnUsageCost', { tokens: turn.usage.promptTokens + turn.usage.completionTokens, cost: formatUsd(turn.usage.costUsd) })
            : t('turnUsage', { tokens: turn.usage.promptTokens + turn.usage.completionTokens })}
        </p>
      ) : null}
      {turn.status === 'done' || turn.status === 'failed' ? <StepRepairs repairs={turn.repairs} /> : null}
      {turn.status === 'done' ? <TurnComments step={turn.step} claimIds={turn.claims.map((c) => c.id)} /> : null}
    </article>
  );
}

export function Transcript({
  turns,
  evidence,
  waiting = {},
  streaming = {},
  runStatus,
}: {
  turns: RunViewTurn[];
  runStatus: RunStatus;
  evidence: EvidenceRefs;
  waiting?: Record<string, StepWait>;
  streaming?: Record<string, StreamingStep>;
}) {
  // Worked out from the turns alone, so it reads the same live and after a reload.
  const blocked = blockedBy(turns);
  return (
    <ol className="space-y-3" data-testid="transcript">
      {turns.map((turn, i) => (
        <li key={turn.step}>
          <TurnCard
            turn={turn}
            n={i + 1}
            evidence={evidence}
            wait={waiting[turn.step]}
            streaming={streaming[turn.step]}
            blocked={blocked[turn.step]}
            runStatus={runStatus}
          />
        </li>
      ))}
    </ol>
  );
}
