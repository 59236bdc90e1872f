'use client';

import { useMemo, useState, useTransition, type FormEvent } from 'react';
import { createStudy } from '@/app/(signed-in)/(admin)/admin/studies/actions';
import { useActionForm } from '@/components/forms/use-action-form';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Alert } from '@/components/ui/layout';
import { hasPickProblems, pickProblems } from '@/lib/eval/study-pairing';
import { useT } from '@/lib/i18n/client';
import { studiesMessages } from '@/lib/i18n/messages/studies';

/** `companyId`, `protocol` and `language` (the run's output language code) pair the picks; the rest is for reading. */
export type RatableRun = {
  runId: string;
  reportId: string;
  companyId: string;
  protocol: string;
  company: string;
  system: string;
  provider: string;
  language: string;
  caseTitle: string;
  finished: string;
};
export type EvaluatorOption = { id: string; name: string; email: string };

type Key = keyof typeof studiesMessages.en;

/** Controlled fields, so a rejected form keeps every tick and the name. */
export function NewStudyForm({ runs, evaluators }: { runs: RatableRun[]; evaluators: EvaluatorOption[] }) {
  const t = useT(studiesMessages);
  const [state, formAction, pending] = useActionForm(createStudy);
  const [name, setName] = useState('');
  const [seed, setSeed] = useState('');
  const [reports, setReports] = useState<Set<string>>(new Set());
  const [people, setPeople] = useState<Set<string>>(new Set());
  const [createAnyway, setCreateAnyway] = useState(false);
  const [, startTransition] = useTransition();
  // The action is dispatched here rather than by the form: a form action makes React reset the
  // form when it settles, which unticked the boxes on the page while this state still held them
  // (so "Create anyway" after a refusal sent no reports at all). Without JavaScript the form
  // still posts to the action.
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    startTransition(() => formAction(data));
  };
  // The same check the server makes on submit (lib/eval/study-pairing.ts), shown as the admin ticks.
  const problems = useMemo(
    () =>
      pickProblems(
        runs.filter((r) => reports.has(r.reportId)).map((r) => ({ reportId: r.reportId, companyId: r.companyId, protocol: r.protocol, language: r.language })),
      ),
    [runs, reports],
  );
  const warn = hasPickProblems(problems);
  const runOf = new Map(runs.map((r) => [r.reportId, r]));
  const companyName = (companyId: string) => runs.find((r) => r.companyId === companyId)?.company ?? companyId;
  const failed = state && !state.ok ? state : null;
  const errors = (field: string) => failed?.fieldErrors?.[field]?.map((k) => (k in studiesMessages.en ? t(k as Key) : k));
  const toggle = (set: Set<string>, id: string) => {
    const next = new Set(set);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  };
  const box = 'h-4 w-4 accent-blue-700';
  const errorText = 'text-sm text-red-700 dark:text-red-400';

  return (
    <form action={formAction} onSubmit={submit} className="space-y-6" data-testid="new-study-form" noValidate>
      {failed ? <Alert>{failed.message}</Alert> : null}
      <TextField id="name" label={t('name')} value={name} onChange={(e) => setName(e.target.value)} required errors={errors('name')} autoComplete="off" />

      <fieldset className="space-y-2" aria-describedby="reports-hint">
        <legend className="text-sm font-medium">{t('reportsLegend')}</legend>
        <p id="reports-hint" className="text-xs text-zinc-600 dark:text-zinc-400">
          {t('reportsHint')}
        </p>
        {errors('reportIds') ? <p className={errorText}>{errors('reportIds')!.join(' ')}</p> : null}
        {runs.length === 0 ? (
          <p className="text-sm">{t('noRuns')}</p>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
            <table className="min-w-full divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
              <caption className="sr-only">{t('reportsCaption')}</caption>
              <thead className="bg-zinc-100 text-left dark:bg-zinc-900">
                <tr>
                  {(['colPick', 'colCompany', 'colSystem', 'colProvider', 'colLanguage', 'colCase', 'colFinished', 'colRun'] as const).map((k) => (
                    <th key={k} scope="col" className="px-3 py-2 font-semibold">
                      {t(k)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-200 bg-white dark:divide-zinc-800 dark:bg-zinc-950">
                {runs.map((r) => (
                  <tr key={r.reportId} data-testid="ratable-run" data-run-id={r.runId}>
                    <td className="px-3 py-2">
                      <input
                        type="checkbox"
                        name="reportIds"
                        value={r.reportId}
                        checked={reports.has(r.reportId)}
                        onChange={() => setReports((s) => toggle(s, r.reportId))}
                        className={box}
                        aria-label={`${r.company} · ${r.system} · ${r.finished}`}
                      />
                    </td>
                    <td className="px-3 py-2">{r.company}</td>
                    <td className="px-3 py-2">{r.system}</td>
                    <td className="px-3 py-2">{r.provider}</td>
                    <td className="px-3 py-2">{r.language}</td>
                    <td className="px-3 py-2">{r.caseTitle}</td>
                    <td className="px-3 py-2 tabular-nums">{r.finished}</td>
                    <td className="px-3 py-2 font-mono text-xs">{r.runId.slice(0, 8)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </fieldset>

      <div aria-live="polite" data-testid="pick-warnings">
        {warn ? (
          <div className="space-y-3 rounded-md border border-amber-400 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
            <p className="font-semibold">{t('pickWarningsHeading')}</p>
            {problems.unpaired.length ? (
              <div>
                <p>{t('errUnpaired')}</p>
                <ul className="mt-1 list-disc space-y-0.5 pl-6" data-testid="unpaired-reports">
                  {problems.unpaired.map((id) => {
                    const r = runOf.get(id)!;
                    return <li key={id}>{t('warnUnpaired', { report: `${r.company} · ${r.system} · ${r.finished}` })}</li>;
                  })}
                </ul>
              </div>
            ) : null}
            {problems.mixedLanguages.length ? (
              <div>
                <p>{t('errMixedLanguages')}</p>
                <ul className="mt-1 list-disc space-y-0.5 pl-6" data-testid="mixed-languages">
                  {problems.mixedLanguages.map((c) => (
                    <li key={c.companyId}>{t('warnMixed', { company: companyName(c.companyId), languages: c.languages.join(', ') })}</li>
                  ))}
                </ul>
              </div>
            ) : null}
            <label className="flex items-start gap-2 font-medium">
              <input
                type="checkbox"
                name="createAnyway"
                checked={createAnyway}
                onChange={(e) => setCreateAnyway(e.target.checked)}
                className={`${box} mt-0.5`}
                aria-describedby={errors('createAnyway') ? 'create-anyway-error' : undefined}
                data-testid="create-anyway"
              />
              <span>{t('createAnyway')}</span>
            </label>
            {errors('createAnyway') ? (
              <p id="create-anyway-error" className={errorText}>
                {errors('createAnyway')!.join(' ')}
              </p>
            ) : null}
          </div>
        ) : null}
      </div>

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">{t('evaluatorsLegend')}</legend>
        {errors('evaluatorIds') ? <p className={errorText}>{errors('evaluatorIds')!.join(' ')}</p> : null}
        {evaluators.length === 0 ? <p className="text-sm">{t('noEvaluators')}</p> : null}
        {evaluators.map((e) => (
          <label key={e.id} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              name="evaluatorIds"
              value={e.id}
              checked={people.has(e.id)}
              onChange={() => setPeople((s) => toggle(s, e.id))}
              className={box}
            />
            <span>
              {e.name} <span className="text-zinc-600 dark:text-zinc-400">({e.email})</span>
            </span>
          </label>
        ))}
      </fieldset>

      <div className="max-w-xs">
        <TextField
          id="seed"
          label={t('seed')}
          inputMode="numeric"
          value={seed}
          onChange={(e) => setSeed(e.target.value)}
          hint={t('seedHint')}
          errors={errors('seed')}
        />
      </div>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">{t('instrument')}</p>
      <Button type="submit" disabled={pending} data-testid="create-study">
        {pending ? t('creating') : t('create')}
      </Button>
    </form>
  );
}
