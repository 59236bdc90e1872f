'use client';
// "Run N times" (docs/stability.md): one system, 2–5 runs on the configured model, started as one
// stability set. A refused start keeps what was chosen (useKeptForm).
import { startStabilitySet } from '@/app/(signed-in)/(workspace)/cases/[id]/stability/actions';
import { useKeptForm } from '@/components/case/use-kept-form';
import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/field';
import { Alert } from '@/components/ui/layout';
import type { Language } from '@/lib/domain/protocol';
import { MAX_STABILITY_RUNS, MIN_STABILITY_RUNS } from '@/lib/report/stability';
import { useT } from '@/lib/i18n/client';
import { runMessages } from '@/lib/i18n/messages/run';
import { stabilityMessages } from '@/lib/i18n/messages/stability';
import { useState } from 'react';

const COUNTS = Array.from({ length: MAX_STABILITY_RUNS - MIN_STABILITY_RUNS + 1 }, (_, i) => String(MIN_STABILITY_RUNS + i));

export function StabilityLauncher({
  caseId,
  model,
  protocols,
  language,
}: {
  caseId: string;
  model: string;
  protocols: { id: string; name: string }[];
  language: Language;
}) {
  const t = useT(stabilityMessages);
  const tr = useT(runMessages);
  const {
    values: v,
    failed,
    errors,
    formAction,
    pending,
    key,
  } = useKeptForm(startStabilitySet, (k) => (k === 'errProtocol' ? tr('errProtocol') : t(k as keyof typeof stabilityMessages.en)));
  const [runs, setRuns] = useState(v.runs ?? '2');
  return (
    <form action={formAction} className="space-y-3" data-testid="stability-launcher" noValidate key={key}>
      <input type="hidden" name="case_id" value={caseId} />
      {failed ? <Alert>{failed.message}</Alert> : null}
      <SelectField
        id="stability-protocol"
        name="protocol"
        label={t('system')}
        defaultValue={v.protocol ?? 'kpd-mads'}
        errors={errors('protocol')}
        options={protocols.map((p) => ({ value: p.id, label: p.name }))}
      />
      <SelectField
        id="stability-language"
        name="language"
        label={t('language')}
        defaultValue={v.language ?? language}
        options={[
          { value: 'ko', label: tr('languageKo') },
          { value: 'en', label: tr('languageEn') },
        ]}
      />
      <SelectField
        id="stability-runs"
        name="runs"
        label={t('runs')}
        hint={t('runsHint', { model })}
        value={runs}
        onChange={(e) => setRuns(e.target.value)}
        errors={errors('runs')}
        options={COUNTS.map((n) => ({ value: n, label: n }))}
      />
      <Button type="submit" disabled={pending} data-testid="start-stability">
        {pending ? t('starting') : t('start', { n: runs })}
      </Button>
    </form>
  );
}
