import Link from 'next/link';
import { Badge } from '@/components/ui/layout';
import type { EvaluatorAssignment } from '@/lib/domain/views';
import { listsMessages } from '@/lib/i18n/messages/lists';
import { getT } from '@/lib/i18n/server';

export async function AssignmentsList({ assignments }: { assignments: EvaluatorAssignment[] }) {
  const t = await getT(listsMessages);
  return (
    <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
      {assignments.map((a) => (
        <li key={a.id} className="flex items-center justify-between px-4 py-3 text-sm" data-testid="assignment-row">
          <span>
            <Link href={`/ratings/${a.id}`} className="font-medium text-blue-800 underline underline-offset-2 dark:text-blue-300">
              {t('report', { n: a.position })}
            </Link>{' '}
            · {a.studyName}
          </span>
          {a.submittedAt ? <Badge tone="green">{t('assignmentSubmitted')}</Badge> : <Badge tone="amber">{t('assignmentToRate')}</Badge>}
        </li>
      ))}
    </ul>
  );
}
