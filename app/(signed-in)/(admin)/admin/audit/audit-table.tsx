// One page of the audit log. The hash is shortened for reading; the first broken entry, when a
// verification found one on this page, is marked.
import { DataTable, Td } from '@/components/ui/layout';
import type { AuditEntry } from '@/lib/db/queries/audit';
import { auditMessages } from '@/lib/i18n/messages/audit';
import { getT } from '@/lib/i18n/server';

function detailText(detail: Record<string, unknown>) {
  const text = JSON.stringify(detail);
  return text === '{}' ? '' : text.length > 240 ? `${text.slice(0, 239)}…` : text;
}

export async function AuditTable({ rows, brokenAt }: { rows: AuditEntry[]; brokenAt: number | null }) {
  const t = await getT(auditMessages);
  return (
    <DataTable caption={t('caption')} head={[t('colSeq'), t('colAt'), t('colActor'), t('colAction'), t('colEntity'), t('colDetail'), t('colHash')]}>
      {rows.map((r) => {
        const broken = r.seq === brokenAt;
        return (
          <tr key={r.seq} data-testid="audit-row" data-seq={r.seq} data-broken={broken || undefined} className={broken ? 'bg-red-50 dark:bg-red-950' : undefined}>
            <Td className="font-mono">
              {r.seq}
              {broken ? <span className="ml-1 font-sans text-xs font-semibold text-red-800 dark:text-red-200">({t('brokenRow')})</span> : null}
            </Td>
            <Td className="whitespace-nowrap">{r.at.toISOString().replace('T', ' ').slice(0, 19)}</Td>
            <Td>{r.actorName ? <span title={r.actorEmail ?? undefined}>{r.actorName}</span> : t('system')}</Td>
            <Td className="font-mono">
              <span data-testid="audit-action">{r.action}</span>
            </Td>
            <Td className="break-all">
              {r.entityType}
              {r.entityId ? <span className="block font-mono text-xs text-zinc-600 dark:text-zinc-400">{r.entityId}</span> : null}
            </Td>
            <Td className="max-w-md break-all font-mono text-xs">{detailText(r.detail)}</Td>
            <Td className="font-mono text-xs">
              <span title={r.hash}>{r.hash.slice(0, 12)}</span>
            </Td>
          </tr>
        );
      })}
    </DataTable>
  );
}
