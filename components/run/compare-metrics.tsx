// The numbers of two runs in one table, with the difference B − A, so "the debate costs N×
// the tokens and reaches M more levels" reads off one screen.
import { secondsDigits, secondsFigure } from '@/components/run/live-format';
import { DataTable, Td } from '@/components/ui/layout';
import { PROTOCOLS_BY_ID } from '@/lib/debate/protocols';
import type { RunComparison, RunSummary } from '@/lib/eval/compare';
import { getT } from '@/lib/i18n/server';
import { compareMessages } from '@/lib/i18n/messages/compare';

const signed = (n: number, text: string) => (n > 0 ? `+${text}` : text);

export async function CompareMetrics({ comparison }: { comparison: RunComparison }) {
  const t = await getT(compareMessages);
  const { a, b, delta } = comparison;
  // One precision for both runs and their difference: 0.149 vs 0.194 s differ by +0.045 s, not "+0.0 s".
  const digits = secondsDigits(a.latencyMs, b.latencyMs, delta.latencyMs);
  const seconds = (ms: number | null) => (ms === null ? t('notAvailable') : t('seconds', { n: secondsFigure(ms, digits) }));
  const pct = (x: number | null) => (x === null ? t('notAvailable') : `${(x * 100).toFixed(0)}%`);
  const grounding = (s: RunSummary) =>
    s.citations.total === 0
      ? t('noCitations')
      : t('groundingValue', { pct: pct(s.citations.grounding), verified: s.citations.verified, total: s.citations.total });

  const rows: { label: string; value: (s: RunSummary) => string; diff?: string; testid: string }[] = [
    { label: t('protocol'), value: (s) => PROTOCOLS_BY_ID[s.protocol as keyof typeof PROTOCOLS_BY_ID]?.name ?? s.protocol, testid: 'protocol' },
    { label: t('provider'), value: (s) => (s.provider === 'offline' ? t('offline') : s.model), testid: 'provider' },
    { label: t('status'), value: (s) => t(`status_${s.status}` as 'status_queued'), testid: 'status' },
    { label: t('steps'), value: (s) => `${s.steps.done} / ${s.steps.total}`, testid: 'steps' },
    {
      label: t('latency'),
      value: (s) => seconds(s.latencyMs),
      diff: delta.latencyMs === null ? t('notAvailable') : signed(delta.latencyMs, seconds(delta.latencyMs)),
      testid: 'latency',
    },
    {
      label: t('tokens'),
      value: (s) => `${s.tokens.total.toLocaleString('en-US')} (${s.tokens.prompt.toLocaleString('en-US')} + ${s.tokens.completion.toLocaleString('en-US')})`,
      diff: signed(delta.tokens, delta.tokens.toLocaleString('en-US')),
      testid: 'tokens',
    },
    { label: t('cost'), value: (s) => `$${s.costUsd.toFixed(4)}`, diff: signed(delta.costUsd, `$${delta.costUsd.toFixed(4)}`), testid: 'cost' },
    { label: t('breadth'), value: (s) => String(s.breadth), diff: signed(delta.breadth, String(delta.breadth)), testid: 'breadth' },
    { label: t('maxDepth'), value: (s) => String(s.maxDepth), diff: signed(b.maxDepth - a.maxDepth, String(b.maxDepth - a.maxDepth)), testid: 'max-depth' },
    { label: t('rei'), value: (s) => String(s.rei), diff: signed(delta.rei, String(delta.rei)), testid: 'rei' },
    {
      label: t('grounding'),
      value: grounding,
      diff: delta.grounding === null ? t('notAvailable') : signed(delta.grounding, `${(delta.grounding * 100).toFixed(0)} pp`),
      testid: 'grounding',
    },
    {
      label: t('factorsCovered'),
      value: (s) => String(s.factorsCovered),
      diff: signed(b.factorsCovered - a.factorsCovered, String(b.factorsCovered - a.factorsCovered)),
      testid: 'factors-covered',
    },
  ];

  return (
    <DataTable caption={t('metricsCaption')} head={[t('metric'), t('runA'), t('runB'), t('difference')]}>
      {rows.map((r) => (
        <tr key={r.testid} data-testid={`metric-${r.testid}`}>
          <th scope="row" className="px-4 py-2 text-left align-top font-medium">
            {r.label}
          </th>
          <Td className="tabular-nums">{r.value(a)}</Td>
          <Td className="tabular-nums">{r.value(b)}</Td>
          <Td className="tabular-nums">{r.diff ?? ''}</Td>
        </tr>
      ))}
    </DataTable>
  );
}
