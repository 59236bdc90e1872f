// The three export formats of a run (docs/run-export.md): a PDF and a Markdown report for
// people, and the run document as JSON for other programs (docs/run-export.schema.json).
import type { Db } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import type { Locale } from '@/lib/i18n';
import { loadReportInput } from '@/lib/report/load';
import { failedCheckLines, reportCheckRows } from '@/lib/report/failed-checks';
import { renderMarkdown } from '@/lib/report/markdown';
import { buildReportDoc, type ReportInput } from '@/lib/report/model';
import { renderPdf } from '@/lib/report/pdf';
import { aiAssistedLines } from '@/lib/report/oversight-text';
import { loadRunOversight } from '@/lib/db/queries/oversight';

/** Raised when a field is removed or changes meaning; new optional fields keep it. */
export const EXPORT_SCHEMA_VERSION = 1;

export const EXPORT_FORMATS = {
  pdf: { ext: 'pdf', contentType: 'application/pdf' },
  md: { ext: 'md', contentType: 'text/markdown; charset=utf-8' },
  json: { ext: 'json', contentType: 'application/json; charset=utf-8' },
} as const;
export type ExportFormat = keyof typeof EXPORT_FORMATS;

export function isExportFormat(value: unknown): value is ExportFormat {
  return typeof value === 'string' && Object.hasOwn(EXPORT_FORMATS, value);
}

/**
 * The run document with the sources of its citations. A finished run's pool sources are its
 * cited-evidence snapshot, each with `changedSincePublished` / `removedFromPool` against the pool
 * now; `sourcesState` says where the sources were read (docs/run-export.md).
 */
export function exportJson(input: ReportInput, exportedAt = new Date()) {
  // Red flags exactly as documented, { kind, evidenceId, date, title } and the other items of the
  // same event when there are any, whatever else a row may carry.
  const redFlags = (input.view.redFlags ?? []).map(({ kind, evidenceId, date, title, alsoEvidenceIds }) => ({
    kind,
    evidenceId,
    date,
    title,
    ...(alsoEvidenceIds?.length ? { alsoEvidenceIds } : {}),
  }));
  // The failed final checks with their counts, in English like the rest of the JSON (the stored
  // checks and the reading-consistency check: lib/report/failed-checks.ts).
  const failedChecks = failedCheckLines(reportCheckRows(input.view, input.sources, 'en'), 'en');
  // AI-assisted, by which system and models, and who decided with what they confirmed and overrode (docs/oversight.md).
  const ai = aiAssistedLines({ protocolName: input.protocolName, provider: input.view.provider, model: input.view.model }, input.oversight, 'en');
  const votes = input.oversight?.decision?.votes ?? [];
  return {
    schemaVersion: EXPORT_SCHEMA_VERSION,
    exportedAt: exportedAt.toISOString(),
    ...input.view,
    redFlags,
    failedChecks,
    aiAssisted: {
      statement: ai.lines.join(' '),
      system: ai.system,
      provider: input.view.provider,
      model: input.view.provider === 'offline' ? null : input.view.model,
      decidedBy: ai.decidedBy,
    },
    ...(input.oversight
      ? {
          humanOversight: input.oversight.decision
            ? {
                outcome: input.oversight.decision.outcome,
                decidedAt: input.oversight.decision.createdAt.toISOString(),
                votes: votes.map((v) => ({
                  member: v.voterName,
                  outcome: v.outcome,
                  at: v.updatedAt.toISOString(),
                  confirmedReport: v.confirmed.report,
                  confirmedFailedChecks: v.confirmed.failedChecks,
                  overrides: v.overrides.map(({ kind, runId, ref, label, reason }) => ({ kind, runId, ref, label, reason })),
                })),
              }
            : null,
        }
      : {}),
    sourcesState: input.sourcesState,
    sources: input.sources,
  };
}

/** `crosscheck-<company>-<protocol>-<as-of>.<ext>`, readable (may hold Hangul) and an ASCII fallback. */
export function exportFilename(input: ReportInput, format: ExportFormat) {
  const { view } = input;
  const asOf = String((view.params as { asOf?: string }).asOf ?? view.id.slice(0, 8));
  const name = 'name' in view.company && view.company.name ? view.company.name : view.company.id;
  // Letters (Hangul included) and digits; everything else, path separators first, becomes '-'.
  const slug = (s: string) =>
    s
      .normalize('NFKC')
      .replace(/[^\p{L}\p{N}_-]+/gu, '-')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '');
  const ascii = (s: string) =>
    slug(s.normalize('NFKD').replace(/[^\x20-\x7e]/g, ''))
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase();
  const ext = EXPORT_FORMATS[format].ext;
  const readable = `crosscheck-${slug(name) || view.company.id}-${view.protocol}-${asOf}.${ext}`;
  // The company id is already an ASCII slug; a Korean name has no ASCII letters to keep.
  const fallback = `crosscheck-${ascii(name) || ascii(view.company.id) || 'company'}-${view.protocol}-${asOf}.${ext}`;
  return { readable, ascii: fallback };
}

/** RFC 6266 with an RFC 5987 `filename*`, so browsers save Korean names as they are. */
export function contentDisposition({ readable, ascii }: { readable: string; ascii: string }) {
  const encoded = encodeURIComponent(readable).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii.replace(/["\\]/g, '')}"; filename*=UTF-8''${encoded}`;
}

/** The file body of one export; `locale` sets the headings (the run's own language by default). */
export async function renderExport(
  input: ReportInput,
  format: ExportFormat,
  locale?: Locale,
): Promise<{ body: Uint8Array | string; filename: ReturnType<typeof exportFilename> }> {
  const filename = exportFilename(input, format);
  if (format === 'json') return { body: `${JSON.stringify(exportJson(input), null, 2)}\n`, filename };
  const language = (input.view.params as { language?: string }).language;
  const doc = buildReportDoc(input, locale ?? (language === 'ko' ? 'ko' : 'en'));
  return { body: format === 'md' ? renderMarkdown(doc) : await renderPdf(doc), filename };
}

/** One audited export: the file, and an audit entry written only once the file exists. */
export async function exportRun({ db, actorId, runId, format, locale }: { db: Db; actorId: string; runId: string; format: ExportFormat; locale?: Locale }) {
  const input = { ...(await loadReportInput({ db, runId })), oversight: await loadRunOversight({ db, runId }) };
  const { body, filename } = await renderExport(input, format, locale);
  await db.transaction((tx) =>
    appendAudit({
      tx,
      actorId,
      action: 'run.export',
      entityType: 'run',
      entityId: runId,
      detail: { format, status: input.view.status, filename: filename.readable },
    }),
  );
  return { body, contentType: EXPORT_FORMATS[format].contentType, contentDisposition: contentDisposition(filename) };
}
