// Download links for the three export formats: plain links to the export route, so they work
// without JavaScript and the browser's own download handling applies.
const style =
  'inline-flex items-center justify-center gap-2 rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-900 hover:bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800';

export function DownloadLinks({ runId, labels }: { runId: string; labels: { title: string; download: string; pdf: string; md: string; json: string } }) {
  const href = (format: string) => `/api/runs/${encodeURIComponent(runId)}/export?format=${format}`;
  return (
    <nav aria-label={labels.title} className="flex flex-wrap items-center gap-2 print:hidden">
      <span className="text-sm text-zinc-600 dark:text-zinc-400">{labels.download}:</span>
      {(['pdf', 'md', 'json'] as const).map((format) => (
        <a key={format} href={href(format)} download className={style} data-testid={`download-${format}`}>
          {labels[format]}
        </a>
      ))}
    </nav>
  );
}
