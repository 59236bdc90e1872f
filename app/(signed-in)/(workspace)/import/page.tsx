import type { Metadata } from 'next';
import { Card, PageHeader } from '@/components/ui/layout';
import { fill } from '@/components/ui/rich-text';
import { requirePermission } from '@/lib/auth/session';
import { env } from '@/lib/env';
import { importMessages } from '@/lib/i18n/messages/import';
import { getT } from '@/lib/i18n/server';
import { ImportForm } from './import-form';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(importMessages))('title') };
}

const FIELDS = ['id', 'company_id', 'category', 'title', 'text', 'value', 'event_date', 'published_date', 'source_name', 'source_url', 'language'];

export default async function ImportPage() {
  await requirePermission('pool:write');
  const t = await getT(importMessages);
  const fields = FIELDS.map((f, i) => (
    <span key={f}>
      {i ? ', ' : null}
      <code className="font-mono">{f}</code>
      {f === 'id' ? ` ${t('optional')}` : null}
    </span>
  ));
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <Card>
        <ImportForm maxFileMb={env().IMPORT_MAX_FILE_MB} />
      </Card>
      <Card title={t('formatTitle')} className="mt-6">
        <p className="text-sm">{fill(t('formatBody'), { fields, command: <code className="font-mono">npm run cli -- import &lt;path&gt;</code> })}</p>
      </Card>
    </>
  );
}
