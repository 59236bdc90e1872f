import type { Metadata } from 'next';
import Link from 'next/link';
import { CaseDecisionCard, RunReview } from '@/components/review/case-review';
import { LiveRun } from '@/components/run/live-run';
import { Badge, PageHeader } from '@/components/ui/layout';
import { canAccessRun, requireRunAccess } from '@/lib/auth/run-access';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { recordRunView } from '@/lib/db/queries/audit';
import { isCaseClosed } from '@/lib/db/queries/cases';
import { listDecisionVotes } from '@/lib/db/queries/oversight';
import { commentRight, listCommentsForCase, listDecisionsForCase } from '@/lib/db/queries/review';
import { loadLiveState } from '@/lib/report/live-state';
import { getProtocol } from '@/lib/debate/protocols';
import { runMessages } from '@/lib/i18n/messages/run';
import { getLocale, getT } from '@/lib/i18n/server';
import { contentLanguageOf } from '@/lib/i18n/content-language';
import { failedChecksNotice, reportCheckRows } from '@/lib/report/failed-checks';
import { loadReportInput } from '@/lib/report/load';
import { isTerminal } from '@/lib/report/run-state';
import { shellMessages } from '@/lib/i18n/messages/shell';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(shellMessages))('metaRun') };
}
export const dynamic = 'force-dynamic';

export default async function RunPage({ params }: { params: Promise<{ id: string }> }) {
  await requirePermission('runs:read');
  const { id } = await params;
  const { user, run, kase } = await requireRunAccess(id, 'read');
  const t = await getT(runMessages);
  const db = await getDb();
  // Reading a transcript is audited, like viewing its report (docs/security.md); the stream
  // this page opens adds no entry of its own (recordRunView in lib/db/queries/audit.ts).
  await recordRunView({ db, actorId: user.id, runId: id, via: 'page', detail: { status: run.status } });
  // First paint from the database plus the text streamed so far; the client then follows the run's log from there.
  const initial = await loadLiveState({ db, runId: id });
  // The case's review: its decisions above the run, its threads on the turn cards.
  const [decisions, comments, decisionVotes] = kase
    ? await Promise.all([
        listDecisionsForCase({ db, caseId: kase.id }),
        listCommentsForCase({ db, caseId: kase.id }),
        listDecisionVotes({ db, caseId: kase.id }),
      ])
    : [[], [], {}];
  // A finished run whose final checks failed says so at the top (lib/report/failed-checks.ts).
  const locale = await getLocale();
  const finished = isTerminal(run.status) ? await loadReportInput({ db, runId: id }) : null;
  const failedChecks = finished ? failedChecksNotice(reportCheckRows(finished.view, finished.sources, locale), locale) : null;
  const protocol = getProtocol(run.protocol);
  const runParams = run.params;
  return (
    <>
      <PageHeader
        title={t('runTitle', { protocol: protocol.name })}
        description={
          <span className="flex flex-wrap items-center gap-2">
            {kase ? (
              <Link href={`/cases/${kase.id}`} className="text-blue-800 underline dark:text-blue-300">
                {t('backToCase')}: {kase.title}
              </Link>
            ) : null}
            <Badge>{run.provider === 'offline' ? t('offlineNote') : t('openaiNote', { model: run.model })}</Badge>
            <Badge>{run.mode === 'sequential' ? t('modeLabelSequential') : t('modeLabelDag')}</Badge>
            <Badge>{runParams.language === 'ko' ? t('languageKo') : t('languageEn')}</Badge>
            <Badge>{t('asOf', { date: runParams.asOf })}</Badge>
          </span>
        }
      />
      <RunReview review={kase ? { caseId: kase.id, comments, right: commentRight(user, kase) } : null} runId={run.id}>
        {/* A submitted or decided case's runs are the committee's record: no cancel or retry (lib/jobs/case-runs.ts refuses them too). */}
        <LiveRun
          initial={initial}
          canWrite={canAccessRun(user, run, kase, 'write') && !(kase && isCaseClosed(kase.status))}
          run={{ asOf: runParams.asOf, companyId: run.companyId, offline: run.provider === 'offline', language: contentLanguageOf(runParams) }}
          // The run's red flags come first (LiveRun draws them, live); the case's decisions right under them.
          lead={kase ? <CaseDecisionCard user={user} kase={kase} decisions={decisions} decisionVotes={decisionVotes} form={false} /> : null}
          failedChecks={failedChecks}
        />
      </RunReview>
    </>
  );
}
