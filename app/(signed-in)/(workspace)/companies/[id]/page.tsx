import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { AddEvidenceForm } from '@/components/pool/evidence-editor';
import { EvidenceTimeline } from '@/components/pool/evidence-timeline';
import { FetchFilings } from '@/components/pool/fetch-filings';
import { UploadDocument } from '@/components/pool/upload-document';
import { RedFlagsPanel } from '@/components/red-flags/red-flags-panel';
import { SoleProprietorWarning } from '@/components/review/sole-proprietor';
import { SoleProprietorToggle } from '@/components/review/sole-proprietor-toggle';
import { Card, EmptyState, PageHeader } from '@/components/ui/layout';
import { FilingSightings } from '@/components/watch/filing-sightings';
import { WatchPanel } from '@/components/watch/watch-panel';
import { can } from '@/lib/auth/permissions';
import { mayReadCompany } from '@/lib/auth/company-access';
import { requireCompanyAccess } from '@/lib/auth/run-access';
import { getSessionUser } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { getCompanyById, listDocumentsForCompany, listEvidenceTimeline } from '@/lib/db/queries/companies';
import { getWatchEntry, listOwnCasesOfCompany, listSightings } from '@/lib/db/queries/watch';
import { watchReach, type WatchEntryView } from '@/lib/domain/watch';
import { watchMessages } from '@/lib/i18n/messages/watch';
import { listPassages } from '@/lib/db/queries/documents';
import { passageHref } from '@/lib/domain/passage';
import { documentMessages } from '@/lib/i18n/messages/documents';
import type { Locale } from '@/lib/i18n';
import { poolMessages } from '@/lib/i18n/messages/pool';
import { getLocale, getT } from '@/lib/i18n/server';
import { filingSourceConfigured, filingSourcesFor } from '@/lib/pool/connectors/fetch-filings';
import { importLimits } from '@/lib/pool/import/upload';
import { poolRedFlags } from '@/lib/report/red-flag-refs';
import { isoToday } from '@/lib/util/dates';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  const [db, user, t, locale] = await Promise.all([getDb(), getSessionUser(), getT(poolMessages), getLocale()]);
  // The name only to whoever may read the company: the page itself answers 404 to anyone else.
  const company = user && (await mayReadCompany({ db, user, companyId: id })) ? await getCompanyById({ db, id }) : undefined;
  return { title: company ? companyName(company, locale) : t('company') };
}

/** The registered (often Korean) name in Korean, the English name in English. */
function companyName(company: { name: string; nameEn: string | null }, locale: Locale) {
  return locale === 'ko' ? company.name : (company.nameEn ?? company.name);
}

const PER_FACTOR = 20;

