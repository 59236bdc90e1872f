// A web result captured during a run becomes evidence like any other, so citations to it
// resolve and the report can show its source and date: no evidence goes without both.
import type { PoolEvidence } from '@/lib/pool/types';
import { isoDay } from '@/lib/util/dates';
import { guessLanguage, hostName } from './text';
import type { WebResult } from './types';

/**
 * Evidence needs a date, but many pages carry none. We then use the retrieval day: the one date
 * we can vouch for (the page existed by then), never an invented earlier one. In a back-test that
 * day lies after the as-of date, so as-of and recency checks treat the item as late instead of
 * silently trusting it; and the text says plainly that the page was undated.
 */
export function undatedNote(retrievedOn: string): string {
  return `[The page gave no publication date; dated by its retrieval on ${retrievedOn}.]`;
}

export function toRunEvidence(result: WebResult, { runId, index, companyId }: { runId: string; index: number; companyId: string }): PoolEvidence {
  const retrievedOn = isoDay(result.retrievedAt);
  const sourceName = result.sourceName || hostName(result.url);
  const text = result.publishedDate ? result.snippet : [result.snippet, undatedNote(retrievedOn)].filter(Boolean).join(' ');
  return {
    id: `web-${runId}-${index}`,
    companyId,
    category: 'news',
    title: result.title || sourceName,
    text,
    value: null,
    eventDate: null,
    publishedDate: result.publishedDate ?? retrievedOn,
    sourceName,
    sourceUrl: result.url,
    language: guessLanguage(`${result.title} ${result.snippet}`),
    upstream: `websearch:${result.provider}`,
    license: null,
    retrievedAt: result.retrievedAt,
  };
}
