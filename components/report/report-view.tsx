// The report page's body: header and metrics, the report sections, the final checks and the
// transcript appendix, all from the same model the PDF and Markdown exports draw.
import type { ReactNode } from 'react';
import { Alert, Badge, Card } from '@/components/ui/layout';
import type { ReportDoc } from '@/lib/report/model';
import { CitationList, ReportBlocks } from '@/components/report/report-blocks';
import { FailedChecksNotice } from '@/components/report/failed-checks-notice';
import { safeUrl } from '@/lib/report/markdown';

/**
 * The run's red flags before anything else, printable: kind, date, the item's title and a link
 * to its source. Nothing when there are none.
 */
function ReportRedFlags({ doc }: { doc: ReportDoc }) {
  if (!doc.redFlags.length) return null;
  return (
    <section
      aria-labelledby="report-red-flags-title"
      data-testid="red-flags"
      data-count={doc.redFlags.length}
      className="rounded-lg border-2 border-red-700 bg-red-50 p-4 text-red-950 break-inside-avoid-page dark:border-red-400 dark:bg-red-950 dark:text-red-50"
    >
      <h2 id="report-red-flags-title" className="flex items-center gap-2 text-base font-semibold">
        <span
          aria-hidden="true"
          className="inline-flex h-6 w-6 items-center justify-center rounded-full bg-red-700 text-sm font-bold text-white dark:bg-red-400 dark:text-red-950"
        >
          !
        </span>
        {doc.redFlagLabels.heading} ({doc.redFlags.length})
      </h2>
      <p className="mt-1 text-sm">{doc.redFlagLabels.intro}</p>
      <ul className="mt-3 space-y-2">
        {doc.redFlags.map((f) => {
          const url = safeUrl(f.url);
          return (
            <li
              key={`${f.kind}-${f.evidenceId}`}
              data-testid="red-flag"
              data-kind={f.kind}
              data-evidence-id={f.evidenceId}
              className="rounded-md border border-red-200 bg-white px-3 py-2 text-sm text-zinc-900 dark:border-red-800 dark:bg-zinc-900 dark:text-zinc-100"
            >
              <p className="flex flex-wrap items-baseline gap-x-2">
                <span className="font-semibold" data-testid="red-flag-kind">
                  {f.label}
                </span>
                <span aria-hidden="true">·</span>
                <time dateTime={f.date} className="tabular-nums" data-testid="red-flag-date">
                  {f.date}
                </time>
              </p>
              <p className="mt-0.5 break-words" data-testid="red-flag-title">
                {f.title}
              </p>
              {url ? (
                <p className="mt-1 text-xs">
                  {doc.redFlagLabels.item}:{' '}
                  <a href={url} className="text-blue-800 underline underline-offset-2 break-all dark:text-blue-300" target="_blank" rel="noopener noreferrer">
                    {f.source ?? url}
                  </a>
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function Fields({ items, testId }: { items: ReportDoc['header']; testId: string }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2" data-testid={testId}>
      {items.map((f) => (
        <div key={f.label} className="min-w-0">
          <dt className="text-zinc-600 dark:text-zinc-400">{f.label}</dt>
          <dd className="break-words font-medium">{f.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** `acknowledgements`: the RM's reasons for the failed checks, drawn right under them (the committee's view). */
export function ReportView({ doc, acknowledgements }: { doc: ReportDoc; acknowledgements?: ReactNode }) {
  const { labels } = doc;
  return (
    <div className="space-y-6">
      <ReportRedFlags doc={doc} />
      {doc.failedChecks ? <FailedChecksNotice notice={doc.failedChecks} /> : null}
      {acknowledgements}
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <Fields items={doc.header} testId="report-header" />
        </Card>
        <Card title={labels.metrics}>
          <Fields items={doc.metrics} testId="report-metrics" />
        </Card>
      </div>

      {doc.notice ? (
        <div data-testid="report-notice">
          <Alert tone={doc.notice.tone === 'error' ? 'error' : 'info'}>
            {doc.notice.title ? <p className="font-semibold">{doc.notice.title}</p> : null}
            <p className="whitespace-pre-line">{doc.notice.text}</p>
          </Alert>
        </div>
      ) : null}

      {doc.sourcesNote ? (
        <div data-testid="report-sources-note">
          <Alert tone="info">
            <p className="font-semibold">{labels.notFrozen}</p>
            <p className="whitespace-pre-line">{doc.sourcesNote}</p>
          </Alert>
        </div>
      ) : null}

      {doc.sections.length === 0 ? (
        <Card title={labels.reportSection}>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{labels.noReport}</p>
        </Card>
      ) : (
        doc.sections.map((section) => (
          <div key={section.id} data-testid={`report-section-${section.id}`}>
            <Card title={section.title}>
              <ReportBlocks blocks={section.blocks} labels={labels} level={3} lang={doc.contentLanguage} runHref={doc.runHref} />
            </Card>
          </div>
        ))
      )}

      <div data-testid="report-checks">
        <Card title={labels.checks}>
          {doc.checks.length === 0 ? (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">{labels.noChecks}</p>
          ) : (
            <ul className="space-y-3">
              {doc.checks.map((c) => (
                <li key={c.id} className="text-sm" data-testid={`check-${c.id}`}>
                  <div className="flex flex-wrap items-center gap-2">
                    <Badge tone={c.ok ? 'green' : 'amber'}>{c.ok ? labels.checkPassed : labels.checkFlagged}</Badge>
                    <span>{c.label}</span>
                  </div>
                  {c.items.length ? (
                    <ul className="mt-1 list-disc pl-8 text-zinc-700 dark:text-zinc-300">
                      {c.items.map((item, i) => (
                        <li key={i} className="break-words">
                          {item}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>

      {/* A red-flag screening has no debate, so no transcript. */}
      {doc.transcript.length ? (
        <section aria-labelledby="transcript-title" className="print:break-before-page" data-testid="report-transcript">
          <h2 id="transcript-title" className="text-lg font-semibold">
            {labels.transcript}
          </h2>
          <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">{labels.transcriptNote}</p>
          <ol className="space-y-3">
            {doc.transcript.map((turn) => (
              <li key={turn.step} data-testid={`transcript-turn-${turn.step}`}>
                <article className="rounded-lg border border-zinc-200 bg-white p-4 break-inside-avoid-page dark:border-zinc-800 dark:bg-zinc-900">
                  <h3 className="mb-2 flex flex-wrap items-center gap-2 text-sm font-semibold">
                    <span className={turn.title === turn.step ? 'font-mono' : undefined}>{turn.title}</span>
                    <span aria-hidden="true">·</span>
                    <span>{turn.speaker}</span>
                    <Badge tone={turn.status === 'failed' ? 'red' : 'neutral'}>{turn.team}</Badge>
                    <span className="font-normal text-zinc-600 dark:text-zinc-400">{turn.act}</span>
                  </h3>
                  <p
                    lang={turn.status === 'done' ? doc.contentLanguage : undefined}
                    className={`whitespace-pre-line break-words text-sm leading-relaxed ${turn.status === 'failed' ? 'text-red-800 dark:text-red-300' : turn.status === 'done' ? '' : 'text-zinc-600 dark:text-zinc-400'}`}
                  >
                    {turn.text}
                  </p>
                  {turn.flags.length ? (
                    <ul className="mt-2 space-y-1 text-sm text-amber-900 dark:text-amber-200" data-testid="reads-against">
                      {turn.flags.map((line, i) => (
                        <li key={i} className="break-words">
                          <span aria-hidden="true">⚠ </span>
                          {line}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                  {turn.questions.length ? (
                    <div className="mt-2">
                      <p className="text-xs font-semibold uppercase tracking-wide text-zinc-700 dark:text-zinc-300">{labels.questionsLabel}</p>
                      <ul className="list-disc space-y-1 pl-6 text-sm" lang={doc.contentLanguage}>
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
                      <CitationList items={turn.citations} labels={labels} lang={doc.contentLanguage} />
                    </div>
                  ) : null}
                </article>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </div>
  );
}
