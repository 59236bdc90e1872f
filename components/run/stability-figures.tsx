// The agreement figures of 2–5 runs (lib/report/stability.ts, docs/stability.md): the summary
// table and each factor's reading per run. Shown by the stability view of a set and, for two
// runs, by the compare page.
import { DataTable, Td } from '@/components/ui/layout';
import { getFactor } from '@/lib/domain/factors';
import { stabilityMessages } from '@/lib/i18n/messages/stability';
import { getLocale, getT } from '@/lib/i18n/server';
import type { Overlap, Spread, Stability } from '@/lib/report/stability';

const percent = (share: number) => `${Math.round(share * 100)}%`;
const num = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

export async function StabilityFigures({ stability, runLabels }: { stability: Stability; runLabels?: string[] }) {
  const t = await getT(stabilityMessages);
  const locale = await getLocale();
  const share = (s: number | null, k: number, n: number) => (s === null ? t('none') : t('ofCount', { share: percent(s), k, n }));
  const overlap = (o: Overlap) => share(o.share, o.all.length, o.any.length);
  const spread = (s: Spread) => `${num(s.min)} · ${num(s.median)} · ${num(s.max)}`;
  const rows: [string, string, string][] = [
    ['readings', t('readingsRow'), share(stability.readings.share, stability.readings.same, stability.readings.argued)],
    ['evidence', t('evidenceRow'), overlap(stability.evidence)],
    ['topics-factor', t('topicsFactorRow'), overlap(stability.topics.byFactor)],
    ['topics-title', t('topicsTitleRow'), overlap(stability.topics.byTitle)],
    ['rei', t('reiRow'), spread(stability.rei)],
    ['depth', t('depthRow'), spread(stability.depth)],
  ];
  const labels = runLabels ?? stability.runIds.map((_, i) => t('runN', { n: i + 1 }));
  const factorLabel = (id: string) => {
    const f = getFactor(id as Parameters<typeof getFactor>[0]);
    return locale === 'ko' ? f.labelKo : f.label;
  };
  return (
    <div className="space-y-4" data-testid="stability-figures">
      <DataTable caption={t('figuresCaption')} head={[t('figure'), t('value')]}>
        {rows.map(([key, label, value]) => (
          <tr key={key} data-testid={`stability-${key}`}>
            <Td>{label}</Td>
            <Td className="whitespace-nowrap tabular-nums">
              <span data-testid="stability-value">{value}</span>
            </Td>
          </tr>
        ))}
      </DataTable>
      <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="stability-shared-evidence">
        {stability.evidence.all.length ? t('sharedEvidence', { ids: stability.evidence.all.join(', ') }) : t('noSharedEvidence')}
      </p>
      <DataTable caption={t('factorsCaption')} head={[t('factor'), ...labels, t('same')]}>
        {stability.factors.map((f) => {
          const argued = f.readings.some((r) => r !== 'none');
          return (
            <tr key={f.factor} data-testid="stability-factor" data-factor={f.factor} data-same={argued ? String(f.same) : 'unargued'}>
              <Td>{factorLabel(f.factor)}</Td>
              {f.readings.map((r, i) => (
                <Td key={i}>{t(`reading_${r}`)}</Td>
              ))}
              <Td>{argued ? f.same ? t('yes') : <strong>{t('no')}</strong> : t('notArgued')}</Td>
            </tr>
          );
        })}
      </DataTable>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">{t('howToRead')}</p>
    </div>
  );
}
