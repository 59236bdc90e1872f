// The blinded report for an evaluator: server-rendered only, keyed by position, so neither the
// HTML nor the RSC payload carries a step id or anything else of the run. Its sections are the
// same four neutral headings for every system (lib/eval/study-blind.ts).
import { CitationList, ReportBlocks } from '@/components/report/report-blocks';
import { Card } from '@/components/ui/layout';
import type { BlindReport, BlindSpeaker } from '@/lib/eval/study-blind';
import type { Translate } from '@/lib/i18n';
import type { RatingMessages } from '@/lib/i18n/messages/studies-rating';
import type { ReportDoc } from '@/lib/report/model';

const SPEAKER_KEY = { affirmative: 'speakerAffirmative', negative: 'speakerNegative', analyst: 'speakerAnalyst' } as const satisfies Record<BlindSpeaker, keyof RatingMessages>;

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
      {report.turns.length ? (
        <details className="rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900" data-testid="blind-transcript">
          <summary className="cursor-pointer text-base font-semibold">{t('transcriptHeading')}</summary>
          <p className="mt-2 mb-3 text-sm text-zinc-600 dark:text-zinc-400">{t('transcriptNote')}</p>
          <ol className="space-y-3">
            {report.turns.map((turn) => (
              <li key={turn.n}>
                <article className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
                  <h3 className="mb-2 text-sm font-semibold">
                    {t('turnN', { n: turn.n })} · {t(SPEAKER_KEY[turn.speaker])}
                  </h3>
                  <p lang={lang} className="whitespace-pre-line break-words text-sm leading-relaxed">
                    {turn.text}
                  </p>
                  {turn.questions.length ? (
                    <div className="mt-2">
                      <p className="text-xs font-semibold uppercase tracking-wide text-zinc-700 dark:text-zinc-300">{t('questions')}</p>
                      <ul className="list-disc space-y-1 pl-6 text-sm" lang={lang}>
                        {turn.questions.map((q, i) => (
                          <li key={i} className="break-words">
                            {q}
                          </li>
                        ))}
                      </ul>
                    </div>
                  ) : null}
                  {turn.citations.length ? (
                    <div className="mt-2">
                      <p className="text-xs font-semibold uppercase tracking-wide text-zinc-700 dark:text-zinc-300">{labels.citations}</p>
                      <CitationList items={turn.citations} labels={labels} lang={lang} />
                    </div>
                  ) : null}
                </article>
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </div>
  );
}
