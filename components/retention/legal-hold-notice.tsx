import { Badge } from '@/components/ui/layout';
import { retentionMessages } from '@/lib/i18n/messages/retention';
import { getT } from '@/lib/i18n/server';

/**
 * "On legal hold" on a case page while a hold keeps the case (its own or its borrower's), with
 * the reason (docs/retention.md). Nothing when there is none. Every role that may read the case
 * sees it: it says the case's records are kept, not why in any detail beyond the admin's reason.
 */
export async function LegalHoldNotice({ holds }: { holds: readonly { reason: string; onBorrower: boolean }[] }) {
  if (!holds.length) return null;
  const t = await getT(retentionMessages);
  return (
    <div className="mb-4 flex flex-wrap items-start gap-2" data-testid="legal-hold">
      <Badge tone="amber">{holds.some((h) => !h.onBorrower) ? t('onHold') : t('onHoldBorrower')}</Badge>
      <p className="min-w-0 flex-1 text-sm break-words text-zinc-700 dark:text-zinc-300">
        {t('onHoldHint', { reason: holds.map((h) => h.reason).join('; ') })}
      </p>
    </div>
  );
}
