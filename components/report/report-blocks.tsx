// The report model's blocks as HTML. Model and evidence text is rendered as text (React
// escapes it); links are only http(s) and open the source in a new tab.
import { Badge } from '@/components/ui/layout';
import { safeUrl } from '@/lib/report/markdown';
import type { Block, CitationRef, ReportDoc, Segment } from '@/lib/report/model';
import { POOL_NOTE_LABEL } from '@/lib/domain/cited-source';

type Labels = ReportDoc['labels'];

const prose = 'whitespace-pre-line break-words text-sm leading-relaxed';
const muted = 'text-zinc-600 dark:text-zinc-400';
const link = 'text-blue-800 underline underline-offset-2 break-all dark:text-blue-300';

export function CitationList({ items, labels, lang }: { items: CitationRef[]; labels: Labels; lang: string }) {
  if (items.length === 0) return <p className={`text-sm ${muted}`}>{labels.noCitations}</p>;
  return (
    <ol className="list-decimal space-y-1 pl-6 text-sm" data-testid="citations" lang={lang}>
      {items.map((c, i) => {
        const url = safeUrl(c.url);
        return (
          <li key={`${c.evidenceId ?? c.source}-${i}`} className="break-words">
            <span className="font-medium tabular-nums">{c.date || '—'}</span> · <span>{c.source || '—'}</span>
            {c.value ? <span className={muted}> · {c.value}</span> : null}
            {url ? (
              <>
                {' · '}
                <a href={url} className={link} target="_blank" rel="noopener noreferrer">
                  {c.title ?? url}
                </a>
              </>
            ) : null}
            {c.afterAsOf ? (
              <>
                {' '}
                <span title={labels.afterAsOfLong} data-testid="citation-after-as-of">
                  <Badge tone="red">{labels.afterAsOf}</Badge>
                  <span className="sr-only"> — {labels.afterAsOfLong}</span>
                </span>
              </>
            ) : c.verified ? null : (
              <>
                {' '}
                <span title={labels.unverifiedLong} data-testid="citation-unverified">
                  <Badge tone="amber">{labels.unverified}</Badge>
                  <span className="sr-only"> — {labels.unverifiedLong}</span>
                </span>
              </>
            )}
            {c.poolNote ? (
              <>
                {' '}
                {/* The title and link above are as the run cited them; the pool reads differently now. */}
                <span data-testid="citation-pool-note" data-pool-note={c.poolNote}>
                  <Badge tone="amber">{labels[POOL_NOTE_LABEL[c.poolNote]]}</Badge>
                </span>
              </>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

/**
 * A text with its links: a turn's name links to its card in the run's transcript, a summary's
 * pointer to its topic on this page. Without `runHref` (a study's blinded report), text only.
 */
function Rich({ text, parts, runHref }: { text: string; parts?: Segment[] | null; runHref?: string }) {
  if (!parts || runHref === undefined) return <>{text}</>;
  return (
    <>
      {parts.map((p, i) =>
        typeof p === 'string' ? (
          p
        ) : (
          <a
            key={i}
            href={p.to === 'turn' ? `${runHref}#${p.anchor}` : `#${p.anchor}`}
            className="text-blue-800 underline decoration-dotted underline-offset-2 hover:decoration-solid dark:text-blue-300"
            data-testid={p.to === 'turn' ? 'turn-link' : 'topic-link'}
            data-anchor={p.anchor}
          >
            {p.text}
          </a>
        ),
      )}
    </>
  );
}

/** `runHref`: the run's page, for the links from the prose to its turns; left out, the prose has no links. */
export function ReportBlocks({ blocks, labels, level, lang, runHref }: { blocks: Block[]; labels: Labels; level: 3 | 4; lang: string; runHref?: string }) {
  return (
    <div className="space-y-3">
      {blocks.map((b, i) => {
        switch (b.kind) {
          case 'paragraph':
            return (
              <p key={i} className={prose} lang={lang}>
                <Rich text={b.text} parts={b.parts} runHref={runHref} />
              </p>
            );
          case 'list':
            return (
              <ul key={i} className="list-disc space-y-1.5 pl-6 text-sm leading-relaxed" lang={lang}>
                {b.items.map((item, j) => (
                  <li key={j} className="whitespace-pre-line break-words">
                    <Rich text={item} parts={b.parts?.[j]} runHref={runHref} />
                  </li>
                ))}
              </ul>
            );
          case 'fields':
            return (
              <dl key={i} className="space-y-2">
                {b.items.map((f) => (
                  <div key={f.label}>
                    <dt className="text-xs font-semibold uppercase tracking-wide text-zinc-700 dark:text-zinc-300">{f.label}</dt>
                    <dd className={prose}>
                      <Rich text={f.value} parts={f.parts} runHref={runHref} />
                    </dd>
                  </div>
                ))}
              </dl>
            );
          case 'citations':
            return (
              <div key={i}>
                <p className="mb-1 text-xs font-semibold uppercase tracking-wide text-zinc-700 dark:text-zinc-300">{labels.citations}</p>
                <CitationList items={b.items} labels={labels} lang={lang} />
              </div>
            );
          case 'table':
            return (
              <div key={i} className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
                <table className="min-w-full divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
                  <caption className="sr-only">{b.caption}</caption>
                  <thead className="bg-zinc-100 text-left dark:bg-zinc-900">
                    <tr>
                      {b.head.map((h) => (
                        <th key={h} scope="col" className="px-3 py-2 font-semibold">
                          {h}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
                    {b.rows.map((row, r) => (
                      <tr key={r}>
                        {row.map((cell, c) => (
                          <td key={c} className="px-3 py-2 align-top break-words">
                            {cell}
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            );
          case 'note':
            return (
              <p
                key={i}
                className={`${prose} rounded border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100`}
              >
                <Rich text={b.text} parts={b.parts} runHref={runHref} />
              </p>
            );
          case 'group': {
            const Heading = level === 3 ? 'h3' : 'h4';
            return (
              <section key={i} id={b.anchor} className="scroll-mt-20 space-y-2 break-inside-avoid-page">
                <Heading className={level === 3 ? 'text-sm font-semibold' : 'text-sm font-medium'}>{b.title}</Heading>
                <ReportBlocks blocks={b.blocks} labels={labels} level={4} lang={lang} runHref={runHref} />
              </section>
            );
          }
        }
      })}
    </div>
  );
}
