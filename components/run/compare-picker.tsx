// The compare page without a pair chosen: a plain GET form (works without JavaScript) that
// puts ?a=<runId>&b=<runId> on the URL, so a comparison can be bookmarked and shared.
import { Button } from '@/components/ui/button';
import { Alert, EmptyState } from '@/components/ui/layout';
import { PROTOCOLS_BY_ID } from '@/lib/debate/protocols';
import { getT } from '@/lib/i18n/server';
import { compareMessages } from '@/lib/i18n/messages/compare';
import type { RunStatus } from '@/lib/domain/vocabulary';

export type PickableRun = { id: string; protocol: keyof typeof PROTOCOLS_BY_ID; status: RunStatus; provider: string; model: string; createdAt: Date };

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
  // Radios, not selects: a run's description is a long line (system, status, time, id, model),
  // which a closed select cut off at its own width; a label wraps instead (issue 16).
  return (
    <section aria-labelledby="compare-pick" className="space-y-4">
      <h2 id="compare-pick" className="text-lg font-semibold">
        {t('pickHeading')}
      </h2>
      <p className="max-w-3xl text-sm text-zinc-600 dark:text-zinc-400">{t('pickIntro')}</p>
      {error ? <Alert id="compare-error">{error}</Alert> : null}
      <form method="get" action={`/cases/${caseId}/compare`} className="space-y-4" data-testid="compare-form">
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
          {(
            [
              ['a', t('runA'), a ?? previous.id],
              ['b', t('runB'), b ?? newest.id],
            ] as const
          ).map(([name, label, value]) => (
            <fieldset
              key={name}
              className="min-w-0 space-y-2 rounded-md border border-zinc-300 p-3 dark:border-zinc-700"
              aria-describedby={error ? 'compare-error' : undefined}
              data-testid={`compare-${name}`}
            >
              <legend className="px-1 text-sm font-medium">{label}</legend>
              {runs.map((r) => (
                <label key={r.id} className="flex items-start gap-2 text-sm break-keep">
                  <input type="radio" name={name} value={r.id} defaultChecked={r.id === value} className="mt-0.5 h-4 w-4 shrink-0 accent-blue-700" />
                  <span className="min-w-0 break-words">{option(r)}</span>
                </label>
              ))}
            </fieldset>
          ))}
        </div>
        <div>
          <Button type="submit" data-testid="compare-submit">
            {t('compare')}
          </Button>
        </div>
      </form>
    </section>
  );
}
