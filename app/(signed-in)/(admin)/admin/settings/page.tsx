import type { Metadata } from 'next';
import { Alert, Badge, Card, PageHeader } from '@/components/ui/layout';
import { LOCK_MINUTES, MAX_FAILED_ATTEMPTS } from '@/lib/auth/credentials';
import { requirePermission } from '@/lib/auth/session';
import { SESSION_HOURS } from '@/lib/auth/sessions';
import { QuorumForm } from '@/components/admin/quorum-form';
import { getDatabase, getDb } from '@/lib/db/client';
import { getQuorumSetting } from '@/lib/db/queries/oversight';
import { countActive } from '@/lib/db/queries/users';
import { quorumShortfall } from '@/lib/domain/oversight';
import { getRetention } from '@/lib/db/queries/retention';
import { getSystemOwner } from '@/lib/db/queries/settings';
import { demoEnabled, env, oidcConfigured } from '@/lib/env';
import { aboutMessages } from '@/lib/i18n/messages/about';
import { adminMessages } from '@/lib/i18n/messages/admin';
import { oversightMessages } from '@/lib/i18n/messages/oversight';
import { retentionMessages } from '@/lib/i18n/messages/retention';
import { getT } from '@/lib/i18n/server';
import { RetentionForm } from './retention-form';
import { OwnerForm } from './owner-form';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(adminMessages))('settingsTitle') };
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-3 gap-4 py-2 text-sm">
      <dt className="font-medium">{label}</dt>
      <dd className="col-span-2">{children}</dd>
    </div>
  );
}

// Shows how this instance is configured. Secrets are never shown, only whether they are set;
// the values live in the environment (see .env.example).
export default async function SettingsPage() {
  await requirePermission('settings:read');
  const t = await getT(adminMessages);
  const to = await getT(oversightMessages);
  const e = env();
  const database = await getDatabase();
  const [tr, retention] = await Promise.all([getT(retentionMessages), getRetention({ db: await getDb() })]);
  const [about, owner] = await Promise.all([getT(aboutMessages), getSystemOwner({ db: await getDb() })]);
  const [quorum, committee] = await Promise.all([getQuorumSetting({ db: await getDb() }), countActive({ db: await getDb(), role: 'committee' })]);
  const shortfall = quorumShortfall(quorum, committee);
  return (
    <>
      <PageHeader title={t('settingsTitle')} description={t('settingsDescription')} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card title={t('database')}>
          <dl className="divide-y divide-zinc-200 dark:divide-zinc-800">
            <Row label={t('engine')}>{database.kind === 'pglite' ? t('pglite') : 'PostgreSQL'}</Row>
            <Row label={t('location')}>
              <code className="break-all font-mono" data-testid="database-location">
                {database.location}
              </code>
            </Row>
            <Row label={t('demoAccounts')}>{demoEnabled(e) ? <Badge tone="amber">{t('enabled')}</Badge> : <Badge>{t('disabled')}</Badge>}</Row>
          </dl>
        </Card>
        <Card title={t('models')}>
          <dl className="divide-y divide-zinc-200 dark:divide-zinc-800">
            <Row label={t('provider')}>{e.OPENAI_API_KEY || e.OPENAI_BASE_URL ? t('openaiCompatible') : t('offline')}</Row>
            <Row label={t('endpoint')}>{e.OPENAI_BASE_URL ?? (e.OPENAI_API_KEY ? t('openaiDefault') : '—')}</Row>
            <Row label={t('model')}>{e.OPENAI_MODEL ?? '—'}</Row>
            <Row label={t('apiKey')}>{e.OPENAI_API_KEY ? <Badge tone="green">{t('set')}</Badge> : <Badge>{t('notSet')}</Badge>}</Row>
          </dl>
        </Card>
        <Card title={t('signIn')}>
          <dl className="divide-y divide-zinc-200 dark:divide-zinc-800">
            <Row label={t('passwords')}>{t('passwordPolicy', { max: MAX_FAILED_ATTEMPTS, minutes: LOCK_MINUTES })}</Row>
            <Row label={t('signInThrottle')}>
              <span data-testid="sign-in-throttle">{t('signInThrottleValue', { n: e.SIGN_IN_ATTEMPTS_PER_MINUTE })}</span>
            </Row>
            <Row label={t('clientAddress')}>{e.TRUST_PROXY === 0 ? t('clientAddressDirect') : t('clientAddressProxied', { n: e.TRUST_PROXY })}</Row>
            <Row label={t('sessions')}>{t('sessionsValue', { hours: SESSION_HOURS })}</Row>
            <Row label={t('sso')}>{oidcConfigured(e) ? `${e.AUTH_OIDC_NAME} (${e.AUTH_OIDC_ISSUER})` : t('notConfigured')}</Row>
            <Row label={t('sessionSecret')}>{e.AUTH_SECRET ? t('fromAuthSecret') : t('generatedSecret')}</Row>
          </dl>
        </Card>
        <Card title={to('quorumTitle')}>
          {shortfall ? (
            <Alert tone="warning" testId="quorum-shortfall">
              {to(shortfall.blocks === 'every-case' ? 'quorumShortEvery' : 'quorumShortSole', { needed: shortfall.needed, members: shortfall.members })}
            </Alert>
          ) : null}
          <QuorumForm quorum={quorum} />
        </Card>
        <Card title={tr('retentionTitle')}>
          <RetentionForm periods={retention} />
        </Card>
        <Card title={about('ownerFormTitle')}>
          <OwnerForm owner={owner && { name: owner.name, title: owner.title, contact: owner.contact }} />
        </Card>
      </div>
    </>
  );
}
