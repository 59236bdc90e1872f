// The rule for who may see and work on a case and its runs, as pure functions (pages, server
// actions and route handlers reach it through lib/auth/run-access.ts):
// - the RM who owns the case reads and works on it (starts, cancels, retries runs, exports,
//   submits); a run without a case (CLI, benchmark) belongs to whoever created it;
// - a credit-committee member reads a case once it has been submitted, never a draft;
// - evaluators and administrators never open case runs (evaluators see blinded study reports);
// - a company's page, evidence and documents: RMs and administrators any company in the pool, a
//   committee member the borrower of a case it may read (so the borrower link on a submitted case
//   opens), evaluators none.
import type { SessionUser } from '@/lib/auth/session';
import type { cases, runs } from '@/lib/db/schema';
import type { CaseStatus } from '@/lib/domain/vocabulary';

export type Access = 'read' | 'write';

/**
 * Case statuses a committee member may read: everything after the RM submitted it, including a
 * case the committee returned (its decision and threads stay visible while the RM reworks it).
 */
export const COMMITTEE_VISIBLE: readonly CaseStatus[] = ['submitted', 'decided', 'returned'];

type CaseRow = typeof cases.$inferSelect;
type RunRow = typeof runs.$inferSelect;

export function canAccessCase(user: Pick<SessionUser, 'id' | 'role'>, kase: Pick<CaseRow, 'ownerId' | 'status'>, access: Access): boolean {
  if (user.role === 'rm') return kase.ownerId === user.id;
  if (user.role === 'committee') return access === 'read' && COMMITTEE_VISIBLE.includes(kase.status);
  return false;
}

export function canAccessRun(
  user: Pick<SessionUser, 'id' | 'role'>,
  run: Pick<RunRow, 'createdById'>,
  kase: Pick<CaseRow, 'ownerId' | 'status'> | null,
  access: Access,
): boolean {
  if (kase) return canAccessCase(user, kase, access);
  return user.role === 'rm' && run.createdById === user.id;
}

/**
 * Whether the user may read a company's page, its evidence and documents, given the statuses of
 * the cases whose borrower it is (lib/db/queries/cases.ts listCaseStatusesOfCompany).
 */
export function canReadCompany(user: Pick<SessionUser, 'role'>, borrowerCaseStatuses: readonly CaseStatus[]): boolean {
  if (user.role === 'rm' || user.role === 'admin') return true;
  if (user.role === 'committee') return borrowerCaseStatuses.some((status) => COMMITTEE_VISIBLE.includes(status));
  return false;
}
