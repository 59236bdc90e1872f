import type { Metadata } from 'next';
import Link from 'next/link';
import { ActionForm } from '@/components/shell/action-form';
import { formatDateTime } from '@/components/lists/format';
import { Badge, EmptyState, PageHeader } from '@/components/ui/layout';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { countUnreadNotifications, listNotifications, type InboxItem } from '@/lib/db/queries/notifications';
import { DECISION_OUTCOMES, type DecisionOutcome } from '@/lib/domain/vocabulary';
import type { Locale, Translate } from '@/lib/i18n';
import { inboxMessages, type InboxMessages } from '@/lib/i18n/messages/inbox';
import { reviewMessages } from '@/lib/i18n/messages/review';
import { runMessages } from '@/lib/i18n/messages/run';
import { getLocale, getT } from '@/lib/i18n/server';
import { listAlertItems, type WatchAlertDetail } from '@/lib/db/queries/watch';
import { can } from '@/lib/auth/permissions';
import { redFlagMessages } from '@/lib/i18n/messages/red-flags';
import { watchMessages, type WatchMessages } from '@/lib/i18n/messages/watch';
import { RescreenButton } from '@/components/watch/rescreen-button';
import { markNotificationsRead } from './actions';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(inboxMessages))('title') };
}

/** Where an item leads: the turn's run for a comment anchored there, the case, the run, the watched borrower, or the ratings list. */
function placeOf(item: InboxItem, alert: WatchAlertDetail | undefined): string | null {
  switch (item.kind) {
    case 'watch_alert':
      return alert ? `/companies/${alert.alert.companyId}` : null;
    case 'study_assigned':
      return '/ratings';
    case 'run_finished':
    case 'run_failed':
      return item.runId ? `/runs/${item.runId}` : null;
    case 'comment':
    case 'reply':
      if (item.runId) return `/runs/${item.runId}`;
      return item.caseId ? `/cases/${item.caseId}` : null;
    default:
      return item.caseId ? `/cases/${item.caseId}` : null;
  }
}

const isOutcome = (v: string | null): v is DecisionOutcome => (DECISION_OUTCOMES as readonly string[]).includes(v ?? '');

/** The item's second line, from its detail: a comment's words, the cover note, the outcome, why a run stopped. */
function detailOf(item: InboxItem, t: Translate<InboxMessages>, review: Translate<(typeof reviewMessages)['en']>): string | null {
  const { detail } = item;
  if (!detail) return null;
  switch (item.kind) {
    case 'comment':
    case 'reply':
      return `“${detail}”`;
    case 'submitted':
    case 'resubmitted':
      return t('coverNote', { note: detail });
    case 'decided':
    case 'returned':
      return isOutcome(detail) ? t('outcome', { outcome: review(`outcome_${detail}`) }) : null;
    case 'run_failed':
      return detail === 'failed' || detail === 'budget_exceeded' || detail === 'insufficient_evidence' ? t(`runStatus_${detail}`) : null;
    case 'run_finished':
      return detail === 'red_flag_screening' ? t('runStatus_red_flag_screening') : null;
    default:
      return null;
  }
}

function headlineOf(item: InboxItem, t: Translate<InboxMessages>, locale: Locale, alert?: WatchAlertDetail) {
  if (item.kind === 'watch_alert' && alert) {
    const borrower = locale === 'en' ? (alert.companyNameEn ?? alert.companyName) : alert.companyName;
    return t('kind_watch_alert', { case: item.caseTitle ? `${borrower} (${item.caseTitle})` : borrower });
  }
  const company = locale === 'en' ? (item.companyNameEn ?? item.companyName) : item.companyName;
  const caseLabel = item.caseTitle
    ? company && !item.caseTitle.includes(company)
      ? `${item.caseTitle} (${company})`
      : item.caseTitle
    : item.runId
      ? t('anAnalysis')
      : t('aCase');
  return t(`kind_${item.kind}`, { actor: item.actorName ?? t('someone'), case: caseLabel, study: item.studyName ?? t('aStudy') });
}

/** Which run an item is about, so two items on one case read apart: its system, model, language and start. */
function runLineOf(item: InboxItem, t: Translate<InboxMessages>, tr: Translate<(typeof runMessages)['en']>, locale: Locale): string | null {
  const { run } = item;
  if (!run) return null;
  const system = tr(`protocol_${run.protocol}` as 'protocol_nas').split(' — ')[0];
  const model = run.provider === 'offline' ? tr('offlineNote') : tr('openaiNote', { model: run.model });
  const language = run.language === 'ko' ? tr('languageKo') : run.language === 'en' ? tr('languageEn') : '—';
  return t('runLine', { system, model, language, when: formatDateTime(run.createdAt, locale) });
}

