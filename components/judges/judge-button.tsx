'use client';

import { runPairwiseJudge } from '@/app/(signed-in)/(workspace)/cases/[id]/compare/actions';
import { runRubricJudge } from '@/app/(signed-in)/(workspace)/runs/[id]/report/actions';
import { ActionOutcome } from '@/components/forms/action-outcome';
import { useActionForm } from '@/components/forms/use-action-form';
import { Button } from '@/components/ui/button';
import type { JudgmentKind } from '@/lib/domain/vocabulary';
import { useT } from '@/lib/i18n/client';
import { judgesMessages } from '@/lib/i18n/messages/judges';

type Props = {
  kind: JudgmentKind;
  /** Hidden form fields: case_id, a, b for the pairwise judge; run_id for the rubric judge. */
  fields: Record<string, string>;
  /** Why the judge cannot run here (no model configured); the button is disabled and says so. */
  unavailable?: string;
  /** The judge's model, shown next to the button. */
  model?: string;
};

const ACTIONS = { pairwise: runPairwiseJudge, rubric: runRubricJudge };

/**
 * Runs a judge and waits for it (a few model calls). The stored result appears in the list the
 * server renders: the action revalidates the page, so this only shows pending, done or the error.
 */
export function JudgeButton({ kind, fields, unavailable, model }: Props) {
  const t = useT(judgesMessages);
  const [state, formAction, pending] = useActionForm(ACTIONS[kind]);
  const noteId = `judge-${kind}-note`;
  return (
    <form action={formAction} className="space-y-3" data-testid={`judge-${kind}-form`}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={pending || Boolean(unavailable)} aria-describedby={noteId} data-testid={`judge-${kind}`}>
          {pending ? t('running') : t(kind === 'pairwise' ? 'runPairwise' : 'runRubric')}
        </Button>
        <p id={noteId} className="text-sm text-zinc-700 dark:text-zinc-300" data-testid={`judge-${kind}-note`}>
          {unavailable ? t('unavailable') : model ? t('judgeModel', { model }) : null}
        </p>
      </div>
      {pending ? null : <ActionOutcome state={state} success={t(kind === 'pairwise' ? 'pairwiseDone' : 'rubricDone')} messages={[judgesMessages]} />}
    </form>
  );
}
