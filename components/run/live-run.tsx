'use client';
// The live run: the server's first paint as the initial state, then the run's event log from the
// number that state includes, streamed and reduced into it by lib/report/run-state.ts.
// EventSource reconnects by itself and asks for the events after the last one it got, so a
// reload, a second viewer or a dropped connection all land on the same state.
import { FailedChecksNotice, type FailedChecksNoticeProps } from '@/components/report/failed-checks-notice';
import Link from 'next/link';
import { useEffect, useReducer, useRef, useState, useTransition, type ReactNode } from 'react';
import { cancelRun, retryRun } from '@/app/(signed-in)/(workspace)/runs/[id]/actions';
import { EvidenceShortfallNotice } from '@/components/run/evidence-shortfall';
import { FactorPanels } from '@/components/run/factor-panels';
import { RedFlagsPanel } from '@/components/red-flags/red-flags-panel';
import { ReasoningTreeView } from '@/components/run/reasoning-tree';
import { RunProgress } from '@/components/run/run-progress';
import { Transcript } from '@/components/run/transcript';
import { ContentLanguage } from '@/components/run/content-language';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/layout';
import { isTerminal, reduceRun, type LiveRunState, type WireMessage } from '@/lib/report/run-state';
import type { RunViewTurn } from '@/lib/report/run-doc';
import { useLocale, useT } from '@/lib/i18n/client';
import type { Locale } from '@/lib/i18n';
import { failureText } from '@/lib/i18n/failures';
import { runMessages } from '@/lib/i18n/messages/run';
import { screeningMessages } from '@/lib/i18n/messages/screening';

type Connection = 'live' | 'reconnecting' | 'closed';

function useRunStream(initial: LiveRunState) {
  const [state, dispatch] = useReducer(reduceRun, initial);
  const [connection, setConnection] = useState<Connection>(isTerminal(initial.status) ? 'closed' : 'reconnecting');
  // Bumped after a retry, to follow the run again once its stream had ended.
  const [generation, setGeneration] = useState(0);
  const follow = !isTerminal(initial.status) || generation > 0;
  // Where following goes on from: the latest event the state includes (after a retry, past the
  // events of the attempt already shown).
  const seq = useRef(initial.seq);
  useEffect(() => {
    seq.current = state.seq;
  });

  useEffect(() => {
    if (!follow) return;
    const after = seq.current === undefined ? '' : `?after=${seq.current}`;
    const source = new EventSource(`/api/runs/${initial.runId}/events${after}`);
    source.onopen = () => setConnection('live');
    source.onerror = () => setConnection(source.readyState === EventSource.CLOSED ? 'closed' : 'reconnecting');
    source.onmessage = (e) => {
      const message = JSON.parse(e.data) as WireMessage;
      dispatch(message);
      const ended = message.type === 'run-finished' || (message.type === 'snapshot' && isTerminal(message.state.status));
      if (ended) {
        // The server ends the stream now; without this EventSource would reconnect.
        source.close();
        setConnection('closed');
      }
    };
    return () => source.close();
  }, [initial.runId, follow, generation]);

  return { state, connection, refollow: () => setGeneration((g) => g + 1) };
}

/**
 * `run`: the as-of date and borrower, for the notice of a run short of evidence. `lead`: what the
 * page shows right under the red flags, which come first (the case's decisions).
 */
