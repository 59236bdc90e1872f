// Case, run and company access for pages, server actions and route handlers; the rules
// themselves are in lib/auth/access-rules.ts.
import { forbidden, notFound } from 'next/navigation';
import { canAccessCase, canAccessRun, type Access } from '@/lib/auth/access-rules';
import { mayReadCompany } from '@/lib/auth/company-access';
import { requirePermission, requireUser, type SessionUser } from '@/lib/auth/session';
import { getDb, type Executor } from '@/lib/db/client';
import { getCaseById } from '@/lib/db/queries/cases';
import { getRun } from '@/lib/db/queries/runs';
import { AppError } from '@/lib/errors';

export { canAccessCase, canAccessRun, type Access };

async function loadCase(db: Executor, id: string) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  return (await getCaseById({ db, id })) ?? null;
}

async function loadRun(db: Executor, id: string) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const run = await getRun({ db, id });
  if (!run) return null;
  return { run, kase: run.caseId ? await loadCase(db, run.caseId) : null };
}

/** For server actions and route handlers: the case, or an AppError (not_found hides what one may not see). */
export async function assertCaseAccess(user: SessionUser, caseId: string, access: Access) {
  const kase = await loadCase(await getDb(), caseId);
  if (!kase || !canAccessCase(user, kase, 'read')) throw new AppError('not_found', 'This case does not exist or is not yours.');
  if (!canAccessCase(user, kase, access)) throw new AppError('forbidden', 'You can read this case but not change it.');
  return kase;
}

export async function assertRunAccess(user: SessionUser, runId: string, access: Access) {
  const found = await loadRun(await getDb(), runId);
  if (!found || !canAccessRun(user, found.run, found.kase, 'read')) throw new AppError('not_found', 'This run does not exist or is not yours.');
  if (!canAccessRun(user, found.run, found.kase, access)) throw new AppError('forbidden', 'You can read this run but not change it.');
  return found;
}

/** For pages: the case, or the 404 page (a user who may not read it learns nothing), or 403 for writes. */
export async function requireCaseAccess(caseId: string, access: Access = 'read') {
  const user = await requireUser();
  const kase = await loadCase(await getDb(), caseId);
  if (!kase || !canAccessCase(user, kase, 'read')) notFound();
  if (!canAccessCase(user, kase, access)) forbidden();
  return { user, kase };
}

export async function requireRunAccess(runId: string, access: Access = 'read') {
  const user = await requireUser();
  const found = await loadRun(await getDb(), runId);
  if (!found || !canAccessRun(user, found.run, found.kase, 'read')) notFound();
  if (!canAccessRun(user, found.run, found.kase, access)) forbidden();
  return { user, ...found };
}

/**
 * For a company's page and documents: the user, or 403 for a role that never reads companies, or
 * the 404 page for a company this user may not read (a committee member and a company that is no
 * submitted case's borrower), so nothing is learned about it.
 */
export async function requireCompanyAccess(companyId: string) {
  const user = await requirePermission('borrowers:read');
  if (!(await mayReadCompany({ db: await getDb(), user, companyId }))) notFound();
  return user;
}
