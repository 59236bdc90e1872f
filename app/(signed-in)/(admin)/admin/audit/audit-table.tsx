// One page of the audit log. Actions and details read as words in the reader's language
// (lib/ops/audit-detail.ts), with the recorded action code beside its name; the hash is
// shortened for reading; the first broken entry, when a verification found one on this page, is
// marked.
import { DataTable, Td } from '@/components/ui/layout';
import type { AuditEntry } from '@/lib/db/queries/audit';
import { auditMessages } from '@/lib/i18n/messages/audit';
import { getLocale, getT } from '@/lib/i18n/server';
import { auditActionLabel, auditDetailFields, auditEntityLabel } from '@/lib/ops/audit-detail';

export async function AuditTable({ rows, brokenAt }: { rows: AuditEntry[]; brokenAt: number | null }) {
  const t = await getT(auditMessages);
  const locale = await getLocale();
  return (
    <DataTable caption={t('caption')} head={[t('colSeq'), t('colAt'), t('colActor'), t('colAction'), t('colEntity'), t('colDetail'), t('colHash')]}>
      {rows.map((r) => {
        const broken = r.seq === brokenAt;
        return (
          <tr
            key={r.seq}
            data-testid="audit-row"
            data-seq={r.seq}
            data-broken={broken || undefined}
            className={broken ? 'bg-red-50 dark:bg-red-950' : undefined}
          >
            <Td className="font-mono">
              {r.seq}
              {broken ? <span className="ml-1 font-sans text-xs font-semibold text-red-800 dark:text-red-200">({t('brokenRow')})</span> : null}
            </Td>
            <Td className="whitespace-nowrap">{r.at.toISOString().replace('T', ' ').slice(0, 19)}</Td>
            <Td>{r.actorName ? <span title={r.actorEmail ?? undefined}>{r.actorName}</span> : t('system')}</Td>
            <Td>
              <span className="block" data-testid="audit-action-label">
                {auditActionLabel(r.action, locale)}
              </span>
              <span className="block font-mono text-xs text-zinc-600 dark:text-zinc-400" data-testid="audit-action">
                {r.action}
              </span>
            </Td>
            <Td className="break-all">
              {auditEntityLabel(r.entityType, locale)}
              {r.entityId ? <span className="block font-mono text-xs text-zinc-600 dark:text-zinc-400">{r.entityId}</span> : null}
              {/* An admin opens no case page: the examiner's case file is had from here (docs/case-file.md). */}
              {r.entityType === 'case' && r.entityId ? (
                <a
                  href={`/api/cases/${encodeURIComponent(r.entityId)}/file`}
                  download
                  className="block text-xs text-blue-800 underline dark:text-blue-300"
                  data-testid="audit-case-file"
                >
                  {t('caseFile')}
                </a>
              ) : null}
            </Td>
            <Td className="max-w-md text-xs">
              <AuditDetail fields={auditDetailFields(r.detail, locale)} />
            </Td>
            <Td className="font-mono text-xs">
              <span title={r.hash}>{r.hash.slice(0, 12)}</span>
            </Td>
          </tr>
        );
      })}
    </DataTable>
  );
}

function AuditDetail({ fields }: { fields: ReturnType<typeof auditDetailFields> }) {
  if (!fields.length) return null;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5" data-testid="audit-detail">
      {fields.map((f) => (
        <div key={f.key} className="contents" data-field={f.key}>
          <dt className="font-medium text-zinc-700 dark:text-zinc-300">{f.label}</dt>
          <dd className="break-words">{f.value}</dd>
        </div>
      ))}
    </dl>
  );
}
