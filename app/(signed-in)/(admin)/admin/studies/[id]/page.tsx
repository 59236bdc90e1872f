import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { formatDateTime } from '@/components/lists/format';
import { StudyStatusBadge } from '@/components/studies/study-status-badge';
import { StudyStatusForm } from '@/components/studies/study-status-form';
import { Badge, DataTable, PageHeader, Td } from '@/components/ui/layout';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { getStudy, listStudyAssignments } from '@/lib/db/queries/studies';
import { systemName } from '@/lib/eval/study-systems';
import { studiesMessages } from '@/lib/i18n/messages/studies';
import { getT } from '@/lib/i18n/server';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getT(studiesMessages);
  return { title: t('title') };
}

const link = 'text-sm text-blue-800 underline underline-offset-2 dark:text-blue-300';

export default async function StudyPage({ params }: { params: Promise<{ id: string }> }) {
  await requirePermission('studies:manage');
  const { id } = await params;
  const db = await getDb();
  const study = await getStudy({ db, id });
  if (!study) notFound();
  const [t, assignments] = await Promise.all([getT(studiesMessages), listStudyAssignments({ db, studyId: id })]);
  const reports = new Set(assignments.map((a) => a.reportId)).size;
  const evaluators = new Set(assignments.map((a) => a.evaluatorId)).size;
  return (
    <>
      <PageHeader
        title={study.name}
        description={t('detailDescription', { status: t(`status_${study.status}`), seed: study.seed, reports, evaluators })}
        actions={
          <div className="flex flex-wrap items-center gap-4">
            <StudyStatusBadge status={study.status} label={t(`status_${study.status}`)} />
            <Link href={`/admin/studies/${id}/results`} className={link} data-testid="results-link">
              {t('resultsLink')}
            </Link>
            <a href={`/api/studies/${id}/ratings`} className={link} data-testid="csv-link" download>
              {t('csvLink')}
            </a>
            <Link href="/admin/studies" className={link}>
              {t('backToStudies')}
            </Link>
          </div>
        }
      />
      <div className="mb-6">
        <StudyStatusForm studyId={id} status={study.status} />
      </div>
      <DataTable caption={t('assignmentsCaption')} head={[t('colEvaluator'), t('colPosition'), t('colCompany'), t('colSystem'), t('colRun'), t('colRating')]}>
        {assignments.map((a) => (
          <tr key={a.id} data-testid="assignment-admin-row">
            <Td>
              {a.evaluatorName} <span className="text-zinc-600 dark:text-zinc-400">({a.evaluatorEmail})</span>
            </Td>
            <Td className="tabular-nums">{a.position}</Td>
            <Td>{a.companyName}</Td>
            <Td>{systemName(a.protocol)}</Td>
            <Td className="font-mono text-xs">{a.runId.slice(0, 8)}</Td>
            <Td>
              {a.submittedAt ? (
                <Badge tone="green">
                  {t('submitted')} · {formatDateTime(a.submittedAt)}
                </Badge>
              ) : a.savedAt ? (
                <Badge tone="amber">{t('saved')}</Badge>
              ) : (
                <Badge>{t('notStarted')}</Badge>
              )}
            </Td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}
