'use client';

import Link from 'next/link';
import { useState } from 'react';
import { startRun } from '@/app/(signed-in)/(workspace)/cases/[id]/actions';
import { estimateValues, formatCount, formatUsd } from '@/components/run/live-format';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { Alert } from '@/components/ui/layout';
import { outlookNotice, type LauncherOutlook } from '@/components/case/run-outlook';
import { useKeptForm } from '@/components/case/use-kept-form';
import type { Language } from '@/lib/domain/protocol';
import { useLocale, useT } from '@/lib/i18n/client';
import { runMessages } from '@/lib/i18n/messages/run';
import { runOutlookMessages } from '@/lib/i18n/messages/run-outlook';

export type RunEstimate = {
  /** Recent succeeded runs the medians come from; 0 → no history. */
  n: number;
  medianMs: number | null;
  /** Null when the model has no list price (or no history to size the tokens). */
  costUsd: number | null;
  priceKnown: boolean;
};

export type LauncherOptions = {
  protocols: { id: string; name: string }[];
  /** The OpenAI-compatible model when one is configured; the offline analyst is always there. */
  openaiModel: string | null;
  webSearch: boolean;
  estimates: Record<string, RunEstimate>;
  /** What a run of the case will give at its as-of date: a debate, a red-flag screening or insufficient evidence. */
  outlook: LauncherOutlook;
  /** maxTokens, maxCostUsd: the server's budgets (RUN_MAX_TOKENS, RUN_MAX_COST_USD) when the fields stay empty. */
  defaults: { language: Language; recencyDays: number; maxWebResults: number; maxTokens: number | null; maxCostUsd: number | null };
};

