import type { Metadata } from 'next';
import { formatDateTime } from '@/components/lists/format';
import { Badge, Card, DataTable, PageHeader, Td } from '@/components/ui/layout';
import { ROLE_LABELS } from '@/lib/auth/permissions';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { listUsers } from '@/lib/db/queries/users';
import { CreateUserForm, UserRowActions } from './user-forms';

export const metadata: Metadata = { title: 'Users' };

export default async function UsersPage() {
  const admin = await requirePermission('users:manage');
  const users = await listUsers({ db: await getDb() });
  const now = new Date();
  return (
    <>
      <PageHeader title="Users" description="Accounts, roles and access. Every change is recorded in the audit log." />
      <Card title="Create a user" className="mb-8">
        <CreateUserForm />
      </Card>
      <DataTable caption="All users" head={['User', 'Role', 'Status', 'Last sign-in', 'Manage']}>
        {users.map((u) => (
          <tr key={u.id} data-testid="user-row">
            <Td>
              <span className="font-medium">{u.name}</span>
              <span className="block text-xs text-zinc-600 dark:text-zinc-400">{u.email}</span>
            </Td>
            <Td>{ROLE_LABELS[u.role]}</Td>
            <Td>
              <div className="flex flex-wrap gap-1">
                {u.disabled ? <Badge tone="red">disabled</Badge> : <Badge tone="green">active</Badge>}
                {u.lockedUntil && u.lockedUntil > now ? <Badge tone="amber">locked</Badge> : null}
                {u.demo ? <Badge>demo</Badge> : null}
              </div>
            </Td>
            <Td className="whitespace-nowrap">{formatDateTime(u.lastLoginAt)}</Td>
            <Td>
              <UserRowActions user={{ id: u.id, email: u.email, role: u.role, disabled: u.disabled }} isSelf={u.id === admin.id} />
            </Td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}
