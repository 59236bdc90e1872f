import type { Metadata } from 'next';
import Link from 'next/link';
import { AssignmentsList } from '@/components/lists/assignments-list';
import { CasesTable } from '@/components/lists/cases-table';
import { CompaniesTable } from '@/components/lists/companies-table';
import { Card, EmptyState, PageHeader } from '@/components/ui/layout';
import { requirePermission, type SessionUser } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { listCasesByStatus, listCasesForOwner } from '@/lib/db/queries/cases';
import { listCompaniesWithCounts } from '@/lib/db/queries/companies';
import { listAssignmentsForEvaluator, listStudies } from '@/lib/db/queries/studies';
import { listUsers } from '@/lib/db/queries/users';
import type { Translate } from '@/lib/i18n';
import { homeMessages } from '@/lib/i18n/messages/home';
import { roleKey, shellMessages } from '@/lib/i18n/messages/shell';
import { getT } from '@/lib/i18n/server';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(homeMessages))('metaTitle') };
}

type T = Translate<(typeof homeMessages)['en']>;

export default async function HomePage() {
  const user = await requirePermission('app:use');
  const [t, shell] = await Promise.all([getT(homeMessages), getT(shellMessages)]);
  return (
    <>
      <PageHeader title={t('welcome', { name: user.name })} description={shell(roleKey(user.role))} />
      <div data-testid={`home-${user.role}`}>
        <RoleHome user={user} t={t} />
      </div>
    </>
  );
}

const linkClass = 'text-sm text-blue-800 underline underline-offset-2 dark:text-blue-300';

async function RoleHome({ user, t }: { user: SessionUser; t: T }) {
  const db = await getDb();
  switch (user.role) {
    case 'rm': {
      const [cases, companies] = await Promise.all([listCasesForOwner({ db, ownerId: user.id }), listCompaniesWithCounts({ db })]);
      return (
        <div className="space-y-8">
          <section>
            <h2 className="mb-3 text-lg font-semibold">{t('yourCases')}</h2>
            {cases.length ? <CasesTable cases={cases.slice(0, 10)} caption={t('recentCases')} /> : <EmptyState title={t('noCases')} />}
          </section>
          <section>
            <div className="mb-3 flex items-baseline justify-between">
              <h2 className="text-lg font-semibold">{t('poolBorrowers')}</h2>
              <Link className={linkClass} href="/companies">
                {t('allCompanies')}
              </Link>
            </div>
            {companies.length ? <CompaniesTable companies={companies} /> : <EmptyState title={t('poolEmpty')} />}
          </section>
        </div>
      );
    }
    case 'committee': {
      const waiting = await listCasesByStatus({ db, statuses: ['submitted'] });
      return waiting.length ? (
        <CasesTable cases={waiting} caption={t('waitingCaption')} showOwner />
      ) : (
        <EmptyState title={t('nothingWaiting')}>{t('nothingWaitingHint')}</EmptyState>
      );
    }
    case 'evaluator': {
      const assignments = await listAssignmentsForEvaluator({ db, evaluatorId: user.id });
      return assignments.length ? <AssignmentsList assignments={assignments} /> : <EmptyState title={t('noAssignments')}>{t('noAssignmentsHint')}</EmptyState>;
    }
    case 'admin': {
      const [users, studies] = await Promise.all([listUsers({ db }), listStudies({ db })]);
      const active = users.filter((u) => !u.disabled).length;
      return (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
          <Card title={t('users')}>
            <p className="text-3xl font-semibold" data-testid="user-count">
              {users.length}
            </p>
            <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('activeUsers', { n: active })}</p>
            <Link className={linkClass} href="/admin/users">
              {t('manageUsers')}
            </Link>
          </Card>
          <Card title={t('studies')}>
            <p className="text-3xl font-semibold">{studies.length}</p>
            <Link className={linkClass} href="/admin/studies">
              {t('evaluationStudies')}
            </Link>
          </Card>
        </div>
      );
    }
  }
}
