import type { Metadata } from 'next';
import { signOutAction } from '@/app/(auth)/login/actions';
import { ActionForm } from '@/components/shell/action-form';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/layout';
import { requirePermission } from '@/lib/auth/session';

export const metadata: Metadata = { title: 'Sign out' };

export default async function LogoutPage() {
  const user = await requirePermission('app:use');
  return (
    <div className="mx-auto max-w-md">
      <Card title="Sign out">
        <p className="mb-4 text-sm">
          You are signed in as <span className="font-medium">{user.email}</span>. Signing out ends this session in this browser.
        </p>
        <ActionForm action={signOutAction}>
          <Button type="submit" data-testid="confirm-sign-out">
            Sign out
          </Button>
        </ActionForm>
      </Card>
    </div>
  );
}
