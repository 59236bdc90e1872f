// The blinded report of an assignment's run, read on the server. Only the BlindReport leaves
// this module; the run document with its ids, protocol and model stays here.
import type { Db } from '@/lib/db/client';
import { blindReport, type BlindReport } from '@/lib/eval/study-blind';
import { translator, type Locale } from '@/lib/i18n';
import { ratingMessages } from '@/lib/i18n/messages/studies-rating';
import { loadReportInput } from '@/lib/report/load';
import { buildReportDoc, type ReportDoc } from '@/lib/report/model';

const TURN_WORD: Record<Locale, string> = { en: 'Turn', ko: '발언' };

/** The blinded report, and the report renderer's labels (plain interface strings) in `locale`. */
export async function loadBlindReport({
  db,
  runId,
  locale,
}: {
  db: Db;
  runId: string;
  locale: Locale;
}): Promise<{ report: BlindReport; labels: ReportDoc['labels'] }> {
  const input = await loadReportInput({ db, runId });
  const doc = buildReportDoc(input, locale, { blind: true });
  const t = translator(ratingMessages, locale);
  const headings = {
    conclusion: t('blindConclusion'),
    favourable: t('blindFavourable'),
    adverse: t('blindAdverse'),
    analysis: t('blindAnalysis'),
    empty: t('blindEmpty'),
  };
  const report = blindReport({ doc, model: input.view.model, turnWord: TURN_WORD[doc.contentLanguage], headings });
  return { report, labels: doc.labels };
}