export default async function InboxPage({ searchParams }: { searchParams: Promise<{ page?: string }> }) {
  const user = await requirePermission('app:use');
  const requested = Number((await searchParams).page);
  const page = Number.isInteger(requested) && requested > 1 && requested < 10_000 ? requested : 1;
  const db = await getDb();
  const [t, review, tr, tw, tf, locale, { items, hasMore }, unread] = await Promise.all([
    getT(inboxMessages),
    getT(reviewMessages),
    getT(runMessages),
    getT(watchMessages),
    getT(redFlagMessages),
    getLocale(),
    listNotifications({ db, userId: user.id, page }),
    countUnreadNotifications({ db, userId: user.id }),
  ]);
  const alerts = await listAlertItems({ db, alertIds: items.flatMap((i) => (i.watchAlertId ? [i.watchAlertId] : [])) });
  const mayRescreen = can(user.role, 'watch:write');
  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          unread > 0 ? (
            <ActionForm action={markNotificationsRead}>
              <input type="hidden" name="target" value="all" />
              <button
                type="submit"
                className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-900 hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
                data-testid="inbox-mark-all"
              >
                {t('markAllRead')}
              </button>
            </ActionForm>
          ) : null
        }
      />
      {items.length === 0 ? (
        <EmptyState title={t('emptyTitle')}>{page === 1 ? t('emptyBody') : null}</EmptyState>
      ) : (
        <ul
          aria-label={t('listLabel')}
          className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900"
          data-testid="inbox-list"
        >
          {items.map((item) => {
            const alert = item.watchAlertId ? alerts.get(item.watchAlertId) : undefined;
            const headline = headlineOf(item, t, locale, alert);
            const detail = detailOf(item, t, review);
            const runLine = runLineOf(item, t, tr, locale);
            const href = placeOf(item, alert);
            const unreadItem = item.readAt === null;
            return (
              <li
                key={item.id}
                className={`flex flex-wrap items-start justify-between gap-3 px-4 py-3 text-sm ${unreadItem ? 'bg-blue-50/60 dark:bg-blue-950/30' : ''}`}
                data-testid="inbox-item"
                data-kind={item.kind}
                data-read={unreadItem ? 'false' : 'true'}
              >
                <div className="min-w-0 flex-1 space-y-1">
                  <p className={unreadItem ? 'font-semibold' : 'font-normal'}>
                    {href ? (
                      <Link href={href} className="text-blue-800 underline underline-offset-2 dark:text-blue-300" data-testid="inbox-item-link">
                        {headline}
                      </Link>
                    ) : (
                      headline
                    )}
                  </p>
                  {detail ? (
                    <p className="line-clamp-2 break-words text-zinc-700 dark:text-zinc-300" data-testid="inbox-item-detail">
                      {detail}
                    </p>
                  ) : null}
                  {runLine ? (
                    <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="inbox-item-run">
                      {runLine}
                    </p>
                  ) : null}
                  {alert ? <AlertEvidence alert={alert} tw={tw} tf={tf} mayRescreen={mayRescreen && item.caseId !== null} /> : null}
                  <p className="flex flex-wrap items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
                    <time dateTime={item.createdAt.toISOString()}>{formatDateTime(item.createdAt, locale)}</time>
                    {unreadItem ? <Badge tone="blue">{t('unread')}</Badge> : <span className="sr-only">{t('read')}</span>}
                  </p>
                </div>
                {unreadItem ? (
                  <ActionForm action={markNotificationsRead}>
                    <input type="hidden" name="target" value={item.id} />
                    <button
                      type="submit"
                      className="rounded-md px-2 py-1 text-sm text-zinc-700 underline underline-offset-2 dark:text-zinc-300"
                      data-testid="inbox-mark-read"
                    >
                      {t('markRead')}
                      <span className="sr-only">: {headline}</span>
                    </button>
                  </ActionForm>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {page > 1 || hasMore ? (
        <nav aria-label={t('listLabel')} className="mt-4 flex justify-between text-sm">
          {page > 1 ? (
            <Link href={page === 2 ? '/inbox' : `/inbox?page=${page - 1}`} className="text-blue-800 underline underline-offset-2 dark:text-blue-300">
              {t('newer')}
            </Link>
          ) : (
            <span />
          )}
          {hasMore ? (
            <Link href={`/inbox?page=${page + 1}`} className="text-blue-800 underline underline-offset-2 dark:text-blue-300">
              {t('older')}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}

/** A watch alert's evidence: each red flag and adverse item with its date and source, and the re-screen. */
function AlertEvidence({
  alert,
  tw,
  tf,
  mayRescreen,
}: {
  alert: WatchAlertDetail;
  tw: Translate<WatchMessages>;
  tf: Translate<(typeof redFlagMessages)['en']>;
  mayRescreen: boolean;
}) {
  const flagsByItem = new Map<string, string[]>();
  for (const f of alert.alert.redFlags) flagsByItem.set(f.evidenceId, [...(flagsByItem.get(f.evidenceId) ?? []), tf(`kind_${f.kind}`)]);
  const link = 'text-blue-800 underline underline-offset-2 dark:text-blue-300';
  return (
    <div className="space-y-2" data-testid="watch-alert">
      <p className="text-xs font-medium text-zinc-700 dark:text-zinc-300">
        {tw('alertHeading')}
        {alert.alert.adverseCount ? ` · ${tw('alertAdverse', { n: alert.alert.adverseCount })}` : ''}
      </p>
      <ul className="space-y-1">
        {alert.items.map((item) => (
          <li key={item.id} data-testid="watch-alert-item" data-evidence-id={item.id} className="break-words">
            {flagsByItem.get(item.id)?.map((label) => (
              <Badge key={label} tone="red">
                {label}
              </Badge>
            ))}{' '}
            <a className={link} href={item.sourceUrl} rel="noreferrer noopener" target="_blank">
              {item.title}
            </a>{' '}
            <span className="text-xs text-zinc-600 dark:text-zinc-400">
              · {item.publishedDate} · {item.sourceName}
            </span>
          </li>
        ))}
      </ul>
      {alert.alert.rescreenRunId ? (
        <Link href={`/runs/${alert.alert.rescreenRunId}`} className={link} data-testid="watch-alert-run">
          {tw('rescreenRun')}
        </Link>
      ) : mayRescreen ? (
        <RescreenButton alertId={alert.alert.id} />
      ) : null}
    </div>
  );
}