export default async function CompanyPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  // RMs and admins read any company; the committee the borrower of a case it may read.
  const user = await requireCompanyAccess(id);
  const [t, tw, locale] = await Promise.all([getT(poolMessages), getT(watchMessages), getLocale()]);
  const db = await getDb();
  const company = await getCompanyById({ db, id });
  if (!company) notFound();
  const expand = (await searchParams).factor;
  const expanded = typeof expand === 'string' ? expand : undefined;
  // Red flags in the pool as it stands today: everything published by today is read.
  const today = isoToday();
  const [{ items: evidence, totals }, docs, redFlags] = await Promise.all([
    listEvidenceTimeline({ db, companyId: id, perFactor: PER_FACTOR, factor: expanded }),
    listDocumentsForCompany({ db, companyId: id }),
    poolRedFlags({ db, companyId: id, asOf: today }),
  ]);
  const evidenceTotal = totals.reduce((n, t) => n + t.total, 0);
  // The watch: an RM's own entry and cases; "check now" for administrators; the timeline for every reader.
  const canWatch = can(user.role, 'watch:write');
  const canCheck = can(user.role, 'watch:check');
  const [entry, ownCases, sightings] = await Promise.all([
    canWatch ? getWatchEntry({ db, ownerId: user.id, companyId: id }) : undefined,
    canWatch ? listOwnCasesOfCompany({ db, ownerId: user.id, companyId: id }) : [],
    listSightings({ db, companyId: id }),
  ]);
  const entryView: WatchEntryView | null = entry
    ? {
        id: entry.id,
        frequency: entry.frequency,
        caseId: entry.caseId,
        autoRescreen: entry.autoRescreen,
        adverseThreshold: entry.adverseThreshold,
        nextCheckAt: entry.nextCheckAt.toISOString(),
        lastCheckedAt: entry.lastCheckedAt?.toISOString() ?? null,
        lastError: entry.lastError,
        lastProblems: entry.lastProblems ?? [],
      }
    : null;
  const passages = Object.fromEntries((await listPassages({ db, evidenceIds: evidence.map((e) => e.id) })).map((p) => [p.evidenceId, passageHref(p)]));
  const td = await getT(documentMessages);
  const editable = can(user.role, 'pool:write');
  const filingSources = filingSourcesFor(company).map((source) => ({
    source,
    label: source === 'dart' ? 'OpenDART' : 'SEC EDGAR',
    configured: filingSourceConfigured(source),
    setting: source === 'dart' ? 'OPENDART_API_KEY' : 'SEC_USER_AGENT',
  }));
  const link = 'text-blue-800 underline underline-offset-2 dark:text-blue-300';

  return (
    <>
      <PageHeader title={companyName(company, locale)} description={company.description ?? undefined} />
      {company.soleProprietor ? <SoleProprietorWarning /> : null}
      {redFlags.flags.length ? (
        <div className="mb-6">
          <RedFlagsPanel flags={redFlags.flags} evidence={redFlags.evidence} scope={{ kind: 'company', date: today }} />
        </div>
      ) : null}
      <div className="mb-8 grid grid-cols-1 gap-4 md:grid-cols-3">
        <Card title={t('profile')}>
          <dl className="space-y-1 text-sm">
            {[
              [t('name'), company.name],
              ...(company.nameEn && company.nameEn !== company.name ? [[t('nameEn'), company.nameEn]] : []),
              [t('country'), company.country],
              [t('industry'), company.industry ?? '—'],
              [t('id'), company.id],
              ...Object.entries(company.identifiers).map(([k, v]) => {
                const key = `ident_${k}`;
                return [key in poolMessages.en ? t(key as keyof typeof poolMessages.en) : k, v];
              }),
            ].map(([k, v]) => (
              <div key={k}>
                <dt className="inline font-medium">{k}: </dt>
                <dd className="inline break-words">{v}</dd>
              </div>
            ))}
          </dl>
          {editable ? <SoleProprietorToggle companyId={company.id} value={company.soleProprietor} /> : null}
          {editable && filingSources.length ? (
            <div className="mt-4">
              <FetchFilings companyId={company.id} sources={filingSources} />
            </div>
          ) : null}
        </Card>
        <Card title={t('documentsHeading', { n: docs.length })} className="md:col-span-2">
          {docs.length ? (
            <ul className="space-y-1 text-sm">
              {docs.map((d) => (
                <li key={d.id}>
                  <Link className={link} href={`/companies/${company.id}/documents/${d.id}`}>
                    {d.title}
                  </Link>{' '}
                  <span className="text-zinc-600 dark:text-zinc-400">
                    · {d.publishedDate} · {d.sourceName} · {t('documentMeta', { chars: Math.max(1, Math.round(d.length / 1000)) })}
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('noDocuments')}</p>
          )}
        </Card>
      </div>

      <div className="mb-8 grid grid-cols-1 gap-4 md:grid-cols-3">
        {canWatch || canCheck ? (
          <Card title={tw('heading')}>
            <WatchPanel
              companyId={company.id}
              entry={entryView}
              cases={ownCases.map((c) => ({ id: c.id, title: c.title, asOfDate: c.asOfDate }))}
              canWatch={canWatch}
              canCheck={canCheck}
              reach={watchReach(company, (source) => filingSourceConfigured(source))}
            />
          </Card>
        ) : null}
        <Card title={tw('timelineHeading')} className={canWatch || canCheck ? 'md:col-span-2' : 'md:col-span-3'}>
          <FilingSightings sightings={sightings.map((s) => ({ ...s, seenAt: s.seenAt.toISOString() }))} />
        </Card>
      </div>

      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-lg font-semibold">{t('evidenceByFactor', { n: evidenceTotal })}</h2>
        {editable ? (
          <Link className={link} href="/import">
            {t('importFile')}
          </Link>
        ) : null}
      </div>
      {editable ? (
        <details className="mb-6 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
          <summary className="cursor-pointer font-medium">{t('addItem')}</summary>
          <div className="mt-4">
            <AddEvidenceForm companyId={company.id} />
          </div>
        </details>
      ) : null}
      {editable ? (
        <details className="mb-6 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900">
          <summary className="cursor-pointer font-medium" data-testid="upload-document-toggle">
            {td('uploadHeading')}
          </summary>
          <div className="mt-4">
            <UploadDocument companyId={company.id} maxFileBytes={importLimits().maxFileBytes} today={today} />
          </div>
        </details>
      ) : null}
      {evidence.length ? (
        <EvidenceTimeline evidence={evidence} totals={totals} editable={editable} companyId={company.id} expanded={expanded} passages={passages} />
      ) : (
        <EmptyState title={t('noEvidence')}>{t('noEvidenceHint')}</EmptyState>
      )}
    </>
  );
}
