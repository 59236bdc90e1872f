'use client';
// The case's runs. While any is queued or running the list refreshes itself, so the RM sees a
// run finish (and its tokens and cost) without reloading.
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { formatCount, formatDuration, formatUsd } from '@/components/run/live-format';
import { ShortfallLine } from '@/components/run/evidence-shortfall';
import { RunStatusBadge } from '@/components/run/run-progress';
import { DataTable, EmptyState, Td } from '@/components/ui/layout';
import { useLocale, useT } from '@/lib/i18n/client';
import { casesMessages } from '@/lib/i18n/messages/cases';
import { runMessages } from '@/lib/i18n/messages/run';
import type { EvidenceShortfall } from '@/lib/domain/red-flags';
import type { RunStatus } from '@/lib/domain/vocabulary';
import { runElapsedMs } from '@/lib/report/run-state';

export type CaseRunRow = {
  id: string;
  protocol: string;
  provider: string;
  model: string;
  mode: string;
  /** The output language (`en`, `ko`); null for a run stored without one. */
  language: string | null;
  status: RunStatus;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** What a retried run's earlier attempts took (runElapsedMs adds the latest one's). */
  priorElapsedMs?: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: string;
  /** Set when the run ended as insufficient evidence: what the pool held against the threshold. */
  shortfall?: EvidenceShortfall | null;
};

const ACTIVE: RunStatus[] = ['queued', 'running'];

async function fetchRuns(caseId: string): Promise<CaseRunRow[]> {
  const response = await fetch(`/api/cases/${caseId}/runs`, { cache: 'no-store' });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return ((await response.json()) as { runs: CaseRunRow[] }).runs;
}

export function CaseRuns({ caseId, initial, protocolNames }: { caseId: string; initial: CaseRunRow[]; protocolNames: Record<string, string> }) {
  const t = useT(casesMessages);
  const tr = useT(runMessages);
  const locale = useLocale();
  const { data: runs = initial } = useQuery({
    queryKey: ['case-runs', caseId],
    queryFn: () => fetchRuns(caseId),
    initialData: initial,
    refetchInterval: (query) => ((query.state.data ?? []).some((r) => ACTIVE.includes(r.status)) ? 2000 : false),
  });
  if (!runs.length) return <EmptyState title={t('noRuns')} />;
  const durationText = (ms: number | null) => (ms !== null && ms >= 0 && ms < 1000 ? tr('underASecond') : formatDuration(ms, locale));
  return (
    <DataTable
      caption={t('runsCaption')}
      head={[t('colProtocol'), t('colProvider'), t('colStatus'), t('colStarted'), t('colDuration'), t('colTokens'), t('colCost')]}
    >
      {runs.map((r) => (
        <tr key={r.id} data-testid="case-run-row">
          <Td>
            <Link className="font-medium text-blue-800 underline underline-offset-2 dark:text-blue-300" href={`/runs/${r.id}`}>
              {protocolNames[r.protocol] ?? r.protocol}
            </Link>
            <span className="block text-xs text-zinc-600 dark:text-zinc-400" data-testid="case-run-setup">
              {[
                r.language === 'ko' ? tr('languageKo') : r.language === 'en' ? tr('languageEn') : null,
                r.mode === 'sequential' ? tr('modeLabelSequential') : tr('modeLabelDag'),
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
          </Td>
          <Td>{r.provider === 'offline' ? tr('offlineNote') : tr('openaiNote', { model: r.model })}</Td>
          <Td>
            <RunStatusBadge status={r.status} />
            {r.status === 'insufficient_evidence' && r.shortfall ? <ShortfallLine shortfall={r.shortfall} /> : null}
          </Td>
          <Td className="whitespace-nowrap">{r.startedAt ? r.startedAt.slice(0, 16).replace('T', ' ') + ' UTC' : '—'}</Td>
          <Td>{durationText(runElapsedMs(r, null))}</Td>
          <Td>{formatCount(r.promptTokens + r.completionTokens)}</Td>
          {/* The offline analyst calls no model: "no model cost" says why, where "$0" would not. */}
          <Td>{r.provider === 'offline' ? <span title={tr('offlineUsageNote')}>{tr('costOffline')}</span> : formatUsd(Number(r.costUsd))}</Td>
        </tr>
      ))}
    </DataTable>
  );
}
