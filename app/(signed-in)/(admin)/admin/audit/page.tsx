import type { Metadata } from 'next';
import Link from 'next/link';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { Alert, EmptyState, PageHeader } from '@/components/ui/layout';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { listAuditEntries, listAuditFacets, parseAuditFilters, verifyAuditChain, type AuditBreak, type AuditFilters } from '@/lib/db/queries/audit';
import { auditMessages } from '@/lib/i18n/messages/audit';
import { getLocale, getT } from '@/lib/i18n/server';
import { pseudonymiseRatingEntries } from '@/lib/eval/study-pseudonym';
import { auditActionLabel, auditEntityLabel } from '@/lib/ops/audit-detail';
import { AuditTable } from './audit-table';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(auditMessages))('title') };
}

const PAGE_SIZE = 50;
/** What each break means, in words (lib/db/queries/audit.ts AuditBreak). */
const REASON_KEYS = {
  link: 'reason_link',
  content: 'reason_content',
  key: 'reason_key',
  'unkeyed-after-keyed': 'reason_unkeyed',
  checkpoint: 'reason_checkpoint',
  missing: 'reason_missing',
  'missing-tail': 'reason_missing_tail',
  genesis: 'reason_genesis',
} as const satisfies Record<AuditBreak | 'missing-tail', string>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';

function query(filters: AuditFilters, extra: Record<string, string> = {}) {
  const q = new URLSearchParams();
  if (filters.action) q.set('action', filters.action);
  if (filters.actorId) q.set('actor', filters.actorId);
  if (filters.entityType) q.set('entity', filters.entityType);
  if (filters.from) q.set('from', filters.from);
  if (filters.to) q.set('to', filters.to);
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission('audit:read');
  const params = await searchParams;
  const filters = parseAuditFilters(params);
  const page = Math.max(1, Math.min(100_000, Number.parseInt(first(params.page), 10) || 1));
  const db = await getDb();
  const t = await getT(auditMessages);
  const locale = await getLocale();
  // Verification reads the whole chain, so it runs only when asked for (the Verify button).
  const [{ rows, total }, facets, verification] = await Promise.all([
    listAuditEntries({ db, filters, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }),
    listAuditFacets({ db }),
    first(params.verify) === '1' ? verifyAuditChain({ db }) : null,
  ]);
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const filtered = Object.values(filters).some(Boolean);
  const any = { value: '', label: t('any') };
  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <form method="get" data-testid="verify-form">
            {Object.entries(Object.fromEntries(new URLSearchParams(query(filters)))).map(([k, v]) => (
              <input key={k} type="hidden" name={k} value={v} />
            ))}
            <input type="hidden" name="verify" value="1" />
            <Button type="submit" variant="secondary" data-testid="verify-chain" aria-describedby="verify-hint">
              {t('verify')}
            </Button>
            <p id="verify-hint" className="sr-only">
              {t('verifyHint')}
            </p>
          </form>
        }
      />
      {verification ? (
        <div className="mb-4" data-testid="verify-result" data-ok={verification.ok}>
          {verification.ok ? (
            <Alert tone="success">
              {t('verifyOk', { n: verification.checked, checkpoint: verification.checkpoint ?? '—' })}
              {verification.unkeyed ? ` ${t('verifyUnkeyed', { n: verification.unkeyed })}` : null}
            </Alert>
          ) : (
            <Alert>
              <p className="font-semibold">
                {verification.reason === 'missing'
                  ? t('verifyMissing', { seq: verification.brokenAt, at: verification.at.toISOString(), n: verification.checked })
                  : t('verifyBroken', {
                      seq: verification.brokenAt,
                      at: verification.at.toISOString(),
                      action: verification.action ?? '',
                      n: verification.checked,
                    })}
              </p>
              <p className="mt-1" data-testid="verify-reason" data-reason={verification.reason}>
                {t(REASON_KEYS[verification.reason === 'missing' && verification.tail ? 'missing-tail' : verification.reason], { last: verification.lastGood })}
              </p>
            </Alert>
          )}
        </div>
      ) : null}
      <form method="get" className="mb-4 flex flex-wrap items-end gap-3" aria-label={t('filters')} data-testid="audit-filters">
        <div className="w-48">
          <SelectField
            id="action"
            label={t('filterAction')}
            defaultValue={filters.action ?? ''}
            options={[any, ...facets.actions.map((a) => ({ value: a, label: auditActionLabel(a, locale) }))]}
          />
        </div>
        <div className="w-56">
          <SelectField
            id="actor"
            label={t('filterActor')}
            defaultValue={filters.actorId ?? ''}
            options={[any, ...facets.actors.map((a) => ({ value: a.id, label: `${a.name} (${a.email})` }))]}
          />
        </div>
        <div className="w-40">
          <SelectField
            id="entity"
            label={t('filterEntity')}
            defaultValue={filters.entityType ?? ''}
            options={[any, ...facets.entityTypes.map((e) => ({ value: e, label: auditEntityLabel(e, locale) }))]}
          />
        </div>
        <div className="w-40">
          <TextField id="from" type="date" label={t('filterFrom')} defaultValue={filters.from ?? ''} />
        </div>
        <div className="w-40">
          <TextField id="to" type="date" label={t('filterTo')} defaultValue={filters.to ?? ''} />
        </div>
        <Button type="submit" variant="secondary" data-testid="audit-apply">
          {t('apply')}
        </Button>
        {filtered ? (
          <Link href="/admin/audit" className="px-2 py-2 text-sm text-blue-800 underline dark:text-blue-300">
            {t('clear')}
          </Link>
        ) : null}
      </form>
      {rows.length ? (
        <>
          {/* Evaluators' ratings under their pseudonym in the study, never their name (docs/security.md). */}
          <AuditTable rows={pseudonymiseRatingEntries(rows)} brokenAt={verification && !verification.ok ? verification.brokenAt : null} />
          <nav aria-label={t('paging')} className="mt-4 flex items-center gap-4 text-sm">
            {page > 1 ? (
              <Link
                href={`/admin/audit${query(filters, { page: String(page - 1) })}`}
                className="text-blue-800 underline dark:text-blue-300"
                data-testid="audit-prev"
              >
                {t('previous')}
              </Link>
            ) : null}
            <span data-testid="audit-page">{t('pageOf', { page, pages, total })}</span>
            {page < pages ? (
              <Link
                href={`/admin/audit${query(filters, { page: String(page + 1) })}`}
                className="text-blue-800 underline dark:text-blue-300"
                data-testid="audit-next"
              >
                {t('next')}
              </Link>
            ) : null}
          </nav>
        </>
      ) : (
        <EmptyState title={t('noEntries')}>{filtered ? t('noEntriesHint') : null}</EmptyState>
      )}
    </>
  );
}
