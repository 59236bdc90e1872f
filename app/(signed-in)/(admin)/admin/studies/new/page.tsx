import type { Metadata } from 'next';
import Link from 'next/link';
import { formatDateTime } from '@/components/lists/format';
import { NewStudyForm } from '@/components/studies/new-study-form';
import { Card, PageHeader } from '@/components/ui/layout';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { listActiveEvaluators, listRatableRuns } from '@/lib/db/queries/studies';
import { systemName } from '@/lib/eval/study-systems';
import { studiesMessages } from '@/lib/i18n/messages/studies';
import { getT } from '@/lib/i18n/server';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getT(studiesMessages);
  return { title: t('newTitle') };
}

export default async function NewStudyPage() {
  await requirePermission('studies:manage');
  const db = await getDb();
  const [t, runs, evaluators] = await Promise.all([getT(studiesMessages), listRatableRuns({ db }), listActiveEvaluators({ db })]);
  return (
    <>
      <PageHeader
        title={t('newTitle')}
        description={t('newDescription')}
        actions={
          <Link href="/admin/studies" className="text-sm text-blue-800 underline underline-offset-2 dark:text-blue-300">
            {t('backToStudies')}
          </Link>
        }
      />
      <Card>
        <NewStudyForm
          runs={runs.map((r) => ({
            runId: r.runId,
            reportId: r.reportId,
            companyId: r.companyId,
            protocol: r.protocol,
            company: r.companyName,
            system: systemName(r.protocol),
            provider: r.provider === 'offline' ? t('offlineProvider') : `${r.provider} · ${r.model}`,
            language: String(r.params.language ?? '—'),
            caseTitle: r.caseTitle ?? '—',
            finished: formatDateTime(r.finishedAt),
          }))}
          evaluators={evaluators}
        />
      </Card>
    </>
  );
}
