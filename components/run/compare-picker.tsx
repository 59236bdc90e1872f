// The compare page without a pair chosen: a plain GET form (works without JavaScript) that
// puts ?a=<runId>&b=<runId> on the URL, so a comparison can be bookmarked and shared.
import { Button } from '@/components/ui/button';
import { Alert, EmptyState } from '@/components/ui/layout';
import { PROTOCOLS_BY_ID } from '@/lib/debate/protocols';
import { getT } from '@/lib/i18n/server';
import { compareMessages } from '@/lib/i18n/messages/compare';
import type { RunStatus } from '@/lib/domain/vocabulary';

export type PickableRun = { id: string; protocol: keyof typeof PROTOCOLS_BY_ID; status: RunStatus; provider: string; model: string; createdAt: Date };

const CONTROL =
  'block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100';

export async function ComparePicker({ caseId, runs, a, b, error }: { caseId: string; runs: PickableRun[]; a?: string; b?: string; error?: string }) {
  const t = await getT(compareMessages);
  if (runs.length < 2) {
    return (
      <>
        {error ? <Alert>{error}</Alert> : null}
        <EmptyState title={t('noRuns')}>{t('noRunsHint')}</EmptyState>
      </>
    );
  }
  const option = (r: PickableRun) =>
    t('runOption', {
      protocol: PROTOCOLS_BY_ID[r.protocol]?.name ?? r.protocol,
      status: t(`status_${r.status}`),
      date: r.createdAt.toISOString().slice(0, 19).replace('T', ' '),
      short: r.id.slice(0, 8),
      provider: r.provider === 'offline' ? t('offline') : r.model,
    });
  // Default to the two newest runs, newest as B: the usual question is "what did the new run add?"
  const [newest, previous] = runs;
  return (
    <section aria-labelledby="compare-pick" className="max-w-3xl space-y-4">
      <h2 id="compare-pick" className="text-lg font-semibold">
        {t('pickHeading')}
      </h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('pickIntro')}</p>
      {error ? <Alert id="compare-error">{error}</Alert> : null}
      <form method="get" action={`/cases/${caseId}/compare`} className="grid gap-4 sm:grid-cols-2" data-testid="compare-form">
        {(
          [
            ['a', t('runA'), a ?? previous.id],
            ['b', t('runB'), b ?? newest.id],
          ] as const
        ).map(([name, label, value]) => (
          <div key={name} className="space-y-1">
            <label htmlFor={`compare-${name}`} className="block text-sm font-medium">
              {label}
            </label>
            <select id={`compare-${name}`} name={name} defaultValue={value} className={CONTROL} aria-describedby={error ? 'compare-error' : undefined}>
              {runs.map((r) => (
                <option key={r.id} value={r.id}>
                  {option(r)}
                </option>
              ))}
            </select>
          </div>
        ))}
        <div>
          <Button type="submit" data-testid="compare-submit">
            {t('compare')}
          </Button>
        </div>
      </form>
    </section>
  );
}