export function RunLauncher({ caseId, options }: { caseId: string; options: LauncherOptions }) {
  const t = useT(runMessages);
  const to = useT(runOutlookMessages);
  const locale = useLocale();
  const notice = outlookNotice(options.outlook, to);
  const { values: v, failed, errors, formAction, pending, key } = useKeptForm(startRun, (k) => t(k as keyof typeof runMessages.en));
  const [protocol, setProtocol] = useState(v.protocol ?? 'kpd-mads');
  const [provider, setProvider] = useState(v.provider ?? 'offline');
  const estimate = options.estimates[`${protocol}:${provider}`];
  const model = provider === 'openai' ? (options.openaiModel ?? '') : '';
  const radio = 'h-4 w-4 accent-blue-700';
  const budgetHint = (fallback: number | string | null) =>
    `${t('budgetHint')} ${fallback === null ? t('budgetNone') : t('budgetDefault', { value: typeof fallback === 'number' ? formatCount(fallback) : fallback })}`;

  return (
    <form action={formAction} className="space-y-4" data-testid="run-launcher" noValidate key={key}>
      <input type="hidden" name="case_id" value={caseId} />
      {failed ? <Alert>{failed.message}</Alert> : null}
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">{t('protocol')}</legend>
        {options.protocols.map((p) => (
          <label key={p.id} className="flex items-start gap-2 text-sm">
            <input type="radio" name="protocol" value={p.id} checked={protocol === p.id} onChange={() => setProtocol(p.id)} className={`${radio} mt-0.5`} />
            <span>{t(`protocol_${p.id}` as keyof typeof runMessages.en)}</span>
          </label>
        ))}
        {errors('protocol') ? <p className="text-sm text-red-700 dark:text-red-400">{errors('protocol')!.join(' ')}</p> : null}
      </fieldset>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">{t('provider')}</legend>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="radio"
            name="provider"
            value="offline"
            checked={provider === 'offline'}
            onChange={() => setProvider('offline')}
            className={`${radio} mt-0.5`}
          />
          <span>{t('providerOffline')}</span>
        </label>
        {options.openaiModel ? (
          <label className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name="provider"
              value="openai"
              checked={provider === 'openai'}
              onChange={() => setProvider('openai')}
              className={`${radio} mt-0.5`}
            />
            <span>{t('providerOpenai', { model: options.openaiModel })}</span>
          </label>
        ) : (
          <p className="text-xs text-zinc-600 dark:text-zinc-400">{t('providerOpenaiMissing')}</p>
        )}
        {errors('provider') ? <p className="text-sm text-red-700 dark:text-red-400">{errors('provider')!.join(' ')}</p> : null}
      </fieldset>
      {/* Radios, not a select: each mode's explanation is a sentence, which a select half the
          launcher wide cut off ("Concurrent: indeper…"); a label wraps instead (issue 16). */}
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">{t('mode')}</legend>
        {(
          [
            ['dag', t('modeDag')],
            ['sequential', t('modeSequential')],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="flex items-start gap-2 text-sm">
            <input type="radio" name="mode" value={value} defaultChecked={(v.mode ?? 'dag') === value} className={`${radio} mt-0.5`} />
            <span>{label}</span>
          </label>
        ))}
      </fieldset>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <SelectField
          id="language"
          label={t('language')}
          defaultValue={v.language ?? options.defaults.language}
          options={[
            { value: 'ko', label: t('languageKo') },
            { value: 'en', label: t('languageEn') },
          ]}
        />
        <TextField
          id="recency_days"
          label={t('recencyDays')}
          type="number"
          min={1}
          max={3650}
          defaultValue={v.recency_days ?? String(options.defaults.recencyDays)}
          hint={t('recencyHint')}
          errors={errors('recency_days')}
        />
        <TextField
          id="max_web_results"
          label={t('maxWebResults')}
          type="number"
          min={0}
          max={20}
          defaultValue={v.max_web_results ?? String(options.defaults.maxWebResults)}
          hint={options.webSearch ? undefined : t('webSearchOff')}
          errors={errors('max_web_results')}
        />
        <TextField
          id="max_tokens"
          label={t('maxTokens')}
          type="number"
          min={1000}
          step={1000}
          defaultValue={v.max_tokens ?? ''}
          hint={budgetHint(options.defaults.maxTokens)}
          errors={errors('max_tokens')}
        />
        <TextField
          id="max_cost_usd"
          label={t('maxCostUsd')}
          type="number"
          min={0.01}
          step={0.01}
          defaultValue={v.max_cost_usd ?? ''}
          hint={budgetHint(options.defaults.maxCostUsd === null ? null : formatUsd(options.defaults.maxCostUsd))}
          errors={errors('max_cost_usd')}
        />
      </div>
      {notice ? (
        // In the place of the estimate: such a run calls no model, so there is no time or cost
        // to estimate, and what it will give is what the RM needs before Start (issue 26).
        <div data-testid="run-outlook" data-outlook={notice.kind}>
          <Alert tone="info">
            <p className="font-semibold">{notice.title}</p>
            <p className="mt-1" data-testid="run-outlook-text">
              {notice.text}
            </p>
            <p className="mt-1">
              {notice.next}{' '}
              <Link className="underline underline-offset-2" href="/import" data-testid="run-outlook-import">
                {to('importLink')}
              </Link>
              {' · '}
              <Link className="underline underline-offset-2" href={`/companies/${options.outlook.companyId}`} data-testid="run-outlook-connectors">
                {to('connectorsLink')}
              </Link>
            </p>
          </Alert>
        </div>
      ) : (
        <div className="rounded-md bg-zinc-100 px-3 py-2 text-sm dark:bg-zinc-800" data-testid="run-estimate" aria-live="polite">
          <span className="font-medium">{t('estimate')}: </span>
          {!estimate || estimate.n === 0 ? (
            <span>{t('estimateNoHistory')}</span>
          ) : (
            <span>{t('estimateTime', estimateValues(estimate.medianMs ?? 0, estimate.n, locale))}</span>
          )}{' '}
          {provider === 'offline' ? (
            <span>{t('estimateFree')}</span>
          ) : estimate && !estimate.priceKnown ? (
            <span>{t('estimatePriceUnknown', { model })}</span>
          ) : estimate?.costUsd != null ? (
            <span>{t('estimateCost', { cost: formatUsd(estimate.costUsd) })}</span>
          ) : null}
        </div>
      )}
      <Button type="submit" disabled={pending} data-testid="start-run">
        {pending ? t('starting') : t('start')}
      </Button>
    </form>
  );
}
