// A run's final checks as readers see them, and the ones that failed in words with their counts
// ("15 citations do not resolve…"): the notice at the top of the run page, the report and every
// export, and what submitting a case asks the RM to acknowledge (lib/report/acknowledgements.ts).
// Pure: no database, no React. The checks are the ones the engine stored with the report
// (lib/debate/checks.ts) plus the reading-consistency check, computed here from the turns.
import { translator, type Locale } from '@/lib/i18n';
import { acknowledgementMessages } from '@/lib/i18n/messages/acknowledgements';
import { reportMessages, type ReportMessages } from '@/lib/i18n/messages/report';
import { redFlagMessages } from '@/lib/i18n/messages/red-flags';
import { readingMismatches } from '@/lib/eval/reading-consistency';
import type { CheckRow, Sources } from '@/lib/report/doc';
import type { RunView } from '@/lib/report/run-doc';

/** One failed check in words: `count` is how many items it found (0 for a check without items, the output language). */
export type FailedCheckLine = { id: string; count: number; text: string };

/** The run's final checks, labelled in `locale`; none until the report is stored. */
export function reportCheckRows(view: Pick<RunView, 'report' | 'turns'>, sources: Sources, locale: Locale): CheckRow[] {
  if (!view.report) return [];
  const t = translator(reportMessages, locale);
  const tf = translator(redFlagMessages, locale);
  const rawChecks = (view.report.checks ?? []) as { id?: string; ok?: boolean; message?: string; items?: string[] }[];
  const checks: CheckRow[] = rawChecks.map((c) => {
    const key = `check.${c.id}` as keyof ReportMessages;
    const label = key in reportMessages.en ? t(key) : (c.message ?? String(c.id));
    return { id: String(c.id), ok: c.ok === true, label, items: Array.isArray(c.items) ? c.items.map(String) : [] };
  });
  // Every claim that argues against the tagged reading of what it cites, read from the sources as
  // the run recorded them (lib/eval/reading-consistency.ts).
  const mismatches = readingMismatches(view.turns, (id) => sources[id]?.polarity);
  const items = mismatches.flatMap((m) =>
    m.against.map((a) =>
      tf('checkItem', {
        claim: m.claimId,
        step: m.step,
        polarity: tf(`polarity_${m.polarity}`),
        reading: tf(`reading_${a.reading}`),
        title: sources[a.evidenceId]?.title ?? a.evidenceId,
      }),
    ),
  );
  checks.push({ id: 'reading-consistency', ok: mismatches.length === 0, label: tf('checkLabel'), items });
  return checks;
}

const KNOWN = new Set(Object.keys(acknowledgementMessages.en).filter((k) => k.startsWith('fail.')));

/** One failed check in words: "15 citations do not resolve…"; a check without words of its own by its label. */
export function failedCheckText(id: string, count: number, label: string, locale: Locale): string {
  const t = translator(acknowledgementMessages, locale);
  const key = `fail.${id}` as keyof typeof acknowledgementMessages.en;
  return KNOWN.has(key) ? t(key, { n: count }) : t('fail.other', { label, n: count });
}

/** Each failed check in words with its count, in the order the checks were recorded. */
export function failedCheckLines(checks: readonly CheckRow[], locale: Locale): FailedCheckLine[] {
  return checks.filter((c) => !c.ok).map((c) => ({ id: c.id, count: c.items.length, text: failedCheckText(c.id, c.items.length, c.label, locale) }));
}

/** The notice at the top of a finished run's report: null when every check passed. */
export function failedChecksNotice(checks: readonly CheckRow[], locale: Locale): { title: string; text: string; lines: FailedCheckLine[] } | null {
  const lines = failedCheckLines(checks, locale);
  if (!lines.length) return null;
  const t = translator(acknowledgementMessages, locale);
  return { title: t('noticeTitle'), text: t('noticeLead'), lines };
}
