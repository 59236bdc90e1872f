import type { Metadata } from 'next';
import { Card, PageHeader } from '@/components/ui/layout';
import { fill } from '@/components/ui/rich-text';
import { requirePermission } from '@/lib/auth/session';
import { importMessages } from '@/lib/i18n/messages/import';
import { getT } from '@/lib/i18n/server';
import { LIMITS } from '@/lib/pool/import/schemas';
import { importLimits } from '@/lib/pool/import/upload';
import { ImportForm } from './import-form';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(importMessages))('title') };
}

const FIELDS = ['id', 'company_id', 'category', 'title', 'text', 'value', 'event_date', 'published_date', 'source_name', 'source_url', 'language'];
const n = (v: number) => v.toLocaleString('en');
/** Each field's longest value, from the schemas the import checks with (lib/pool/import/schemas.ts). */
const FIELD_LIMITS: [string, number][] = [
  ...Object.entries(LIMITS.evidence),
  ['name', LIMITS.company.name],
  ['name_en', LIMITS.company.name_en],
  ['industry', LIMITS.company.industry],
  ['description', LIMITS.company.description],
  ['kind', LIMITS.document.kind],
];

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
        <ImportForm limits={importLimits()} />
      </Card>
      <Card title={t('formatTitle')} className="mt-6">
        <p className="text-sm">{fill(t('formatBody'), { fields, command: <code className="font-mono">npm run cli -- import &lt;path&gt;</code> })}</p>
      </Card>
      <Card title={t('limitsTitle')} className="mt-6">
        <div className="space-y-2 text-sm" data-testid="import-limits">
          <p>
            {fill(t('limitsBody'), {
              limits: FIELD_LIMITS.map(([field, max], i) => (
                <span key={field}>
                  {i ? ', ' : null}
                  <code className="font-mono">{field}</code> {n(max)}
                </span>
              )),
              frontMatter: n(LIMITS.document.frontMatter),
              body: n(LIMITS.document.body),
            })}
          </p>
          <p>{t('charactersBody')}</p>
          <p>{t('companiesBody')}</p>
        </div>
      </Card>
    </>
  );
}
