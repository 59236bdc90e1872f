// The blinded report for an evaluator: server-rendered only, keyed by position, so neither the
// HTML nor the RSC payload carries a step id or anything else of the run. Its sections are the
// same four neutral headings for every system, and then one list of the sources cited
// (lib/eval/study-blind.ts): no transcript, whose number and order of turns would name the system.
import { CitationList, ReportBlocks } from '@/components/report/report-blocks';
import { Card } from '@/components/ui/layout';
import type { BlindReport } from '@/lib/eval/study-blind';
import type { Translate } from '@/lib/i18n';
import type { RatingMessages } from '@/lib/i18n/messages/studies-rating';
import type { ReportDoc } from '@/lib/report/model';

export function BlindReportView({ report, labels, t }: { report: BlindReport; labels: ReportDoc['labels']; t: Translate<RatingMessages> }) {
  const lang = report.contentLanguage;
  return (
    <div className="space-y-6" data-testid="blind-report">
      <section aria-labelledby="report-heading" className="space-y-4">
        <h2 id="report-heading" className="text-lg font-semibold">
          {t('reportHeading')}
        </h2>
        {report.sections.length === 0 ? <p className="text-sm">{t('noReport')}</p> : null}
        {report.sections.map((section) => (
          <Card key={section.id} title={section.title}>
            <ReportBlocks blocks={section.blocks} labels={labels} level={3} lang={lang} />
          </Card>
        ))}
      </section>
      <div data-testid="blind-sources">
        <Card title={t('sourcesHeading')}>
          <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">{t('sourcesNote')}</p>
          <CitationList items={report.sources} labels={labels} lang={lang} />
        </Card>
      </div>
    </div>
  );
}
