// The warning on a case (and the committee's queue) whose borrower is a sole proprietor: an
// individual in business. The tool screens businesses, never a natural person (docs/oversight.md).
import { oversightMessages } from '@/lib/i18n/messages/oversight';
import { getT } from '@/lib/i18n/server';

export async function SoleProprietorWarning() {
  const t = await getT(oversightMessages);
  return (
    <div
      role="note"
      className="mb-6 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
      data-testid="sole-proprietor-warning"
    >
      <p>
        <strong className="font-semibold">{t('soleProprietorBadge')}.</strong> {t('soleProprietorWarning')}
      </p>
    </div>
  );
}
