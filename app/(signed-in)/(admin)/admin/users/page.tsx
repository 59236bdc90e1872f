import type { Metadata } from 'next';
import { formatDateTime } from '@/components/lists/format';
import { Badge, Card, DataTable, PageHeader, Td } from '@/components/ui/layout';
import { requirePermission } from '@/lib/auth/session';
import { getDb } from '@/lib/db/client';
import { listUsers } from '@/lib/db/queries/users';
import { adminMessages } from '@/lib/i18n/messages/admin';
import { roleKey, shellMessages } from '@/lib/i18n/messages/shell';
import { getLocale, getT } from '@/lib/i18n/server';
import { CreateUserForm, UserRowActions } from './user-forms';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(adminMessages))('usersTitle') };
}

export default async function UsersPage() {
  const admin = await requirePermission('users:manage');
  const [t, shell, locale] = await Promise.all([getT(adminMessages), getT(shellMessages), getLocale()]);
  const users = await listUsers({ db: await getDb() });
  const now = new Date();
  return (
    <>
      <PageHeader title={t('usersTitle')} description={t('usersDescription')} />
      <Card title={t('createUser')} className="mb-8">
        <CreateUserForm />
      </Card>
      <DataTable caption={t('allUsers')} head={[t('colUser'), t('colRole'), t('colStatus'), t('colLastSignIn'), t('colManage')]}>
        {users.map((u) => {
          const locked = Boolean(u.lockedUntil && u.lockedUntil > now);
          return (
            <tr key={u.id} data-testid="user-row">
              <Td>
                <span className="font-medium">{u.name}</span>
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">{u.email}</span>
              </Td>
              <Td>{shell(roleKey(u.role))}</Td>
              <Td>
                <div className="flex flex-wrap gap-1">
                  {u.disabled ? <Badge tone="red">{t('disabled')}</Badge> : <Badge tone="green">{t('active')}</Badge>}
                  {locked ? <Badge tone="amber">{t('locked')}</Badge> : null}
                  {u.demo ? <Badge>{t('demo')}</Badge> : null}
                </div>
              </Td>
              <Td className="whitespace-nowrap">{formatDateTime(u.lastLoginAt, locale)}</Td>
              <Td>
                <UserRowActions user={{ id: u.id, email: u.email, role: u.role, disabled: u.disabled, locked }} isSelf={u.id === admin.id} />
              </Td>
            </tr>
          );
        })}
      </DataTable>
    </>
  );
}
