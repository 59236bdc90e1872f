'use client';

// The company page's timeline of filings the watch has seen: when each was published, and when
// a watch check first found it in its source (a filing can surface days after its date).
import { formatDateTime } from '@/components/lists/format';
import type { SightingView } from '@/lib/domain/watch';
import { useLocale, useT } from '@/lib/i18n/client';
import { watchMessages } from '@/lib/i18n/messages/watch';

export function FilingSightings({ sightings }: { sightings: SightingView[] }) {
  const t = useT(watchMessages);
  const locale = useLocale();
  if (!sightings.length) return <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('timelineEmpty')}</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="watch-timeline">
        <thead className="text-xs text-zinc-600 dark:text-zinc-400">
          <tr>
            <th scope="col" className="py-1 pr-3 font-medium">
              {t('seenAt')}
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              {t('published')}
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              {t('filing')}
            </th>
            <th scope="col" className="py-1 font-medium">
              {t('source')}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {sightings.map((s) => (
            <tr key={s.evidenceId} data-testid="watch-sighting" data-evidence-id={s.evidenceId}>
              <td className="py-1 pr-3 whitespace-nowrap">
                <time dateTime={s.seenAt}>{formatDateTime(new Date(s.seenAt), locale)}</time>
              </td>
              <td className="py-1 pr-3 whitespace-nowrap">{s.publishedDate}</td>
              <td className="py-1 pr-3">
                <a className="text-blue-800 underline underline-offset-2 dark:text-blue-300" href={s.sourceUrl} rel="noreferrer noopener" target="_blank">
                  {s.title}
                </a>
              </td>
              <td className="py-1 whitespace-nowrap">{s.source === 'dart' ? 'OpenDART' : s.source === 'edgar' ? 'SEC EDGAR' : s.source}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