export function LiveRun({
  initial,
  canWrite,
  run,
  lead,
  failedChecks = null,
}: {
  initial: LiveRunState;
  canWrite: boolean;
  /**
   * `offline`: the built-in offline analyst answers, which has no model time or cost to show.
   * `language`: the run's output language, for the factor labels inside its content.
   */
  run?: { asOf: string; companyId: string; offline?: boolean; language?: Locale };
  lead?: ReactNode;
  /** A finished run's failed final checks with their counts (lib/report/failed-checks.ts), read by the page. */
  failedChecks?: FailedChecksNoticeProps['notice'] | null;
}) {
  const t = useT(runMessages);
  const ts = useT(screeningMessages);
  const locale = useLocale();
  const { state, connection, refollow } = useRunStream(initial);
  // The reason as the engine stored it, in the reader's language (the same live and after a reload).
  const reason = state.error ? failureText(state.error, locale, state.errorPhrase) : null;
  const [pending, startTransition] = useTransition();
  const [actionError, setActionError] = useState<string | null>(null);
  const terminal = isTerminal(state.status);
  // A run that ended before any step on a thin pool (docs/protocols.md, "Evidence sufficiency"):
  // no transcript, panels or tree to show, only what it ended with.
  const noSteps = state.status === 'insufficient_evidence' || state.status === 'red_flag_screening';
  // The finished turns, live: what the pro/con panels and the reasoning tree take.
  const done: RunViewTurn[] = state.turns.filter((x) => x.status === 'done');
  // Marks the moment React has hydrated the page (effects run only then): tests wait for the
  // attribute rather than guessing when clicks start to work; the UI benchmark (scripts/bench/ui.ts)
  // reads the performance mark's time since navigation start.
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    root.current?.setAttribute('data-hydrated', 'true');
    performance.mark('run-hydrated');
  }, []);

  const act = (which: 'cancel' | 'retry') =>
    startTransition(async () => {
      setActionError(null);
      const result = await (which === 'cancel' ? cancelRun : retryRun)({ run_id: state.runId });
      if (!result.ok) setActionError(result.message);
      else if (which === 'retry') refollow();
    });

  return (
    <div ref={root} className="space-y-6" data-testid="live-run">
      {/* Red flags before anything else, as the run stored them; a run started after this page opened brings them with run-started. */}
      {state.redFlags?.length ? <RedFlagsPanel flags={state.redFlags} evidence={state.evidence} scope={{ kind: 'run', date: run?.asOf ?? '' }} /> : null}
      {lead}
      {failedChecks ? <FailedChecksNotice notice={failedChecks} /> : null}
      <div className="sticky top-0 z-10 -mx-2 flex flex-wrap items-center justify-between gap-3 rounded-md border border-zinc-200 bg-white/95 px-3 py-2 dark:border-zinc-800 dark:bg-zinc-950/95">
        <RunProgress state={state} connection={connection} offline={run?.offline ?? false} />
        {canWrite ? (
          <div className="flex gap-2">
            {!terminal ? (
              <Button variant="danger" size="sm" disabled={pending} onClick={() => act('cancel')} data-testid="cancel-run">
                {pending ? t('cancelling') : t('cancel')}
              </Button>
            ) : null}
            {/* A run over its budget would only spend more, and one that ended before any step on a
                thin pool would end the same: neither is retried (a fuller pool asks for a new run). */}
            {terminal && state.status !== 'succeeded' && state.status !== 'budget_exceeded' && !noSteps ? (
              <Button size="sm" disabled={pending} onClick={() => act('retry')} data-testid="retry-run">
                {pending ? t('retrying') : t('retry')}
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>
      {actionError ? <Alert>{actionError}</Alert> : null}
      {state.status === 'failed' ? (
        <div data-testid="run-error">
          <Alert>
            <span className="font-semibold">
              {t('runFailed')}
              {reason ? ': ' : '.'}
            </span>
            {reason ? <span data-testid="run-error-reason">{reason}</span> : null}
          </Alert>
        </div>
      ) : null}
      {state.status === 'cancelled' ? <Alert tone="info">{t('runCancelled')}</Alert> : null}
      {state.status === 'insufficient_evidence' && state.shortfall && run ? (
        <EvidenceShortfallNotice shortfall={state.shortfall} asOf={run.asOf} companyId={run.companyId} canWrite={canWrite} />
      ) : null}
      {state.status === 'red_flag_screening' ? (
        <div data-testid="run-red-flag-screening">
          <Alert tone="info">
            <span className="font-semibold">{ts('noticeTitle')}. </span>
            {ts('runNoticeBody')}{' '}
            <Link href={`/runs/${state.runId}/report`} className="text-blue-800 underline dark:text-blue-300" data-testid="screening-link">
              {ts('openScreening')}
            </Link>
          </Alert>
        </div>
      ) : null}
      {state.status === 'budget_exceeded' ? (
        <div data-testid="run-budget-exceeded">
          <Alert>
            <span className="font-semibold">{t('runBudgetExceeded')}: </span>
            {reason} {t('runBudgetNoRetry')}
          </Alert>
        </div>
      ) : null}

      {noSteps ? null : (
        <ContentLanguage language={run?.language ?? locale}>
          <nav aria-label={t('sectionTranscript')} className="flex flex-wrap gap-4 text-sm">
            <a href="#transcript" className="text-blue-800 underline dark:text-blue-300">
              {t('sectionTranscript')}
            </a>
            <a href="#panels" className="text-blue-800 underline dark:text-blue-300">
              {t('sectionPanels')}
            </a>
            <a href="#tree" className="text-blue-800 underline dark:text-blue-300">
              {t('sectionTree')}
            </a>
            {state.reportReady ? (
              <Link href={`/runs/${state.runId}/report`} className="text-blue-800 underline dark:text-blue-300" data-testid="report-link">
                {t('openReport')}
              </Link>
            ) : (
              <span className="text-zinc-600 dark:text-zinc-400">{t('reportNotYet')}</span>
            )}
          </nav>

          <section id="transcript" aria-labelledby="transcript-heading" className="scroll-mt-20">
            <h2 id="transcript-heading" className="mb-3 text-lg font-semibold">
              {t('sectionTranscript')}
            </h2>
            <Transcript turns={state.turns} runStatus={state.status} evidence={state.evidence} waiting={state.waiting} streaming={state.streaming} />
          </section>

          <div id="panels" className="scroll-mt-20">
            <FactorPanels turns={done} evidence={state.evidence} />
          </div>

          <div id="tree" className="scroll-mt-20">
            <ReasoningTreeView turns={done} />
          </div>
        </ContentLanguage>
      )}
    </div>
  );
}
