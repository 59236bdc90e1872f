// What the RM acknowledged with the latest submission (submission_acknowledgements): each failed
// final check and unaddressed red flag, with the RM's reason, who and when. On the case page and
// above a run's report, so the committee reads them beside the report. Plain text throughout.
import { Card } from '@/components/ui/layout';

export type AckRow = { id: string; text: string; href: string | null; reason: string; by: string };

export function AcknowledgementsCard({
  rows,
  title,
  lead,
  none,
  openLabel,
}: {
  rows: AckRow[];
  title: string;
  lead: string;
  none: string | null;
  openLabel: string;
}) {
  if (!rows.length && !none) return null;
  return (
    <div data-testid="acknowledgements" data-count={rows.length}>
      <Card title={title}>
        {rows.length ? (
          <>
            <p className="mb-3 text-sm text-zinc-700 dark:text-zinc-300">{lead}</p>
            <ul className="space-y-3">
              {rows.map((r) => (
                <li
                  key={r.id}
                  className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm dark:border-amber-700 dark:bg-amber-950"
                  data-testid="acknowledgement"
                >
                  <p className="font-medium text-zinc-900 dark:text-zinc-100">
                    {r.text}
                    {r.href ? (
                      <>
                        {' '}
                        <a href={r.href} className="text-blue-800 underline underline-offset-2 dark:text-blue-300">
                          {openLabel}
                        </a>
                      </>
                    ) : null}
                  </p>
                  <p className="mt-1 whitespace-pre-line break-words text-zinc-800 dark:text-zinc-200" data-testid="acknowledgement-reason">
                    {r.reason}
                  </p>
                  <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">{r.by}</p>
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p className="text-sm text-zinc-700 dark:text-zinc-300">{none}</p>
        )}
      </Card>
    </div>
  );
}
