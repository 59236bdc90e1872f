import type { Metadata } from 'next';
import { DownloadLinks } from '@/components/report/download-links';
import { EvaluationCard } from '@/components/judges/evaluation-card';
import { ReportView } from '@/components/report/report-view';
import { AcknowledgementsCard } from '@/components/review/acknowledgements';
import { formatDateTime } from '@/components/lists/format';
import { PageHeader } from '@/components/ui/layout';
import { can } from '@/lib/auth/permissions';
import { canAccessRun, requireRunAccess } from '@/lib/auth/run-access';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { listAcknowledgements } from '@/lib/db/queries/acknowledgements';
import { appendAudit } from '@/lib/db/queries/audit';
import { listRubricJudgments } from '@/lib/db/queries/judgments';
import { judgeAvailability } from '@/lib/eval/judge-actions';
import { acknowledgementMessages } from '@/lib/i18n/messages/acknowledgements';
import { reportMessages } from '@/lib/i18n/messages/report';
import { getLocale, getT } from '@/lib/i18n/server';
import { loadReportInput } from '@/lib/report/load';
import { buildReportDoc } from '@/lib/report/model';
import { ackLead, ackRows } from '@/lib/report/acknowledgements';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(reportMessages))('pageTitle') };
}

/** The run's report for a credit reader: the owning RM, or the committee once the case is submitted. */
export default async function RunReportPage({ params }: { params: Promise<{ id: string }> }) {
  await requirePermission('runs:read');
  const { id } = await params;
  const { user, run, kase } = await requireRunAccess(id, 'read');
  const db = await getDb();
  const [input, locale, t, judgments] = await Promise.all([
    loadReportInput({ db, runId: id }),
    getLocale(),
    getT(reportMessages),
    listRubricJudgments({ db, runId: id }),
  ]);
  // Views of reports are audited, like exports.
  await db.transaction((tx) =>
    appendAudit({ tx, actorId: user.id, action: 'report.view', entityType: 'run', entityId: id, detail: { status: input.view.status } }),
  );
  const doc = buildReportDoc(input, locale);
  // What the RM acknowledged of this run's failed checks (and the case's red flags) with the latest submission.
  const acks = kase
    ? ackRows(await listAcknowledgements({ db, caseId: kase.id, submittedAt: kase.submittedAt }), locale, (d) => formatDateTime(d, locale), { runId: id })
    : [];
  const ta = await getT(acknowledgementMessages);
  return (
    <>
      <PageHeader
        title={doc.title}
        description={`${doc.protocolName} · ${doc.asOf} · ${doc.subtitle}`}
        actions={
          <DownloadLinks
            runId={id}
            labels={{ title: t('downloadsLabel'), download: t('download'), pdf: t('downloadPdf'), md: t('downloadMarkdown'), json: t('downloadJson') }}
          />
        }
      />
      <ReportView
        doc={doc}
        acknowledgements={
          acks.length && kase?.submittedAt ? (
            <AcknowledgementsCard
              rows={acks}
              title={ta('cardTitle')}
              lead={ackLead(kase.submittedAt, (d) => formatDateTime(d, locale), locale)}
              none={null}
              openLabel={ta('openRun')}
            />
          ) : null
        }
      />
      {/* A red-flag screening has no debate for a judge or a readability score to read. */}
      {input.view.status === 'red_flag_screening' ? null : (
        <EvaluationCard
          view={input.view}
          rows={judgments}
          canRun={can(user.role, 'cases:write') && canAccessRun(user, run, kase, 'write')}
          availability={judgeAvailability()}
        />
      )}
    </>
  );
}
