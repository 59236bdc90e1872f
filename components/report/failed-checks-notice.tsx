// The failed final checks of a finished run, in words with their counts (lib/report/failed-checks.ts):
// at the top of the report page and of the live run page, under the red flags, so a run that
// finished with unresolved or late citations or an unaddressed red flag never reads as clean.
import type { FailedCheckLine } from '@/lib/report/failed-checks';

export type FailedChecksNoticeProps = { notice: { title: string; text: string; lines: FailedCheckLine[] } };

export function FailedChecksNotice({ notice }: FailedChecksNoticeProps) {
  return (
    <section
      aria-labelledby="failed-checks-title"
      data-testid="failed-checks"
      data-count={notice.lines.length}
      className="rounded-lg border-2 border-amber-700 bg-amber-50 p-4 text-amber-950 break-inside-avoid-page dark:border-amber-400 dark:bg-amber-950 dark:text-amber-50"
    >
      <h2 id="failed-checks-title" className="text-base font-semibold">
        <span aria-hidden="true">⚠ </span>
        {notice.title}
      </h2>
      <p className="mt-1 text-sm">{notice.text}</p>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
        {notice.lines.map((l) => (
          <li key={l.id} data-testid="failed-check" data-check-id={l.id} data-count={l.count}>
            {l.text}
          </li>
        ))}
      </ul>
    </section>
  );
}
