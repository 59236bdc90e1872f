import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { BlindReportView } from '@/components/studies/blind-report';
import { RatingForm } from '@/components/studies/rating-form';
import { PageHeader } from '@/components/ui/layout';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { getAssignmentForEvaluator, nextAssignmentForEvaluator } from '@/lib/db/queries/studies';
import { loadBlindReport } from '@/lib/eval/study-blind-load';
import { cleanAnswers } from '@/lib/eval/study-design';
import { ratingMessages } from '@/lib/i18n/messages/studies-rating';
import { getLocale, getT } from '@/lib/i18n/server';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getT(ratingMessages);
  return { title: t('listTitle') };
}

// Blinding: this page reads the run on the server and hands the browser only rendered report
// text and, to the client form, the opaque assignment id and the answers.
export default async function RatePage({ params }: { params: Promise<{ assignmentId: string }> }) {
  const user = await requirePermission('ratings:read-own');
  const { assignmentId } = await params;
  const db = await getDb();
  const assignment = await getAssignmentForEvaluator({ db, id: assignmentId, evaluatorId: user.id });
  if (!assignment) notFound();
  const locale = await getLocale();
  const [t, { report, labels }, next] = await Promise.all([
    getT(ratingMessages),
    loadBlindReport({ db, runId: assignment.runId, locale }),
    nextAssignmentForEvaluator({ db, evaluatorId: user.id, studyId: assignment.studyId, excludeId: assignment.id }),
  ]);
  const locked = assignment.submittedAt ? 'submitted' : assignment.studyStatus !== 'open' ? 'closed' : null;
  return (
    <>
      <PageHeader
        title={t('pageTitle', { n: assignment.position, total: assignment.total })}
        description={t('pageDescription', { company: report.companyName, asOf: report.asOf || '—' })}
        actions={
          <Link href="/ratings" className="text-sm text-blue-800 underline underline-offset-2 dark:text-blue-300">
            {t('back')}
          </Link>
        }
      />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <BlindReportView report={report} labels={labels} t={t} />
        <div className="xl:sticky xl:top-4 xl:max-h-[calc(100vh-2rem)] xl:self-start xl:overflow-y-auto">
          <RatingForm assignmentId={assignment.id} initial={cleanAnswers(assignment.answers)} locked={locked} nextAssignmentId={next ?? null} />
        </div>
      </div>
    </>
  );
}
