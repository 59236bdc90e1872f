import { Badge } from '@/components/ui/layout';
import type { listAssignmentsForEvaluator } from '@/lib/db/queries/studies';

type Row = Awaited<ReturnType<typeof listAssignmentsForEvaluator>>[number];

export function AssignmentsList({ assignments }: { assignments: Row[] }) {
  return (
    <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
      {assignments.map((a) => (
        <li key={a.id} className="flex items-center justify-between px-4 py-3 text-sm" data-testid="assignment-row">
          <span>
            <span className="font-medium">Report {a.position}</span> · {a.studyName}
          </span>
          {a.submittedAt ? <Badge tone="green">submitted</Badge> : <Badge tone="amber">to rate</Badge>}
        </li>
      ))}
    </ul>
  );
}
