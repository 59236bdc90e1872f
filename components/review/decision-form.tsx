'use client';
// The committee's decision on a submitted case: outcome (none chosen until the member picks one),
// rationale (always, labelled with the outcome it is for), conditions (for an approval with
// conditions), the member's confirmation that they read the report and its failed checks, and
// the AI outputs they overrode (docs/oversight.md). With a quorum above one this is the member's
// vote. The server enforces all of it. The button asks first (components/ui/confirm-dialog.tsx),
// repeating the outcome.
import { useState } from 'react';
import { recordDecision } from '@/app/(signed-in)/(committee)/review/actions';
import { useKeptForm } from '@/components/case/use-kept-form';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TextAreaField } from '@/components/ui/field';
import { Alert } from '@/components/ui/layout';
import type { DecisionOutcome } from '@/lib/domain/vocabulary';
import { useT } from '@/lib/i18n/client';
import { oversightMessages } from '@/lib/i18n/messages/oversight';
import { reviewMessages } from '@/lib/i18n/messages/review';

// The schema's DECISION_OUTCOMES, kept here so the browser bundle does not pull in the schema module.
const OUTCOMES = ['approve', 'approve_with_conditions', 'decline', 'return'] as const satisfies readonly DecisionOutcome[];

/** One finished run of the case as the form lists it (lib/report/oversight.ts), labels in the reader's language. */
export type DecisionFormRun = {
  runId: string;
  group: string;
  failedChecks: { checkId: string; text: string }[];
  targets: { ref: string; label: string }[];
};

type OverrideRow = { id: number; ref: string; reason: string };

const ERROR_TEXT = 'text-sm text-red-700 dark:text-red-400';

/** A required confirmation: a checkbox the member ticks, with its errors below it. */
function Confirmation({
  name,
  checked,
  onChange,
  errors,
  label,
  testId,
}: {
  name: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  errors: string[];
  label: string;
  testId: string;
}) {
  return (
    <>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          name={name}
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-required
          aria-invalid={errors.length ? true : undefined}
          className="mt-1"
          data-testid={testId}
        />
        <span>{label}</span>
      </label>
      {errors.length ? <p className={ERROR_TEXT}>{errors.join(' ')}</p> : null}
    </>
  );
}

