'use client';

// The Import page's form: it sends the chosen files to POST /api/import (not a server action,
// whose body limits would cut large uploads) and shows the report. It checks the sizes first
// against the limits the page was given, so an upload over them is refused here, by name,
// before any byte is sent; the route checks them again (lib/pool/import/upload.ts).
import { useState, useTransition } from 'react';
import { useServerText } from '@/components/forms/action-outcome';
import { Button } from '@/components/ui/button';
import { Alert, DataTable, Td } from '@/components/ui/layout';
import type { Dictionary, Messages, Phrase, Translate } from '@/lib/i18n';
import { useT } from '@/lib/i18n/client';
import { importMessages } from '@/lib/i18n/messages/import';
import { poolMessages } from '@/lib/i18n/messages/pool';
import { formatMb, type ImportLimits } from '@/lib/pool/import/limits';
import type { ImportResponse } from '@/lib/pool/import/response';

/** A refusal: the route's phrase (errors.ts or import.ts), else its English, else why nothing came back. */
type Result = { ok: true; data: ImportResponse } | { ok: false; message: string | Phrase };

/** Why these files cannot be sent, if they cannot: one line per file over the limit, or the total. */
function sizeProblems(files: File[], limits: ImportLimits, t: Translate<typeof importMessages.en>): string[] {
  const tooLarge = files.filter((f) => f.size > limits.maxFileBytes);
  if (tooLarge.length) {
    return tooLarge.map((f) => t('clientTooLarge', { name: f.webkitRelativePath || f.name, size: formatMb(f.size), limit: formatMb(limits.maxFileBytes) }));
  }
  const total = files.reduce((n, f) => n + f.size, 0);
  return total > limits.maxRequestBytes ? [t('uploadTooLarge', { size: formatMb(total), limit: formatMb(limits.maxRequestBytes) })] : [];
}

async function send(form: FormData): Promise<Result> {
  try {
    const response = await fetch('/api/import', { method: 'POST', body: form });
    const body = (await response.json().catch(() => null)) as ImportResponse | { message?: string; phrase?: Phrase } | null;
    if (response.ok && body && 'imported' in body) return { ok: true, data: body };
    const refusal = body && !('imported' in body) ? body : null;
    return { ok: false, message: refusal?.phrase ?? refusal?.message ?? 'uploadFailed' };
  } catch {
    return { ok: false, message: 'uploadFailed' };
  }
}

export function ImportForm({ limits }: { limits: ImportLimits }) {
  const [files, setFiles] = useState<File[]>([]);
  const [result, setResult] = useState<Result | null>(null);
  const [pending, startTransition] = useTransition();
  const t = useT(importMessages);
  // The import's problems come as phrases of the import table; shown in the reader's language.
  const text = useServerText(...([importMessages, poolMessages] as Messages<Dictionary>[]));

  const problems = sizeProblems(files, limits, t);

  function submit(validOnly: boolean) {
    if (problems.length) return;
    const form = new FormData();
    for (const f of files) {
      form.append('files', f);
      form.append('paths', f.webkitRelativePath || f.name);
    }
    form.set('validOnly', String(validOnly));
    startTransition(async () => setResult(await send(form)));
  }

  const report = result?.ok ? result.data : null;
  return (
    <div className="space-y-6">
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
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
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('checkedFirst', { mb: limits.maxFileMb, total: limits.maxRequestMb })}</p>
      {problems.length ? (
        <Alert>
          <span data-testid="import-too-large">
            {problems.map((p) => (
              <span key={p} className="block">
                {p}
              </span>
            ))}
          </span>
        </Alert>
      ) : null}
      <Button type="button" disabled={pending || files.length === 0 || problems.length > 0} onClick={() => submit(false)} data-testid="import-submit">
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
          {report.updatedCompanies.length ? (
            <p className="text-sm" data-testid="import-updated-profiles">
              {t('updatedProfiles', { list: report.updatedCompanies.map((c) => `${c.id} (${c.fields.join(', ')})`).join('; ') })}
            </p>
          ) : null}
          {report.skippedProfileChanges.length ? (
            <DataTable caption={t('skippedCaption')} head={[t('colFile'), t('colLine'), t('colProblem')]}>
              {report.skippedProfileChanges.map((r) => (
                <tr key={r.companyId} data-testid="skipped-profile-change">
                  <Td className="font-mono">{r.file}</Td>
                  <Td>{r.row || '—'}</Td>
                  <Td>{text(r.phrase ?? r.message)}</Td>
                </tr>
              ))}
            </DataTable>
          ) : null}
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
                  <Td>{text(r.phrase ?? r.message)}</Td>
                </tr>
              ))}
            </DataTable>
          ) : null}
          {report.rejectedCount > report.rejected.length ? <p className="text-sm">{t('more', { n: report.rejectedCount - report.rejected.length })}</p> : null}
        </section>
      ) : null}
    </div>
  );
}
