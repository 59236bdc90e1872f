import type { Metadata } from 'next';
import { Card, DataTable, PageHeader, Td } from '@/components/ui/layout';
import { fill } from '@/components/ui/rich-text';
import { categoryLabel } from '@/components/pool/evidence-timeline';
import { requirePermission } from '@/lib/auth/session';
import { importHelpMessages, importMessages } from '@/lib/i18n/messages/import';
import { poolMessages } from '@/lib/i18n/messages/pool';
import { getT } from '@/lib/i18n/server';
import { LIMITS } from '@/lib/pool/import/schemas';
import { EVIDENCE_COLUMNS, IMPORT_CATEGORIES } from '@/lib/pool/import/template';
import { importLimits } from '@/lib/pool/import/upload';
import { ImportForm } from './import-form';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT(importMessages))('title') };
}

const TEMPLATE = '/api/templates/evidence';
const LINK =
  'rounded-md border border-zinc-300 px-3 py-2 text-sm font-medium text-blue-800 underline hover:bg-zinc-50 dark:border-zinc-700 dark:text-blue-300 dark:hover:bg-zinc-900';
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
  const h = await getT(importHelpMessages);
  const pool = await getT(poolMessages);
  // The columns and categories the import's schema accepts (lib/pool/import/template.ts).
  const fields = EVIDENCE_COLUMNS.map((c, i) => (
    <span key={c.name}>
      {i ? ', ' : null}
      <code className="font-mono">{c.name}</code>
      {c.required ? null : ` ${t('optional')}`}
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
      <Card title={h('helpTitle')} className="mt-6">
        <div className="space-y-4 text-sm" data-testid="import-help">
          <p>{h('helpIntro')}</p>
          <div className="flex flex-wrap gap-3">
            <a href={`${TEMPLATE}?format=csv`} download className={LINK} data-testid="template-csv">
              {h('templateCsv')}
            </a>
            <a href={`${TEMPLATE}?format=jsonl`} download className={LINK} data-testid="template-jsonl">
              {h('templateJsonl')}
            </a>
          </div>
          <DataTable caption={h('columnsCaption')} head={[h('colColumn'), h('colRequired'), h('colFormat'), h('colLongest')]}>
            {EVIDENCE_COLUMNS.map((c) => (
              <tr key={c.name} data-testid="import-column" data-column={c.name} data-required={c.required}>
                <Td>
                  <code className="font-mono">{c.name}</code>
                  <span className="block text-xs text-zinc-600 dark:text-zinc-400">{h(`col_${c.name}`)}</span>
                </Td>
                <Td>{c.required ? <strong>{h('required')}</strong> : h('optional')}</Td>
                <Td>{h(`format_${c.format}`)}</Td>
                <Td>{c.maxChars === null ? '—' : n(c.maxChars)}</Td>
              </tr>
            ))}
          </DataTable>
          <section aria-labelledby="import-categories-title">
            <h3 id="import-categories-title" className="font-semibold">
              {h('categoriesTitle', { n: IMPORT_CATEGORIES.length })}
            </h3>
            <p className="mt-1 text-zinc-600 dark:text-zinc-400">{h('categoriesHint')}</p>
            <ul className="mt-2 grid grid-cols-1 gap-x-6 gap-y-1 sm:grid-cols-2 lg:grid-cols-3" data-testid="import-categories">
              {IMPORT_CATEGORIES.map((c) => {
                // The English labels are the codes in words; only a translation adds something.
                const label = categoryLabel(pool, c);
                return (
                  <li key={c} data-category={c}>
                    <code className="font-mono">{c}</code>
                    {label !== c.replaceAll('_', ' ') ? <span className="text-zinc-600 dark:text-zinc-400"> — {label}</span> : null}
                  </li>
                );
              })}
            </ul>
          </section>
        </div>
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
