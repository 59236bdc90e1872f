'use client';

import { useState, useTransition } from 'react';
import { useServerText } from '@/components/forms/action-outcome';
import { Button } from '@/components/ui/button';
import { Alert, DataTable, Td } from '@/components/ui/layout';
import type { Dictionary, Messages } from '@/lib/i18n';
import { useT } from '@/lib/i18n/client';
import { importMessages } from '@/lib/i18n/messages/import';
import { poolMessages } from '@/lib/i18n/messages/pool';
import { importFiles } from './actions';

type Result = Awaited<ReturnType<typeof importFiles>>;

export function ImportForm({ maxFileMb }: { maxFileMb: number }) {
  const [files, setFiles] = useState<File[]>([]);
  const [result, setResult] = useState<Result | null>(null);
  const [pending, startTransition] = useTransition();
  const t = useT(importMessages);
  // The import's problems are English texts of lib/pool/import; shown in the reader's language.
  const text = useServerText(...([importMessages, poolMessages] as Messages<Dictionary>[]));

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
            {t('fileLabel')}
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
            {t('folderLabel')}
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
        {t('checkedFirst', { mb: maxFileMb })}
      </p>
      <Button type="button" disabled={pending || files.length === 0} onClick={() => submit(false)} data-testid="import-submit">
        {pending ? t('importing') : files.length > 1 ? t('importN', { n: files.length }) : t('import')}
      </Button>

      {result && !result.ok ? <Alert>{text(result.message)}</Alert> : null}
      {report ? (
        <section aria-live="polite" className="space-y-4" data-testid="import-report">
          {report.written ? (
            <Alert tone="success">
              {t('imported', {
                companies: report.imported.companies,
                evidence: report.imported.evidence,
                documents: report.imported.documents,
                chunks: report.imported.chunks,
                duplicates: report.skippedDuplicates,
                rejected: report.rejectedCount ? t('importedRejected', { n: report.rejectedCount }) : '',
              })}
            </Alert>
          ) : (
            <Alert>
              {t(report.rejectedCount === 1 ? 'nothingImportedOne' : 'nothingImported', {
                n: report.rejectedCount,
                duplicates: report.skippedDuplicates ? t('wouldSkip', { n: report.skippedDuplicates }) : '',
              })}
            </Alert>
          )}
          {!report.written ? (
            <Button type="button" variant="secondary" disabled={pending} onClick={() => submit(true)} data-testid="import-valid-only">
              {t('importValid')}
            </Button>
          ) : null}
          {report.rejected.length ? (
            <DataTable caption={t('rejectedCaption')} head={[t('colFile'), t('colLine'), t('colField'), t('colProblem')]}>
              {report.rejected.map((r, i) => (
                <tr key={i} data-testid="rejected-row">
                  <Td className="font-mono">{r.file}</Td>
                  <Td>{r.row || '—'}</Td>
                  <Td className="font-mono">{r.field ?? '—'}</Td>
                  <Td>{text(r.message)}</Td>
                </tr>
              ))}
            </DataTable>
          ) : null}
          {report.rejectedCount > report.rejected.length ? (
            <p className="text-sm">{t('more', { n: report.rejectedCount - report.rejected.length })}</p>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
