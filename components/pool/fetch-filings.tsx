'use client';

import { useTransition, useState } from 'react';
import { fetchCompanyFilings } from '@/app/(signed-in)/(workspace)/companies/[id]/actions';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/layout';
import { ActionOutcome } from '@/components/forms/action-outcome';
import type { Dictionary, Messages } from '@/lib/i18n';
import { useT } from '@/lib/i18n/client';
import { poolMessages } from '@/lib/i18n/messages/pool';

type Source = { source: 'dart' | 'edgar'; label: string; configured: boolean; setting: string };
type Result = Awaited<ReturnType<typeof fetchCompanyFilings>>;

export function FetchFilings({ companyId, sources }: { companyId: string; sources: Source[] }) {
  const [result, setResult] = useState<Result | null>(null);
  const [pending, startTransition] = useTransition();
  const t = useT(poolMessages);
  return (
    <div className="space-y-2" data-testid="fetch-filings">
      <div className="flex flex-wrap gap-2">
        {sources.map((s) => (
          <Button
            key={s.source}
            variant="secondary"
            size="sm"
            disabled={pending || !s.configured}
            title={s.configured ? undefined : t('setToEnable', { setting: s.setting })}
            onClick={() => startTransition(async () => setResult(await fetchCompanyFilings({ companyId, source: s.source })))}
          >
            {pending ? t('fetching') : t('fetchLatest', { source: s.label })}
          </Button>
        ))}
      </div>
      {sources
        .filter((s) => !s.configured)
        .map((s) => (
          <p key={s.source} className="text-xs text-zinc-600 dark:text-zinc-400">
            {t('notConfigured', { source: s.label, setting: s.setting })}
          </p>
        ))}
      {result && !result.ok ? <ActionOutcome state={result} messages={[poolMessages as Messages<Dictionary>]} success="" /> : null}
      {result?.ok ? (
        <Alert tone="success">
          {t('fetched', { fetched: result.data.fetched, added: result.data.added, already: result.data.alreadyInPool })}
          {result.data.invalid ? t('fetchedInvalid', { n: result.data.invalid }) : ''}.
          {result.data.warnings.map((w) => (
            <span key={w} className="block text-xs">
              {w}
            </span>
          ))}
        </Alert>
      ) : null}
    </div>
  );
}
