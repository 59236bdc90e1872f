import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { DocumentCandidates } from '@/components/pool/document-candidates';
import { DocumentReader } from '@/components/pool/document-reader';
import { RereadDocument } from '@/components/pool/reread-document';
import { formatUsd } from '@/components/run/live-format';
import { Alert, PageHeader } from '@/components/ui/layout';
import { can } from '@/lib/auth/permissions';
import { requireCompanyAccess } from '@/lib/auth/run-access';
import { getDb } from '@/lib/db/client';
import { getCompanyById, getDocument } from '@/lib/db/queries/companies';
import { listCandidates } from '@/lib/db/queries/documents';
import { parsePassageRange, passageHref, type CandidateView } from '@/lib/domain/passage';
import { documentMessages } from '@/lib/i18n/messages/documents';
import { poolMessages } from '@/lib/i18n/messages/pool';
import { getLocale, getT } from '@/lib/i18n/server';
import { readerConfigured } from '@/lib/jobs/document-reading';
import { priceOf } from '@/lib/llm/prices';
import { readingOf, readingsOf } from '@/lib/pool/documents/model-reading';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(poolMessages))('document') };
}

/** The pages of an uploaded PDF, as ingest.ts keeps them in the document's meta: [page, start, end]. */
function pageCount(meta: Record<string, unknown>) {
  return Array.isArray(meta.pages) ? meta.pages.length : 0;
}

export default async function DocumentPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string; documentId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id, documentId } = await params;
  const user = await requireCompanyAccess(id);
  const [t, td, locale] = await Promise.all([getT(poolMessages), getT(documentMessages), getLocale()]);
  const db = await getDb();
  const docId = decodeURIComponent(documentId);
  const [company, doc] = await Promise.all([getCompanyById({ db, id }), getDocument({ db, companyId: id, id: docId })]);
  if (!company || !doc) notFound();
  const highlight = parsePassageRange((await searchParams).at, doc.body.length);
  const editable = can(user.role, 'pool:write');
  // The model's own words for each of its candidates, kept apart from the candidate's text.
  const modelReadings = readingsOf(doc.meta);
  const candidates: CandidateView[] = editable
    ? (await listCandidates({ db, documentId: doc.id })).map((c) => ({
        id: c.id,
        status: c.status,
        proposedBy: c.proposedBy,
        reason: c.reason,
        category: c.category,
        factor: c.factor,
        title: c.title,
        text: c.text,
        eventDate: c.eventDate,
        publishedDate: c.publishedDate,
        page: c.page,
        charStart: c.charStart,
        charEnd: c.charEnd,
        evidenceId: c.evidenceId,
        reading: c.proposedBy === 'model' ? (modelReadings[`${c.charStart}:${c.charEnd}`] ?? null) : null,
      }))
    : [];
  const hrefs = Object.fromEntries(
    candidates.map((c) => [c.id, passageHref({ companyId: company.id, documentId: doc.id, charStart: c.charStart, charEnd: c.charEnd })]),
  );
  const active = highlight ? (candidates.find((c) => c.charStart === highlight.start && c.charEnd === highlight.end)?.id ?? null) : null;
  const reading = editable ? readingOf(doc.meta) : null;
  // A reading that failed or was stopped can be asked for again while a model is configured.
  const modelConfigured = reading !== null && readerConfigured();
  const format = doc.meta.format;
  const pages = pageCount(doc.meta);
  return (
    <>
      <p className="mb-2 text-sm">
        <Link className="text-blue-800 underline underline-offset-2 dark:text-blue-300" href={`/companies/${company.id}`}>
          ← {locale === 'ko' ? company.name : (company.nameEn ?? company.name)}
        </Link>
      </p>
      <PageHeader
        title={doc.title}
        description={
          <>
            {doc.kind.replaceAll('_', ' ')} · {t('published', { date: doc.publishedDate })} ·{' '}
            <a className="text-blue-800 underline dark:text-blue-300" href={doc.sourceUrl} target="_blank" rel="noreferrer noopener">
              {doc.sourceName}
            </a>
            {format === 'pdf'
              ? ` · ${td('formatPdf', { pages })}`
              : format === 'dart'
                ? ` · ${td('formatDart')}`
                : format === 'html'
                  ? ` · ${td('formatHtml')}`
                  : null}
            {doc.license ? <span className="block text-xs">{t('licence', { license: doc.license })}</span> : null}
          </>
        }
      />
      {reading ? (
        <div className="mb-4" data-testid="model-reading" data-state={reading.state}>
          {reading.state === 'reading' ? (
            <Alert tone={reading.stalled ? 'error' : 'info'}>
              {reading.stalled
                ? td('modelStalled', { model: reading.model, time: new Date(reading.startedAt).toISOString().slice(0, 16).replace('T', ' ') + ' UTC' })
                : td('modelReading', { model: reading.model })}
              {reading.stalled && modelConfigured ? <RereadDocument documentId={doc.id} /> : null}
            </Alert>
          ) : reading.state === 'failed' ? (
            <Alert tone="error">
              {td('modelFailed', { model: reading.model, reason: reading.reason })}
              {modelConfigured ? <RereadDocument documentId={doc.id} /> : null}
            </Alert>
          ) : (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">
              {td('modelDone', {
                model: reading.model,
                chunks: reading.chunksRead,
                n: reading.proposed,
                // A reading recorded before quotes were checked for length counted no notStatement.
                dropped:
                  reading.dropped.notQuoted +
                  (reading.dropped.notStatement ?? 0) +
                  reading.dropped.unknownCategory +
                  reading.dropped.unknownFactor +
                  reading.dropped.duplicate,
                tokens: reading.promptTokens + reading.completionTokens,
                cost: priceOf(reading.model).known ? formatUsd(reading.costUsd) : td('modelCostUnknown'),
              })}
            </p>
          )}
        </div>
      ) : null}
      {highlight ? (
        <div className="mb-4">
          <Alert tone="info">{td('passageHighlighted')}</Alert>
        </div>
      ) : null}
      <div className={candidates.length ? 'grid gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]' : ''}>
        <DocumentReader body={doc.body} highlight={highlight} />
        {candidates.length ? (
          <aside className="lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:self-start lg:overflow-y-auto">
            <DocumentCandidates candidates={candidates} hrefs={hrefs} active={active} editable={editable} />
          </aside>
        ) : null}
      </div>
    </>
  );
}
