import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { CaseFacts } from '@/components/case/case-facts';
import { CaseRuns } from '@/components/case/case-runs';
import { RunLauncher } from '@/components/case/run-launcher';
import { StabilityCard } from '@/components/case/stability-card';
import { SubmitCase } from '@/components/case/submit-case';
import { RedFlagsPanel } from '@/components/red-flags/red-flags-panel';
import { LegalHoldNotice } from '@/components/retention/legal-hold-notice';
import { CaseDecisionCard, CaseDiscussionCard } from '@/components/review/case-review';
import { AcknowledgementsCard } from '@/components/review/acknowledgements';
import { CoverNoteCard } from '@/components/review/cover-note';
import { SoleProprietorWarning } from '@/components/review/sole-proprietor';
import { formatDateTime } from '@/components/lists/format';
import { Alert, Card, PageHeader } from '@/components/ui/layout';
import { canAccessCase, requireCaseAccess } from '@/lib/auth/run-access';
import { can } from '@/lib/auth/permissions';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { listAcknowledgements } from '@/lib/db/queries/acknowledgements';
import { caseQuorum, listDecisionVotes } from '@/lib/db/queries/oversight';
import { getCaseDetail, listRunsForCase } from '@/lib/db/queries/cases';
import { commentRight, listCommentsForCase, listDecisionsForCase } from '@/lib/db/queries/review';
import { PROTOCOLS_BY_ID } from '@/lib/debate/protocols';
import { closedCaseNote } from '@/lib/domain/case-status';
import { acknowledgementMessages } from '@/lib/i18n/messages/acknowledgements';
import { casesMessages } from '@/lib/i18n/messages/cases';
import { runMessages } from '@/lib/i18n/messages/run';
import { getLocale, getT } from '@/lib/i18n/server';
import { ackItemFields, ackLead, ackRows, ackText, itemsToAcknowledge } from '@/lib/report/acknowledgements';
import { roundOversight } from '@/lib/report/oversight';
import { poolRedFlags } from '@/lib/report/red-flag-refs';
import { launcherOptions } from './launcher-options';
import { shellMessages } from '@/lib/i18n/messages/shell';
import { activeHoldsOfCase } from '@/lib/db/queries/retention';
import { listStabilitySets } from '@/lib/db/queries/stability';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(shellMessages))('metaCase') };
}