export function DecisionForm({ caseId, quorum, runs }: { caseId: string; quorum: number; runs: DecisionFormRun[] }) {
  const t = useT(reviewMessages);
  const to = useT(oversightMessages);
  // Field errors are keys of either table; anything else is already text in the reader's language.
  const translate = (k: string) => (k in reviewMessages.en ? t(k as 'errRationale') : k in oversightMessages.en ? to(k as 'errConfirmReport') : k);
  // A rejected decision keeps what was written (the form re-mounts with it as defaults).
  const { values: v, failed, errors: fieldErrors, formAction, pending, key } = useKeptForm(recordDecision, translate);
  const errors = (field: string) => fieldErrors(field) ?? [];
  // Nothing chosen until the member picks: a missed click must not record an approval.
  const [outcome, setOutcome] = useState<DecisionOutcome | null>(null);
  const [readReport, setReadReport] = useState(false);
  const [readChecks, setReadChecks] = useState(false);
  const [rows, setRows] = useState<OverrideRow[]>([]);
  const checks = runs.flatMap((r) => r.failedChecks.map((c) => ({ ...c, key: `${r.runId}:${c.checkId}`, group: r.group })));
  const targets = runs.filter((r) => r.targets.length);
  const outcomeText = outcome ? t(`outcome_${outcome}`) : null;
  const vote = quorum > 1;
  const setRow = (id: number, patch: Partial<OverrideRow>) => setRows((list) => list.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  return (
    <form key={key} action={formAction} className="space-y-4" data-testid="decision-form">
      <input type="hidden" name="case_id" value={caseId} />
      <fieldset aria-describedby={errors('outcome').length ? 'decision-outcome-error' : undefined}>
        <legend className="text-sm font-medium">{t('outcomeLabel')}</legend>
        <div className="mt-1 grid gap-1">
          {OUTCOMES.map((o) => (
            <label key={o} className="flex items-center gap-2 text-sm">
              <input type="radio" name="outcome" value={o} checked={outcome === o} onChange={() => setOutcome(o)} data-testid={`outcome-${o}`} />
              {t(`outcome_${o}`)}
            </label>
          ))}
        </div>
        {errors('outcome').length ? (
          <p id="decision-outcome-error" className={ERROR_TEXT} data-testid="outcome-error">
            {errors('outcome').join(' ')}
          </p>
        ) : null}
      </fieldset>
      <TextAreaField
        id="decision-rationale"
        name="rationale"
        label={outcomeText ? to('rationaleFor', { outcome: outcomeText }) : to('rationaleNone')}
        hint={t('rationaleHint')}
        errors={errors('rationale')}
        rows={4}
        maxLength={8000}
        defaultValue={v.rationale}
        aria-required
      />
      <TextAreaField
        id="decision-conditions"
        name="conditions"
        label={t('conditionsLabel')}
        hint={t('conditionsHint')}
        errors={errors('conditions')}
        rows={3}
        maxLength={8000}
        defaultValue={v.conditions}
        aria-required={outcome === 'approve_with_conditions'}
      />
      <fieldset className="space-y-2" data-testid="decision-confirmations">
        <legend className="text-sm font-medium">{to('confirmHeading')}</legend>
        <Confirmation
          name="confirm_report"
          checked={readReport}
          onChange={setReadReport}
          errors={errors('confirm_report')}
          label={to('confirmReport')}
          testId="confirm-read-report"
        />
        {checks.length ? (
          <>
            <p className="text-sm">{to('failedChecksLead')}</p>
            <ul className="list-disc space-y-1 pl-5 text-sm" data-testid="decision-failed-checks">
              {checks.map((c) => (
                <li key={c.key}>
                  {c.text} <span className="text-xs text-zinc-600 dark:text-zinc-400">({c.group})</span>
                </li>
              ))}
            </ul>
            <Confirmation
              name="confirm_checks"
              checked={readChecks}
              onChange={setReadChecks}
              errors={errors('confirm_checks')}
              label={to('confirmChecks')}
              testId="confirm-read-checks"
            />
          </>
        ) : (
          <p className="text-xs text-zinc-600 dark:text-zinc-400">{to('noFailedChecks')}</p>
        )}
      </fieldset>
      <fieldset className="space-y-2" data-testid="decision-overrides">
        <legend className="text-sm font-medium">{to('overridesHeading')}</legend>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">{targets.length ? to('overridesHint') : to('noTargets')}</p>
        {rows.map((row, i) => (
          <div key={row.id} className="space-y-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800" data-testid="override-row">
            <div className="space-y-1">
              <label htmlFor={`override-ref-${row.id}`} className="block text-sm font-medium">
                {to('overrideTarget')} {i + 1}
              </label>
              <select
                id={`override-ref-${row.id}`}
                name="override_ref"
                value={row.ref}
                onChange={(e) => setRow(row.id, { ref: e.target.value })}
                className="block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
              >
                <option value="">{to('chooseTarget')}</option>
                {targets.map((r) => (
                  <optgroup key={r.runId} label={r.group}>
                    {r.targets.map((x) => (
                      <option key={x.ref} value={x.ref}>
                        {x.label}
                      </option>
                    ))}
                  </optgroup>
                ))}
              </select>
            </div>
            <TextAreaField
              id={`override-reason-${row.id}`}
              name="override_reason"
              label={to('overrideReason')}
              rows={2}
              maxLength={2000}
              value={row.reason}
              onChange={(e) => setRow(row.id, { reason: e.target.value })}
            />
            <Button variant="ghost" size="sm" onClick={() => setRows((list) => list.filter((r) => r.id !== row.id))}>
              {to('removeOverride')}
            </Button>
          </div>
        ))}
        {errors('overrides').length ? <p className={ERROR_TEXT}>{errors('overrides').join(' ')}</p> : null}
        {targets.length ? (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => setRows((list) => [...list, { id: (list.at(-1)?.id ?? 0) + 1, ref: '', reason: '' }])}
            disabled={rows.length >= 20}
            data-testid="add-override"
          >
            {to('addOverride')}
          </Button>
        ) : null}
      </fieldset>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">{vote ? to('quorumMany', { n: quorum }) : t('decisionOnceNote')}</p>
      {failed && failed.code !== 'bad_request' ? <Alert>{failed.message}</Alert> : null}
      <ConfirmDialog
        triggerLabel={vote ? to('recordVote') : t('recordDecision')}
        pendingLabel={t('recording')}
        pending={pending}
        triggerTestId="record-decision"
        title={vote ? to('confirmVoteTitle') : t('confirmDecisionTitle')}
        irreversible={vote ? to('confirmVoteText', { n: quorum }) : t('confirmDecisionText')}
        summary={
          <p className="font-medium" data-testid="confirm-decision-outcome">
            {t('confirmDecisionOutcome', { outcome: outcomeText ?? '—' })}
          </p>
        }
        confirmLabel={vote ? to('confirmVote') : t('confirmDecision')}
        cancelLabel={t('cancel')}
        confirmVariant={outcome === 'decline' ? 'danger' : 'primary'}
        confirmTestId="record-decision-confirm"
      />
    </form>
  );
}
