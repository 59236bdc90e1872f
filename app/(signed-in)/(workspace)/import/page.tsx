import type { Metadata } from 'next';
import { Card, PageHeader } from '@/components/ui/layout';
import { requirePermission } from '@/lib/auth/session';
import { env } from '@/lib/env';
import { ImportForm } from './import-form';

export const metadata: Metadata = { title: 'Import evidence' };

export default async function ImportPage() {
  await requirePermission('pool:write');
  return (
    <>
      <PageHeader
        title="Import evidence"
        description="Load companies, evidence items and documents. Every item needs a source URL and the date it became public; nothing dated in the future is accepted."
      />
      <Card>
        <ImportForm maxFileMb={env().IMPORT_MAX_FILE_MB} />
      </Card>
      <Card title="File format" className="mt-6">
        <p className="text-sm">
          One item per line (JSONL), a JSON array, or a CSV with a header row, with the fields <code className="font-mono">id</code> (optional),{' '}
          <code className="font-mono">company_id</code>, <code className="font-mono">category</code>, <code className="font-mono">title</code>,{' '}
          <code className="font-mono">text</code>, <code className="font-mono">value</code>, <code className="font-mono">event_date</code>,{' '}
          <code className="font-mono">published_date</code>, <code className="font-mono">source_name</code>, <code className="font-mono">source_url</code>,{' '}
          <code className="font-mono">language</code>. The same import runs from the command line: <code className="font-mono">npm run cli -- import &lt;path&gt;</code>.
        </p>
      </Card>
    </>
  );
}
