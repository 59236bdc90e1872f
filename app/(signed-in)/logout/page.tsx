import type { Metadata } from 'next';
import { signOutAction } from '@/app/(auth)/login/actions';
import { ActionForm } from '@/components/shell/action-form';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/layout';
import { fill } from '@/components/ui/rich-text';
import { requirePermission } from '@/lib/auth/session';
import { homeMessages } from '@/lib/i18n/messages/home';
import { getT } from '@/lib/i18n/server';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(homeMessages))('logoutTitle') };
}

export default async function LogoutPage() {
  const user = await requirePermission('app:use');
  const t = await getT(homeMessages);
  return (
    <div className="mx-auto max-w-md">
      <Card title={t('logoutTitle')}>
        <p className="mb-4 text-sm">{fill(t('signedInAs'), { email: <span className="font-medium">{user.email}</span> })}</p>
        <ActionForm action={signOutAction}>
          <Button type="submit" data-testid="confirm-sign-out">
            {t('logoutTitle')}
          </Button>
        </ActionForm>
      </Card>
    </div>
  );
}
