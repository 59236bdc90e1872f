'use client';

// A company page's upload of a filing or document: the file and what the RM knows about it (title,
// kind, date, source), sent to POST /api/import/documents. On success the document's page opens
// with its candidates; a refusal names the file and what is wrong, in the reader's language.
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { useServerText } from '@/components/forms/action-outcome';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { Alert } from '@/components/ui/layout';
import type { Dictionary, Messages, Phrase } from '@/lib/i18n';
import { useT } from '@/lib/i18n/client';
import { documentMessages } from '@/lib/i18n/messages/documents';
import { importMessages } from '@/lib/i18n/messages/import';
import { formatMb } from '@/lib/pool/import/limits';

const KINDS = ['annual_report', 'half_year_report', 'quarterly_report', 'current_report', 'filing_section', 'news', 'other'];

type Answer = { ok: true; documentId: string } | { ok: false; message?: string; phrase?: Phrase; field?: string; documentId?: string };

export function UploadDocument({ companyId, maxFileBytes, today }: { companyId: string; maxFileBytes: number; today: string }) {
  const t = useT(documentMessages);
  const text = useServerText(...([documentMessages, importMessages] as Messages<Dictionary>[]));
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [refused, setRefused] = useState<Extract<Answer, { ok: false }> | null>(null);

  function submit(form: FormData) {
    const file = form.get('file');
    if (file instanceof File && file.size > maxFileBytes) {
      setRefused({ ok: false, phrase: { key: 'tooLarge', values: { file: file.name, size: formatMb(file.size), limit: formatMb(maxFileBytes) } } });
      return;
    }
    form.set('company_id', companyId);
    startTransition(async () => {
      let answer: Answer;
      try {
        const response = await fetch('/api/import/documents', { method: 'POST', body: form });
        answer = ((await response.json().catch(() => null)) as Answer | null) ?? { ok: false, message: 'uploadFailed' };
      } catch {
        answer = { ok: false, message: 'uploadFailed' };
      }
      if (answer.ok) router.push(`/companies/${encodeURIComponent(companyId)}/documents/${encodeURIComponent(answer.documentId)}`);
      else setRefused(answer);
    });
  }

  const errorOf = (field: string) => (refused?.field === field ? [text(refused.phrase ?? refused.message ?? 'uploadFailed')] : undefined);
  return (
    <form action={submit} className="space-y-3" data-testid="upload-document">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('uploadHint', { mb: Math.floor(maxFileBytes / (1024 * 1024)) })}</p>
      <TextField id="document-file" name="file" type="file" required accept=".htm,.html,.xml,.zip,.pdf" label={t('fileLabel')} errors={errorOf('file')} />
      <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
        <TextField id="document-title" name="title" required maxLength={500} label={t('titleLabel')} errors={errorOf('title')} />
        <SelectField
          id="document-kind"
          name="kind"
          label={t('kindLabel')}
          options={KINDS.map((k) => ({ value: k, label: k.replaceAll('_', ' ') }))}
          errors={errorOf('kind')}
        />
        <TextField
          id="document-published"
          name="published_date"
          type="date"
          required
          max={today}
          label={t('publishedLabel')}
          errors={errorOf('published_date')}
        />
        <SelectField
          id="document-language"
          name="language"
          label={t('languageLabel')}
          options={[
            { value: 'en', label: 'English' },
            { value: 'ko', label: '한국어' },
          ]}
        />
        <TextField id="document-source-name" name="source_name" required maxLength={300} label={t('sourceNameLabel')} errors={errorOf('source_name')} />
        <TextField id="document-source-url" name="source_url" type="url" required maxLength={2000} label={t('sourceUrlLabel')} errors={errorOf('source_url')} />
      </div>
      {refused && !['file', 'title', 'kind', 'published_date', 'source_name', 'source_url'].includes(refused.field ?? '') ? (
        <Alert>
          {text(refused.phrase ?? refused.message ?? 'uploadFailed')}
          {refused.documentId ? (
            <>
              {' '}
              <a className="underline" href={`/companies/${encodeURIComponent(companyId)}/documents/${encodeURIComponent(refused.documentId)}`}>
                {t('openDocument')}
              </a>
            </>
          ) : null}
        </Alert>
      ) : null}
      <Button type="submit" disabled={pending} data-testid="upload-document-submit">
        {pending ? t('uploading') : t('upload')}
      </Button>
    </form>
  );
}
