'use client';
// The instrument for one blinded report. Every change is saved (debounced) through a server
// action; submitting checks that all items are answered and locks the rating for good. Its
// props are only the opaque assignment id and the answers: nothing about the run.
import { useEffect, useRef, useState } from 'react';
import { saveRating, submitRating } from '@/app/(signed-in)/(studies)/ratings/[assignmentId]/actions';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/layout';
import { ALL_ITEMS, LIKERT_ITEMS, SUS_ITEMS, type Answers, type StudyItem } from '@/lib/domain/study';
import { useT } from '@/lib/i18n/client';
import { ratingMessages } from '@/lib/i18n/messages/studies-rating';

type SaveState = { state: 'idle' | 'saving' | 'saved' | 'error'; message?: string };
const SAVE_DELAY_MS = 500;
const SCALE = [1, 2, 3, 4, 5] as const;

export function RatingForm({ assignmentId, initial, locked: lockedAtLoad }: { assignmentId: string; initial: Answers; locked: 'submitted' | 'closed' | null }) {
  const t = useT(ratingMessages);
  const [answers, setAnswers] = useState<Answers>(initial);
  const [locked, setLocked] = useState(lockedAtLoad);
  const [save, setSave] = useState<SaveState>({ state: 'idle' });
  const [submitError, setSubmitError] = useState<{ message: string; missing: string[] } | null>(null);
  const [submitting, setSubmitting] = useState(false);
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
    } else setSubmitError({ message: result.message, missing: Object.keys(result.fieldErrors ?? {}) });
  }

  const answered = ALL_ITEMS.filter((i) => answers[i] !== undefined).length;
  const item = (id: StudyItem) => {
    const missing = submitError?.missing.includes(id);
    return (
      <fieldset key={id} className={`rounded-md border p-3 ${missing ? 'border-red-600' : 'border-zinc-200 dark:border-zinc-800'}`} data-testid={`item-${id}`}>
        <legend className="px-1 text-sm font-medium">{t(id)}</legend>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-2">
          {SCALE.map((v) => (
            <label key={v} className="flex items-center gap-1.5 text-sm">
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
                <span className="font-medium tabular-nums">{v}</span> <span className="text-zinc-600 dark:text-zinc-400">{t(`scale${v}`)}</span>
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
          {save.state === 'saving' ? t('saving') : save.state === 'saved' ? t('saved') : save.state === 'error' ? t('saveFailed', { message: save.message ?? '' }) : ''}
        </p>
      </div>
      {locked ? (
        <div data-testid="rating-locked">
          <Alert tone="info">{locked === 'submitted' ? t('lockedSubmitted') : t('lockedClosed')}</Alert>
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
          <Button onClick={() => void submit()} disabled={submitting} data-testid="submit-rating">
            {submitting ? t('submitting') : t('submit')}
          </Button>
        </div>
      )}
    </section>
  );
}
