import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { ActionForm } from '@/components/shell/action-form';
import { Button } from '@/components/ui/button';
import { Alert, Card } from '@/components/ui/layout';
import { oidcProviderName } from '@/lib/auth/auth';
import { ROLE_LABELS } from '@/lib/auth/permissions';
import { getSessionUser } from '@/lib/auth/session';
import { DEMO_ACCOUNTS } from '@/lib/auth/demo-accounts';
import { demoEnabled, env } from '@/lib/env';
import { LoginForm } from './login-form';
import { signInWithSsoAction } from './actions';

export const metadata: Metadata = { title: 'Sign in' };

// Errors Auth.js may send back here after an SSO round trip.
const SSO_ERRORS: Record<string, string> = {
  AccessDenied: 'Your single sign-on account has no Crosscheck access. Ask an administrator to create your account.',
  Configuration: 'Sign-in is misconfigured on the server. Ask an administrator to check the logs.',
};

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (await getSessionUser()) redirect('/');
  const params = await searchParams;
  const callbackUrl = typeof params.callbackUrl === 'string' ? toRelative(params.callbackUrl) : undefined;
  const error = typeof params.error === 'string' ? (SSO_ERRORS[params.error] ?? null) : null;
  const sso = oidcProviderName();
  const demo = demoEnabled();

  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4 py-10">
      <div>
        <p className="text-sm font-semibold uppercase tracking-wide text-blue-700 dark:text-blue-400">Crosscheck</p>
        <h1 className="mt-1 text-2xl font-semibold">Sign in</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">Debate-based screening of a borrower’s non-financial evidence.</p>
      </div>
      <Card>
        <div className="space-y-4">
          {error ? <Alert>{error}</Alert> : null}
          <LoginForm callbackUrl={callbackUrl} />
          {sso ? (
            <ActionForm action={signInWithSsoAction}>
              {callbackUrl ? <input type="hidden" name="callbackUrl" value={callbackUrl} /> : null}
              <Button type="submit" variant="secondary" className="w-full">
                Sign in with {sso}
              </Button>
            </ActionForm>
          ) : null}
        </div>
      </Card>
      {demo ? (
        <Card title="Demo accounts">
          <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="demo-accounts">
            These are demo accounts for trying Crosscheck, with the password{' '}
            {env().DEMO_PASSWORD === 'crosscheck-demo' ? <code className="font-mono">crosscheck-demo</code> : 'set in DEMO_PASSWORD'}. They
            do not exist on a production database unless DEMO=1.
          </p>
          <ul className="mt-3 space-y-1 text-sm">
            {DEMO_ACCOUNTS.map((a) => (
              <li key={a.email}>
                <code className="font-mono">{a.email}</code> — {ROLE_LABELS[a.role]}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
    </main>
  );
}

/** Next may hand us an absolute callback URL; keep only its path so redirects stay on this site. */
function toRelative(url: string) {
  try {
    const u = new URL(url, 'http://localhost');
    return `${u.pathname}${u.search}`;
  } catch {
    return undefined;
  }
}
