// Who may read a company (its page, evidence and documents), against the database: the rule is
// canReadCompany in lib/auth/access-rules.ts; pages reach it through lib/auth/run-access.ts.
import { canReadCompany } from '@/lib/auth/access-rules';
import type { SessionUser } from '@/lib/auth/session';
import type { Executor } from '@/lib/db/client';
import { listCaseStatusesOfCompany } from '@/lib/db/queries/cases';

export async function mayReadCompany({ db, user, companyId }: { db: Executor; user: Pick<SessionUser, 'role'>; companyId: string }): Promise<boolean> {
  // RMs and administrators read every company without a look at its cases.
  if (canReadCompany(user, [])) return true;
  if (user.role !== 'committee') return false;
  return canReadCompany(user, await listCaseStatusesOfCompany({ db, companyId }));
}
