'use client';

import { useTransition, useState } from 'react';
import { fetchCompanyFilings } from '@/app/(signed-in)/(workspace)/companies/[id]/actions';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/layout';

type Source = { source: 'dart' | 'edgar'; label: string; configured: boolean; setting: string };
type Result = Awaited<ReturnType<typeof fetchCompanyFilings>>;

export function FetchFilings({ companyId, sources }: { companyId: string; sources: Source[] }) {
  const [result, setResult] = useState<Result | null>(null);
  const [pending, startTransition] = useTransition();
  return (
    <div className="space-y-2" data-testid="fetch-filings">
      <div className="flex flex-wrap gap-2">
        {sources.map((s) => (
          <Button
            key={s.source}
            variant="secondary"
            size="sm"
            disabled={pending || !s.configured}
            title={s.configured ? undefined : `Set ${s.setting} to enable`}
            onClick={() => startTransition(async () => setResult(await fetchCompanyFilings({ companyId, source: s.source })))}
          >
            {pending ? 'Fetching…' : `Fetch latest from ${s.label}`}
          </Button>
        ))}
      </div>
      {sources
        .filter((s) => !s.configured)
        .map((s) => (
          <p key={s.source} className="text-xs text-zinc-600 dark:text-zinc-400">
            {s.label} is not configured on this server ({s.setting}).
          </p>
        ))}
      {result && !result.ok ? <Alert>{result.message}</Alert> : null}
      {result?.ok ? (
        <Alert tone="success">
          Read {result.data.fetched} records: {result.data.added} new, {result.data.alreadyInPool} already in the pool
          {result.data.invalid ? `, ${result.data.invalid} left out as invalid` : ''}.
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
