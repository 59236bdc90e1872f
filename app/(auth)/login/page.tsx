import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { ActionForm } from '@/components/shell/action-form';
import { LanguageSwitch } from '@/components/shell/language-switch';
import { Button } from '@/components/ui/button';
import { Alert, Card } from '@/components/ui/layout';
import { fill } from '@/components/ui/rich-text';
import { oidcProviderName } from '@/lib/auth/auth';
import { getSessionUser } from '@/lib/auth/session';
import { DEMO_ACCOUNTS } from '@/lib/demo/accounts';
import { demoEnabled, env } from '@/lib/env';
import { authMessages } from '@/lib/i18n/messages/auth';
import { roleKey, shellMessages } from '@/lib/i18n/messages/shell';
import { getT } from '@/lib/i18n/server';
import { LoginForm } from './login-form';
import { signInWithSsoAction } from './actions';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(authMessages))('signIn') };
}

// Errors Auth.js may send back here after an SSO round trip.
const SSO_ERRORS = { AccessDenied: 'ssoAccessDenied', Configuration: 'ssoConfiguration' } as const;

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (await getSessionUser()) redirect('/');
  const [t, shell] = await Promise.all([getT(authMessages), getT(shellMessages)]);
  const params = await searchParams;
  const callbackUrl = typeof params.callbackUrl === 'string' ? toRelative(params.callbackUrl) : undefined;
  const ssoError = typeof params.error === 'string' && Object.hasOwn(SSO_ERRORS, params.error) ? SSO_ERRORS[params.error as keyof typeof SSO_ERRORS] : null;
  const error = ssoError ? t(ssoError) : null;
  const sso = oidcProviderName();
  const demo = demoEnabled();

  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4 py-10">
      <div>
        <div className="flex items-center justify-between gap-4">
          <p className="text-sm font-semibold uppercase tracking-wide text-blue-700 dark:text-blue-400">Crosscheck</p>
          <LanguageSwitch />
        </div>
        <h1 className="mt-1 text-2xl font-semibold">{t('signIn')}</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{t('tagline')}</p>
      </div>
      <Card>
        <div className="space-y-4">
          {error ? <Alert>{error}</Alert> : null}
          <LoginForm callbackUrl={callbackUrl} />
          {sso ? (
            <ActionForm action={signInWithSsoAction}>
              {callbackUrl ? <input type="hidden" name="callbackUrl" value={callbackUrl} /> : null}
              <Button type="submit" variant="secondary" className="w-full">
                {t('signInWith', { provider: sso })}
              </Button>
            </ActionForm>
          ) : null}
        </div>
      </Card>
      {demo ? (
        <Card title={t('demoAccounts')}>
          <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="demo-accounts">
            {fill(t('demoIntro'), {
              password: env().DEMO_PASSWORD === 'crosscheck-demo' ? <code className="font-mono">crosscheck-demo</code> : t('demoPasswordFromEnv'),
            })}
          </p>
          <ul className="mt-3 space-y-1 text-sm">
            {DEMO_ACCOUNTS.map((a) => (
              <li key={a.email}>
                <code className="font-mono">{a.email}</code> — {shell(roleKey(a.role))}
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
