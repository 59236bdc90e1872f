import type { Metadata } from 'next';
import { Badge, Card, PageHeader } from '@/components/ui/layout';
import { requirePermission } from '@/lib/auth/session';
import { getDatabase } from '@/lib/db/client';
import { demoEnabled, env, oidcConfigured } from '@/lib/env';

export const metadata: Metadata = { title: 'Settings' };

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
  const e = env();
  const database = await getDatabase();
  return (
    <>
      <PageHeader title="Settings" description="How this instance is configured. Change these in the server environment and restart." />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Database">
          <dl className="divide-y divide-zinc-200 dark:divide-zinc-800">
            <Row label="Engine">{database.kind === 'pglite' ? 'Embedded PGlite (single process)' : 'PostgreSQL'}</Row>
            <Row label="Location">
              <code className="break-all font-mono" data-testid="database-location">{database.location}</code>
            </Row>
            <Row label="Demo accounts">{demoEnabled(e) ? <Badge tone="amber">enabled</Badge> : <Badge>disabled</Badge>}</Row>
          </dl>
        </Card>
        <Card title="Models">
          <dl className="divide-y divide-zinc-200 dark:divide-zinc-800">
            <Row label="Provider">
              {e.OPENAI_API_KEY || e.OPENAI_BASE_URL ? 'OpenAI-compatible endpoint' : 'Built-in offline analyst (not an LLM)'}
            </Row>
            <Row label="Endpoint">{e.OPENAI_BASE_URL ?? (e.OPENAI_API_KEY ? 'OpenAI default' : '—')}</Row>
            <Row label="Model">{e.OPENAI_MODEL ?? '—'}</Row>
            <Row label="API key">{e.OPENAI_API_KEY ? <Badge tone="green">set</Badge> : <Badge>not set</Badge>}</Row>
          </dl>
        </Card>
        <Card title="Sign-in">
          <dl className="divide-y divide-zinc-200 dark:divide-zinc-800">
            <Row label="Passwords">scrypt hashes; 5 failed attempts lock an account for 5 minutes</Row>
            <Row label="Single sign-on">{oidcConfigured(e) ? `${e.AUTH_OIDC_NAME} (${e.AUTH_OIDC_ISSUER})` : 'not configured'}</Row>
            <Row label="Session secret">{e.AUTH_SECRET ? 'from AUTH_SECRET' : 'generated and kept in the data folder'}</Row>
          </dl>
        </Card>
      </div>
    </>
  );
}
