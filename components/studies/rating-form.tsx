'use client';
// The instrument for one blinded report. Every change is saved (debounced) through a server
// action; submitting checks that all items are answered and locks the rating for good. Its
// props are only the opaque assignment ids (this one and the next to rate) and the answers:
// nothing about the run. A complete rating is submitted only after a confirmation
// (components/ui/confirm-dialog.tsx); once it is locked, "Next report" leads on.
import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { saveRating, submitRating } from '@/app/(signed-in)/(studies)/ratings/[assignmentId]/actions';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Alert } from '@/components/ui/layout';
import { ALL_ITEMS, LIKERT_ITEMS, SUS_ITEMS, type Answers, type StudyItem } from '@/lib/domain/study';
import { useT } from '@/lib/i18n/client';
import { ratingMessages } from '@/lib/i18n/messages/studies-rating';

type SaveState = { state: 'idle' | 'saving' | 'saved' | 'error'; message?: string };
const SAVE_DELAY_MS = 500;
const SCALE = [1, 2, 3, 4, 5] as const;

export function RatingForm({
  assignmentId,
  initial,
  locked: lockedAtLoad,
  nextAssignmentId: nextAtLoad,
}: {
  assignmentId: string;
  initial: Answers;
  locked: 'submitted' | 'closed' | null;
  /** The evaluator's next unrated report, or null when none is left. */
  nextAssignmentId: string | null;
}) {
  const t = useT(ratingMessages);
  const [answers, setAnswers] = useState<Answers>(initial);
  const [locked, setLocked] = useState(lockedAtLoad);
  const [save, setSave] = useState<SaveState>({ state: 'idle' });
  const [submitError, setSubmitError] = useState<{ message: string; missing: string[] } | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [next, setNext] = useState(nextAtLoad);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(answers);
  // Saves run one after another, so an older save can never overwrite a newer one.
  const chain = useRef<Promise<unknown>>(Promise.resolve());

  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  function persist() {
    const snapshot = latest.current;
    setSave({ state: 'saving' });
    chain.current = chain.current.then(async () => {
      const result = await saveRating({ assignmentId, answers: snapshot });
      if (latest.current !== snapshot) return;
      setSave(result.ok ? { state: 'saved' } : { state: 'error', message: result.message });
    });
    return chain.current;
  }

  function choose(item: StudyItem, value: number) {
    if (locked) return;
    const next = { ...latest.current, [item]: value };
    latest.current = next;
    setAnswers(next);
    setSubmitError(null);
    if (timer.current) clearTimeout(timer.current);
    setSave({ state: 'saving' });
    timer.current = setTimeout(() => void persist(), SAVE_DELAY_MS);
  }

  async function submit() {
    if (timer.current) clearTimeout(timer.current);
    setSubmitting(true);
    await chain.current;
    const result = await submitRating({ assignmentId, answers: latest.current });
    setSubmitting(false);
    if (result.ok) {
      setLocked('submitted');
      setSave({ state: 'saved' });
      setNext(result.data.nextAssignmentId);
    } else setSubmitError({ message: result.message, missing: Object.keys(result.fieldErrors ?? {}) });
  }

  const answered = ALL_ITEMS.filter((i) => answers[i] !== undefined).length;
  const item = (id: StudyItem) => {
    const missing = submitError?.missing.includes(id);
    return (
      <fieldset key={id} className={`rounded-md border p-3 ${missing ? 'border-red-600' : 'border-zinc-200 dark:border-zinc-800'}`} data-testid={`item-${id}`}>
        <legend className="px-1 text-sm font-medium">{t(id)}</legend>
        {/* Five equal columns, each answer's words under its radio: as a wrapping row, the last
            answer ("5 Strongly agree") fell onto a line of its own (issue 16). */}
        <div className="mt-1 grid grid-cols-5 gap-2">
          {SCALE.map((v) => (
            <label key={v} className="flex flex-col items-center gap-1 text-center text-sm break-keep">
              <input
                type="radio"
                name={id}
                value={v}
                checked={answers[id] === v}
                onChange={() => choose(id, v)}
                disabled={Boolean(locked)}
                className="h-4 w-4 accent-blue-700"
              />
              <span>
                <span className="block font-medium tabular-nums">{v}</span> <span className="block text-zinc-600 dark:text-zinc-400">{t(`scale${v}`)}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
    );
  };

  return (
    <section aria-labelledby="rating-heading" className="space-y-4" data-testid="rating-form" data-locked={locked ?? 'no'}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="rating-heading" className="text-lg font-semibold">
          {t('ratingHeading')}
        </h2>
        <p className="text-sm text-zinc-700 dark:text-zinc-300" role="status" aria-live="polite" data-testid="save-status" data-state={save.state}>
          {save.state === 'saving'
            ? t('saving')
            : save.state === 'saved'
              ? t('saved')
              : save.state === 'error'
                ? t('saveFailed', { message: save.message ?? '' })
                : ''}
        </p>
      </div>
      {locked ? (
        <div data-testid="rating-locked" className="space-y-3">
          <Alert tone="info">{locked === 'submitted' ? t('lockedSubmitted') : t('lockedClosed')}</Alert>
          <div data-testid="next-report">
            {next ? (
              <Link
                href={`/ratings/${next}`}
                className="inline-flex items-center rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
                data-testid="next-report-link"
              >
                {t('nextReport')}
              </Link>
            ) : (
              <p className="text-sm" data-testid="all-done">
                {t('allDone')}{' '}
                <Link href="/ratings" className="text-blue-800 underline underline-offset-2 dark:text-blue-300">
                  {t('back')}
                </Link>
              </p>
            )}
          </div>
        </div>
      ) : null}
      <div className="space-y-3">
        <h3 className="text-base font-semibold">{t('likertHeading')}</h3>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('likertIntro')}</p>
        {LIKERT_ITEMS.map(item)}
      </div>
      <div className="space-y-3">
        <h3 className="text-base font-semibold">{t('susHeading')}</h3>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('susIntro')}</p>
        {SUS_ITEMS.map(item)}
      </div>
      {locked ? null : (
        <div className="space-y-2">
          {submitError ? (
            <div data-testid="submit-error">
              <Alert>{submitError.message}</Alert>
            </div>
          ) : null}
          <p className="text-sm" data-testid="answered-count">
            {t('answered', { n: answered, total: ALL_ITEMS.length })}
          </p>
          <p className="text-xs text-zinc-600 dark:text-zinc-400">{t('submitHint')}</p>
          {answered < ALL_ITEMS.length ? (
            // Incomplete: nothing to confirm yet; the server names what is still open.
            <Button onClick={() => void submit()} disabled={submitting} data-testid="submit-rating">
              {submitting ? t('submitting') : t('submit')}
            </Button>
          ) : (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void submit();
              }}
            >
              <ConfirmDialog
                triggerLabel={t('submit')}
                pendingLabel={t('submitting')}
                pending={submitting}
                triggerTestId="submit-rating"
                title={t('confirmSubmitTitle')}
                irreversible={t('confirmSubmitText')}
                confirmLabel={t('confirmSubmit')}
                cancelLabel={t('cancel')}
                confirmTestId="submit-rating-confirm"
                checkFormFirst={false}
              />
            </form>
          )}
        </div>
      )}
    </section>
  );
}
