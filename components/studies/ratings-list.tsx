// An evaluator's work list, per study: "Report 1 … n" in their own order, linked by the opaque
// assignment id, with their progress. Nothing about the runs behind the reports.
import Link from 'next/link';
import { Badge } from '@/components/ui/layout';
import type { EvaluatorAssignment } from '@/lib/domain/views';
import type { Translate } from '@/lib/i18n';
import type { RatingMessages } from '@/lib/i18n/messages/studies-rating';

export function RatingsList({ assignments, t }: { assignments: EvaluatorAssignment[]; t: Translate<RatingMessages> }) {
  const studies = [...new Map(assignments.map((a) => [a.studyId, a])).values()];
  return (
    <div className="space-y-6">
      {studies.map((study) => {
        const rows = assignments.filter((a) => a.studyId === study.studyId);
        const done = rows.filter((a) => a.submittedAt).length;
        return (
          <section key={study.studyId} aria-labelledby={`study-${study.studyId}`} data-testid="ratings-study">
            <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
              <h2 id={`study-${study.studyId}`} className="text-base font-semibold">
                {t('studyLabel', { name: study.studyName })} {study.studyStatus === 'closed' ? <Badge>{t('studyClosed')}</Badge> : null}
              </h2>
              <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="ratings-progress">
                {t('progress', { done, total: rows.length })}
              </p>
            </div>
            <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
              {rows.map((a) => (
                <li key={a.id} className="flex items-center justify-between px-4 py-3 text-sm" data-testid="assignment-row">
                  <Link href={`/ratings/${a.id}`} className="font-medium text-blue-800 underline underline-offset-2 dark:text-blue-300">
                    {t('reportN', { n: a.position })}
                  </Link>
                  {a.submittedAt ? <Badge tone="green">{t('submitted')}</Badge> : <Badge tone="amber">{t('toRate')}</Badge>}
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
