'use client';

import { useEffect, useState } from 'react';
import { formatDuration, formatUsd } from '@/components/run/live-format';
import { Badge } from '@/components/ui/layout';
import type { RunStatus } from '@/lib/domain/vocabulary';
import { isTerminal, progressOf, runElapsedMs, shownTotals, type LiveRunState } from '@/lib/report/run-state';
import { useLocale, useT } from '@/lib/i18n/client';
import { runMessages } from '@/lib/i18n/messages/run';

const STATUS_TONE: Record<RunStatus, 'neutral' | 'blue' | 'green' | 'amber' | 'red'> = {
  queued: 'neutral',
  running: 'blue',
  succeeded: 'green',
  failed: 'red',
  cancelled: 'amber',
  budget_exceeded: 'amber',
  insufficient_evidence: 'amber',
  red_flag_screening: 'red',
};

export function RunStatusBadge({ status }: { status: RunStatus }) {
  const t = useT(runMessages);
  return (
    <span data-testid="run-status" data-status={status}>
      <Badge tone={STATUS_TONE[status]}>{t(`status_${status}`)}</Badge>
    </span>
  );
}

/** Elapsed time that ticks while the run goes and stops at its end; a retried run's attempts add up (runElapsedMs). */
function useElapsed(run: Pick<LiveRunState, 'startedAt' | 'finishedAt' | 'priorElapsedMs'>, running: boolean) {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    if (!running) return;
    // The clock starts after hydration, so the server's and the browser's first render agree.
    const tick = () => setNow(Date.now());
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, 1000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [running]);
  return runElapsedMs(run, now);
}

export function RunProgress({
  state,
  connection,
  offline = false,
}: {
  state: LiveRunState;
  connection: 'live' | 'reconnecting' | 'closed';
  offline?: boolean;
}) {
  const t = useT(runMessages);
  const locale = useLocale();
  const { done, running, total } = progressOf(state);
  const elapsed = useElapsed(state, !isTerminal(state.status));
  // Running steps count with what they have spent so far, so the figures grow as the models write.
  const totals = shownTotals(state);
  return (
    <div className="flex flex-wrap items-center gap-x-5 gap-y-2 text-sm" data-testid="run-progress">
      <RunStatusBadge status={state.status} />
      {/* A run that ended before any step on a thin pool has no steps to count. */}
      {state.status === 'insufficient_evidence' || state.status === 'red_flag_screening' ? null : (
        <div className="flex items-center gap-2">
          <progress className="h-2 w-32 accent-blue-700" max={total} value={done} aria-label={t('progress', { done, total })} />
          <span data-testid="progress-count" aria-live="polite">
            {t('progress', { done, total })}
          </span>
        </div>
      )}
      {running > 0 ? <span data-testid="running-count">{t('runningNow', { n: running })}</span> : null}
      <span data-testid="run-elapsed">
        {t('elapsed', { time: elapsed !== null && elapsed < 1000 && isTerminal(state.status) ? t('underASecond') : formatDuration(elapsed, locale) })}
      </span>
      {offline ? (
        // The offline analyst calls no model: no model time or cost, and its tokens are its own estimate.
        <>
          <span data-testid="run-tokens">{t('tokensOffline', { n: totals.tokens })}</span>
          <span data-testid="run-cost" title={t('offlineUsageNote')}>
            {t('costOffline')}
          </span>
        </>
      ) : (
        <>
          <span data-testid="run-tokens">{t('tokens', { n: totals.tokens })}</span>
          {totals.cachedTokens > 0 ? <span data-testid="run-cached-tokens">{t('cachedTokens', { n: totals.cachedTokens })}</span> : null}
          <span data-testid="run-cost">{t('cost', { cost: formatUsd(totals.costUsd) })}</span>
        </>
      )}
      {connection === 'live' ? (
        <span className="inline-flex items-center gap-1 text-green-800 dark:text-green-300" data-testid="connection">
          <span aria-hidden className="inline-block h-2 w-2 rounded-full bg-green-600" />
          {t('live')}
        </span>
      ) : connection === 'reconnecting' ? (
        <span className="text-amber-900 dark:text-amber-200" data-testid="connection">
          {t('reconnecting')}
        </span>
      ) : null}
    </div>
  );
}
