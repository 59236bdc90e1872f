import type { Metadata } from 'next';
import Link from 'next/link';
import { AssignmentsList } from '@/components/lists/assignments-list';
import { CasesTable } from '@/components/lists/cases-table';
import { CompaniesTable } from '@/components/lists/companies-table';
import { Card, EmptyState, PageHeader } from '@/components/ui/layout';
import { ROLE_LABELS } from '@/lib/auth/permissions';
import { requirePermission, type SessionUser } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { listCasesByStatus, listCasesForOwner } from '@/lib/db/queries/cases';
import { listCompaniesWithCounts } from '@/lib/db/queries/companies';
import { listAssignmentsForEvaluator, listStudies } from '@/lib/db/queries/studies';
import { listUsers } from '@/lib/db/queries/users';

export const metadata: Metadata = { title: 'Home' };

export default async function HomePage() {
  const user = await requirePermission('app:use');
  return (
    <>
      <PageHeader title={`Welcome, ${user.name}`} description={ROLE_LABELS[user.role]} />
      <div data-testid={`home-${user.role}`}>
        <RoleHome user={user} />
      </div>
    </>
  );
}

const linkClass = 'text-sm text-blue-800 underline underline-offset-2 dark:text-blue-300';

async function RoleHome({ user }: { user: SessionUser }) {
  const db = await getDb();
  switch (user.role) {
    case 'rm': {
      const [cases, companies] = await Promise.all([listCasesForOwner({ db, ownerId: user.id }), listCompaniesWithCounts({ db })]);
      return (
        <div className="space-y-8">
          <section>
            <h2 className="mb-3 text-lg font-semibold">Your cases</h2>
            {cases.length ? <CasesTable cases={cases.slice(0, 10)} caption="Your most recent cases" /> : <EmptyState title="No cases yet" />}
          </section>
          <section>
            <div className="mb-3 flex items-baseline justify-between">
              <h2 className="text-lg font-semibold">Borrowers in the knowledge pool</h2>
              <Link className={linkClass} href="/companies">
                All companies
              </Link>
            </div>
            {companies.length ? <CompaniesTable companies={companies} /> : <EmptyState title="The knowledge pool is empty" />}
          </section>
        </div>
      );
    }
    case 'committee': {
      const waiting = await listCasesByStatus({ db, statuses: ['submitted'] });
      return waiting.length ? (
        <CasesTable cases={waiting} caption="Cases waiting for a decision" showOwner />
      ) : (
        <EmptyState title="Nothing waiting for the committee">Submitted cases will appear here and under Review.</EmptyState>
      );
    }
    case 'evaluator': {
      const assignments = await listAssignmentsForEvaluator({ db, evaluatorId: user.id });
      return assignments.length ? (
        <AssignmentsList assignments={assignments} />
      ) : (
        <EmptyState title="No reports assigned to you">You will see blinded reports here when a study includes you.</EmptyState>
      );
    }
    case 'admin': {
      const [users, studies] = await Promise.all([listUsers({ db }), listStudies({ db })]);
      const active = users.filter((u) => !u.disabled).length;
      return (
        <div className="grid gap-4 md:grid-cols-2">
          <Card title="Users">
            <p className="text-3xl font-semibold" data-testid="user-count">{users.length}</p>
            <p className="text-sm text-zinc-600 dark:text-zinc-400">{active} active</p>
            <Link className={linkClass} href="/admin/users">
              Manage users
            </Link>
          </Card>
          <Card title="Studies">
            <p className="text-3xl font-semibold">{studies.length}</p>
            <Link className={linkClass} href="/admin/studies">
              Evaluation studies
            </Link>
          </Card>
        </div>
      );
    }
  }
}
