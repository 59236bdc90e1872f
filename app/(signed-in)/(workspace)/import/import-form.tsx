'use client';

import { useState, useTransition } from 'react';
import { Button } from '@/components/ui/button';
import { Alert, DataTable, Td } from '@/components/ui/layout';
import { importFiles } from './actions';

type Result = Awaited<ReturnType<typeof importFiles>>;

export function ImportForm({ maxFileMb }: { maxFileMb: number }) {
  const [files, setFiles] = useState<File[]>([]);
  const [result, setResult] = useState<Result | null>(null);
  const [pending, startTransition] = useTransition();

  function submit(validOnly: boolean) {
    const form = new FormData();
    for (const f of files) {
      form.append('files', f);
      form.append('paths', f.webkitRelativePath || f.name);
    }
    form.set('validOnly', String(validOnly));
    startTransition(async () => setResult(await importFiles(form)));
  }

  const report = result?.ok ? result.data : null;
  return (
    <div className="space-y-6">
      <div className="grid gap-4 md:grid-cols-2">
        <div className="space-y-1">
          <label htmlFor="import-file" className="block text-sm font-medium">
            A file of evidence items (.jsonl, .json or .csv)
          </label>
          <input
            id="import-file"
            type="file"
            accept=".json,.jsonl,.csv,.md"
            className="block w-full text-sm"
            data-testid="import-file"
            onChange={(e) => {
              setFiles(Array.from(e.target.files ?? []));
              setResult(null);
            }}
          />
        </div>
        <div className="space-y-1">
          <label htmlFor="import-folder" className="block text-sm font-medium">
            Or a folder in the pool layout (companies.json, evidence.jsonl, documents/)
          </label>
          <input
            id="import-folder"
            type="file"
            className="block w-full text-sm"
            {...{ webkitdirectory: '', directory: '' }}
            multiple
            onChange={(e) => {
              setFiles(Array.from(e.target.files ?? []));
              setResult(null);
            }}
          />
        </div>
      </div>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Everything is checked before anything is written. UTF-8 and Korean cp949/EUC-KR files are both read. Files up to {maxFileMb} MB.
      </p>
      <Button type="button" disabled={pending || files.length === 0} onClick={() => submit(false)} data-testid="import-submit">
        {pending ? 'Importing…' : files.length > 1 ? `Import ${files.length} files` : 'Import'}
      </Button>

      {result && !result.ok ? <Alert>{result.message}</Alert> : null}
      {report ? (
        <section aria-live="polite" className="space-y-4" data-testid="import-report">
          {report.written ? (
            <Alert tone="success">
              Imported {report.imported.companies} companies, {report.imported.evidence} evidence items and {report.imported.documents} documents (
              {report.imported.chunks} passages); skipped {report.skippedDuplicates} duplicates
              {report.rejectedCount ? `; left out ${report.rejectedCount} rejected rows` : ''}.
            </Alert>
          ) : (
            <Alert>
              Nothing was imported: {report.rejectedCount} row{report.rejectedCount === 1 ? '' : 's'} need{report.rejectedCount === 1 ? 's' : ''} fixing
              {report.skippedDuplicates ? ` (and ${report.skippedDuplicates} duplicates would be skipped)` : ''}. Fix the file and import it again, or
              import the valid rows only.
            </Alert>
          )}
          {!report.written ? (
            <Button type="button" variant="secondary" disabled={pending} onClick={() => submit(true)} data-testid="import-valid-only">
              Import the valid rows
            </Button>
          ) : null}
          {report.rejected.length ? (
            <DataTable caption="Rejected rows" head={['File', 'Line', 'Field', 'Problem']}>
              {report.rejected.map((r, i) => (
                <tr key={i} data-testid="rejected-row">
                  <Td className="font-mono">{r.file}</Td>
                  <Td>{r.row || '—'}</Td>
                  <Td className="font-mono">{r.field ?? '—'}</Td>
                  <Td>{r.message}</Td>
                </tr>
              ))}
            </DataTable>
          ) : null}
          {report.rejectedCount > report.rejected.length ? (
            <p className="text-sm">…and {report.rejectedCount - report.rejected.length} more. The command line import prints them all.</p>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
