import type { Metadata } from 'next';
import { signOutAction } from '@/app/(auth)/login/actions';
import { ActionForm } from '@/components/shell/action-form';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/layout';
import { fill } from '@/components/ui/rich-text';
import { requirePermission } from '@/lib/auth/session';
import { authMessages } from '@/lib/i18n/messages/auth';
import { homeMessages } from '@/lib/i18n/messages/home';
import { getT } from '@/lib/i18n/server';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(homeMessages))('logoutTitle') };
}

export default async function LogoutPage() {
  const user = await requirePermission('app:use');
  const [t, auth] = await Promise.all([getT(homeMessages), getT(authMessages)]);
  return (
    <div className="mx-auto max-w-md">
      <Card title={t('logoutTitle')}>
        <p className="mb-4 text-sm">{fill(t('signedInAs'), { email: <span className="font-medium">{user.email}</span> })}</p>
        <div className="flex flex-wrap gap-2">
          <ActionForm action={signOutAction}>
            <Button type="submit" data-testid="confirm-sign-out">
              {auth('signOut')}
            </Button>
          </ActionForm>
          <ActionForm action={signOutAction}>
            <input type="hidden" name="everywhere" value="true" />
            <Button type="submit" variant="secondary" data-testid="sign-out-everywhere">
              {auth('signOutEverywhere')}
            </Button>
          </ActionForm>
        </div>
        <p className="mt-3 text-xs text-zinc-600 dark:text-zinc-400">{auth('signOutEverywhereHint')}</p>
      </Card>
    </div>
  );
}
