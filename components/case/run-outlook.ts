// What the run launcher says, before *Start*, about a run that will not debate: its words come
// from here (no JSX, no directive) so a test reads them as the page shows them.
import type { Translate } from '@/lib/i18n';
import type { runOutlookMessages } from '@/lib/i18n/messages/run-outlook';
import type { RunOutlook } from '@/lib/debate/sufficiency';

/** The outlook of a new run of the case (lib/debate/outlook.ts), with the case's as-of date and company. */
export type LauncherOutlook = RunOutlook & { asOf: string; companyId: string };

export type OutlookNotice = {
  kind: 'screening' | 'insufficient';
  title: string;
  text: string;
  /** Leads into the links to the import page and the company page. */
  next: string;
};

/**
 * What the launcher says in the place of the time and cost estimate; null for a debate, which
 * gets the estimate. A screening or an insufficient-evidence run calls no model, so it has no
 * model time or cost to estimate.
 */
export function outlookNotice(outlook: LauncherOutlook, t: Translate<typeof runOutlookMessages.en>): OutlookNotice | null {
  if (outlook.kind === 'debate') return null;
  const { items, factors, minItems, minFactors } = outlook.shortfall;
  const counts = { asOf: outlook.asOf, items, factors, minItems, minFactors };
  if (outlook.kind === 'screening') {
    return { kind: 'screening', title: t('screeningTitle'), text: t('screening', { ...counts, flags: outlook.redFlags }), next: t('screeningNext') };
  }
  return { kind: 'insufficient', title: t('insufficientTitle'), text: t('insufficient', counts), next: t('insufficientNext') };
}
