'use client';

// The company page's watch panel: an RM watches the borrower (frequency, the case a re-screen
// copies, the adverse-item threshold, automatic re-screen), changes or ends the watch; an
// administrator checks every watch on the borrower at once.
import { checkWatchNow, unwatchCompany, watchCompany } from '@/app/(signed-in)/(workspace)/companies/[id]/actions';
import { formatDateTime } from '@/components/lists/format';
import { ActionOutcome, useServerText } from '@/components/forms/action-outcome';
import { fieldErrors, useActionForm } from '@/components/forms/use-action-form';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/layout';
import { SelectField, TextField } from '@/components/ui/field';
import type { WatchCaseOption, WatchEntryView, WatchReach } from '@/lib/domain/watch';
import { WATCH_FREQUENCIES } from '@/lib/domain/vocabulary';
import type { Dictionary, Messages } from '@/lib/i18n';
import { useLocale, useT } from '@/lib/i18n/client';
import { watchMessages } from '@/lib/i18n/messages/watch';

const tables = [watchMessages as Messages<Dictionary>];

export function WatchPanel({
  companyId,
  entry,
  cases,
  canWatch,
  canCheck,
  reach,
}: {
  companyId: string;
  entry: WatchEntryView | null;
  cases: WatchCaseOption[];
  canWatch: boolean;
  canCheck: boolean;
  /** What the watch can read for this borrower on this server (watchReach). */
  reach: WatchReach[];
}) {
  const t = useT(watchMessages);
  const locale = useLocale();
  const text = useServerText(...tables);
  const [saved, save, saving] = useActionForm(watchCompany);
  const [removed, remove, removing] = useActionForm(unwatchCompany);
  const [checked, check, checking] = useActionForm(checkWatchNow);
  const when = (iso: string) => formatDateTime(new Date(iso), locale);
  const reads = reach.some((r) => r.status === 'reads');

  return (
    <div className="space-y-3 text-sm" data-testid="watch-panel">
      <p className="text-zinc-700 dark:text-zinc-300">{t('intro')}</p>
      {/* Said before the first check: which filings the watch will read and which it cannot. */}
      <div data-testid="watch-reach" data-reads={reads ? 'some' : 'none'}>
        {reads ? null : (
          <p className="mb-1 font-medium text-amber-800 dark:text-amber-300" data-testid="watch-reach-none">
            {t('reachNone')}
          </p>
        )}
        <ul className="space-y-0.5 text-xs text-zinc-600 dark:text-zinc-400">
          {reach.map((r) => (
            <li key={r.source} data-testid="watch-reach-source" data-source={r.source} data-status={r.status}>
              {t(r.status === 'notConfigured' ? `reach_notConfigured_${r.source}` : `reach_${r.status}`, {
                source: t(`source_${r.source}`),
                id: r.source === 'dart' ? 'corp_code' : 'CIK',
              })}
            </li>
          ))}
        </ul>
      </div>
      {canWatch ? (
        <>
          <p data-testid="watch-status">
            {entry ? t(reads ? 'watching' : 'watchingNothing', { frequency: t(`frequency_${entry.frequency}`) }) : t('notWatching')}
          </p>
          {entry ? (
            <ul className="space-y-0.5 text-xs text-zinc-600 dark:text-zinc-400">
              <li>{entry.lastCheckedAt ? t('lastCheck', { when: when(entry.lastCheckedAt) }) : t('neverChecked')}</li>
              <li>{t('nextCheck', { when: when(entry.nextCheckAt) })}</li>
              {entry.lastProblems.length ? (
                entry.lastProblems.map((p, i) => (
                  <li key={i} className="text-red-700 dark:text-red-400" data-testid="watch-problem">
                    {t('lastProblem', { problem: t(`problem_${p.kind}`, { source: p.source ? t(`source_${p.source}`) : '' }) })}
                  </li>
                ))
              ) : entry.lastError ? (
                // A check from before problems had kinds: the source's own words.
                <li className="text-red-700 dark:text-red-400">{t('lastError', { error: entry.lastError })}</li>
              ) : null}
              {entry.lastProblems.length && entry.lastError ? (
                <li>
                  <details>
                    <summary className="cursor-pointer">{t('lastProblemDetail')}</summary>
                    <p className="mt-1 break-words">{entry.lastError}</p>
                  </details>
                </li>
              ) : null}
            </ul>
          ) : null}
          <form action={save} className="space-y-3" data-testid="watch-form">
            <input type="hidden" name="company_id" value={companyId} />
            <SelectField
              id="frequency"
              label={t('frequency')}
              defaultValue={entry?.frequency ?? 'daily'}
              options={WATCH_FREQUENCIES.map((f) => ({ value: f, label: t(`frequency_${f}`) }))}
              errors={fieldErrors(saved, 'frequency', text)}
            />
            <SelectField
              id="case_id"
              label={t('case')}
              defaultValue={entry?.caseId ?? cases[0]?.id ?? ''}
              options={[{ value: '', label: t('noCase') }, ...cases.map((c) => ({ value: c.id, label: `${c.title} (${c.asOfDate})` }))]}
              errors={fieldErrors(saved, 'case_id', text)}
            />
            <TextField
              id="adverse_threshold"
              label={t('threshold')}
              type="number"
              min={1}
              max={100}
              defaultValue={entry?.adverseThreshold ?? 3}
              errors={fieldErrors(saved, 'adverse_threshold', text)}
            />
            <label className="flex items-start gap-2">
              <input type="checkbox" name="auto_rescreen" defaultChecked={entry?.autoRescreen ?? false} className="mt-0.5" data-testid="watch-auto-rescreen" />
              <span>{t('autoRescreen')}</span>
            </label>
            <Button type="submit" size="sm" disabled={saving} data-testid="watch-submit">
              {entry ? t('save') : t('watch')}
            </Button>
            {saved && !saved.ok && !saved.fieldErrors ? <ActionOutcome state={saved} messages={tables} success="" /> : null}
            {saved?.ok ? <Alert tone="success">{t('saved')}</Alert> : null}
          </form>
          {entry ? (
            <form action={remove}>
              <input type="hidden" name="id" value={entry.id} />
              <Button type="submit" variant="secondary" size="sm" disabled={removing} data-testid="watch-remove">
                {t('unwatch')}
              </Button>
              {removed ? <ActionOutcome state={removed} messages={tables} success={t('unwatched')} /> : null}
            </form>
          ) : null}
        </>
      ) : null}
      {canCheck ? (
        <form action={check} className="space-y-2">
          <input type="hidden" name="company_id" value={companyId} />
          <p className="text-xs text-zinc-600 dark:text-zinc-400">{t('checkNowHint')}</p>
          <Button type="submit" variant="secondary" size="sm" disabled={checking} data-testid="watch-check-now">
            {t('checkNow')}
          </Button>
          {checked ? (
            <ActionOutcome
              state={checked}
              messages={tables}
              success={checked.ok ? t('checked', { checks: checked.data.checks, alerts: checked.data.alerts }) : ''}
            />
          ) : null}
        </form>
      ) : null}
    </div>
  );
}