export default async function CasePage({ params }: { params: Promise<{ id: string }> }) {
  await requirePermission('runs:read');
  const { id } = await params;
  const { user, kase: row } = await requireCaseAccess(id, 'read');
  const db = await getDb();
  const [kase, runs, decisions, comments, t, tr, redFlags, locale] = await Promise.all([
    getCaseDetail({ db, id }),
    listRunsForCase({ db, caseId: id }),
    listDecisionsForCase({ db, caseId: id }),
    listCommentsForCase({ db, caseId: id }),
    getT(casesMessages),
    getT(runMessages),
    // Red flags in the pool as of the case's date: what a run of the case would find first.
    poolRedFlags({ db, companyId: row.companyId, asOf: row.asOfDate }),
    getLocale(),
  ]);
  if (!kase) notFound();
  // The owning RM works on a case until it goes to the committee; everyone else reads it.
  const owner = canAccessCase(user, row, 'write');
  const closedNote = closedCaseNote(kase.status);
  const open = closedNote === null;
  const protocolNames = Object.fromEntries(Object.values(PROTOCOLS_BY_ID).map((p) => [p.id, p.name]));
  // The RM's acknowledgements of the latest round, beside the report for the committee; and, while
  // the RM may still submit, what this round must acknowledge (recomputed by submitCase).
  const acks = await listAcknowledgements({ db, caseId: id, submittedAt: kase.submittedAt });
  // Oversight (docs/oversight.md): the votes behind each decision, the open round's votes and the
  // form's options for the committee, and whether the borrower is a natural person in business.
  const [decisionVotes, { soleProprietor }] = await Promise.all([listDecisionVotes({ db, caseId: id }), caseQuorum({ db, caseId: id })]);
  const round =
    user.role === 'committee' && kase.status === 'submitted' && kase.submittedAt
      ? await roundOversight({ db, caseId: id, submittedAt: kase.submittedAt, userId: user.id, locale })
      : null;
  const ta = await getT(acknowledgementMessages);
  const time = (d: Date) => formatDateTime(d, locale);
  const toAcknowledge =
    owner && open ? (await itemsToAcknowledge({ db, caseId: id })).map((item) => ({ key: item.key, ...ackText(ackItemFields(item), locale) })) : [];
  const initial = runs.map((r) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    startedAt: r.startedAt?.toISOString() ?? null,
    finishedAt: r.finishedAt?.toISOString() ?? null,
  }));
  return (
    <>
      <PageHeader
        title={kase.title}
        description={`${locale === 'ko' ? kase.companyName : (kase.companyNameEn ?? kase.companyName)} · ${t('asOfDate')} ${kase.asOfDate}`}
      />
      {soleProprietor ? <SoleProprietorWarning /> : null}
      <LegalHoldNotice holds={await activeHoldsOfCase({ db, caseId: kase.id })} />
      {redFlags.flags.length ? (
        <div className="mb-6">
          <RedFlagsPanel flags={redFlags.flags} evidence={redFlags.evidence} scope={{ kind: 'case', date: kase.asOfDate }} />
        </div>
      ) : null}
      {!owner ? (
        <div className="mb-4" data-testid="read-only">
          <Alert tone="info">{t('readOnly')}</Alert>
        </div>
      ) : null}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
        <div className="space-y-6">
          <Card title={t('facts')}>
            <CaseFacts kase={kase} t={t} />
          </Card>
          <CoverNoteCard note={kase.submissionNote} title={t('coverNoteTitle')} />
          {kase.submittedAt ? (
            <AcknowledgementsCard
              rows={ackRows(acks, locale, time)}
              title={ta('cardTitle')}
              lead={ackLead(kase.submittedAt, time, locale)}
              none={ta('cardNone')}
              openLabel={ta('openRun')}
            />
          ) : null}
          <Card title={t('runs')}>
            <CaseRuns caseId={kase.id} initial={initial} protocolNames={protocolNames} />
            {runs.length >= 2 ? (
              <p className="mt-3 text-sm">
                <Link
                  href={`/cases/${kase.id}/compare`}
                  className="text-blue-800 underline underline-offset-2 hover:no-underline dark:text-blue-300"
                  data-testid="compare-runs-link"
                >
                  {t('compareRuns')}
                </Link>
              </p>
            ) : null}
          </Card>
          <StabilityCard caseId={kase.id} canStart={owner && open} sets={await listStabilitySets({ db, caseId: kase.id })} />
          <CaseDiscussionCard kase={row} comments={comments} right={commentRight(user, row)} />
        </div>
        <div className="space-y-6">
          <CaseDecisionCard user={user} kase={row} decisions={decisions} round={round} decisionVotes={decisionVotes} />
          {can(user.role, 'cases:file-export') ? (
            <Card title={t('caseFileTitle')}>
              <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">{t('caseFileLead')}</p>
              <a
                href={`/api/cases/${encodeURIComponent(kase.id)}/file`}
                download
                className="inline-flex items-center justify-center gap-2 rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-900 hover:bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800"
                data-testid="download-case-file"
              >
                {t('caseFileDownload')}
              </a>
            </Card>
          ) : null}
          {owner ? (
            open ? (
              <>
                <Card title={tr('launcherTitle')}>
                  <RunLauncher caseId={kase.id} options={await launcherOptions({ db, kase: row })} />
                </Card>
                <Card title={t('submitTitle')}>
                  <SubmitCase caseId={kase.id} acknowledge={toAcknowledge} />
                </Card>
              </>
            ) : (
              <Alert tone="info">{t(closedNote ?? 'withCommittee')}</Alert>
            )
          ) : null}
        </div>
      </div>
    </>
  );
}
