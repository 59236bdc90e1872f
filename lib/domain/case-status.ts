// The status a case shows its readers. The stored status moves draft → analyzing when the first
// run starts and stays there after the runs end, until the RM submits; shown as it is stored,
// a case would read "Analyzing" with nothing running. So "analyzing" is shown only while a run
// of the case is queued or running, and a case between analyses reads "not submitted".
import type { CaseStatus } from '@/lib/domain/vocabulary';

export type ShownCaseStatus = CaseStatus | 'not_submitted';

export function shownCaseStatus(status: CaseStatus, activeRunCount: number): ShownCaseStatus {
  if (status === 'draft' || status === 'analyzing') return activeRunCount > 0 ? 'analyzing' : status === 'draft' ? 'draft' : 'not_submitted';
  return status;
}

/**
 * What the owning RM is told on a case no longer open to new runs: with the committee while it is
 * submitted, decided once the committee has decided; null while the RM may still work on it.
 */
export function closedCaseNote(status: CaseStatus): 'withCommittee' | 'caseDecided' | null {
  if (status === 'submitted') return 'withCommittee';
  if (status === 'decided') return 'caseDecided';
  return null;
}
