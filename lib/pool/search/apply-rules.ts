// The rules every provider's results pass through, in one place so that no provider can leak
// a result the case must not see. Order matters: unusable URLs and out-of-window dates go first,
// then duplicates (the first, best-ranked copy wins), then the cap of `maxResults`.
import { addDays, isIsoDay, isoDay } from '@/lib/util/dates';
import { WebSearchError } from './errors';
import { httpUrl } from './text';
import type { WebResult, WebSearchOptions } from './types';

export type DateWindow = {
  /** Earliest publication date kept (as-of − R), or null without a recency bound. */
  from: string | null;
  /** Latest publication date kept (the as-of date), or null without one. */
  to: string | null;
};

type RuleOptions = Pick<WebSearchOptions, 'maxResults' | 'recencyDays' | 'asOf'>;

/** Rejects options that would make the rules meaningless, before any request is sent. */
export function validateOptions(opts: RuleOptions): void {
  if (!Number.isInteger(opts.maxResults) || opts.maxResults < 1) {
    throw new WebSearchError('invalid_request', `maxResults must be a positive integer (got ${opts.maxResults}).`);
  }
  if (opts.recencyDays !== undefined && (!Number.isInteger(opts.recencyDays) || opts.recencyDays < 0)) {
    throw new WebSearchError('invalid_request', `recencyDays must be a whole number of days ≥ 0 (got ${opts.recencyDays}).`);
  }
  if (opts.asOf !== undefined && !isIsoDay(opts.asOf)) {
    throw new WebSearchError('invalid_request', `asOf must be a date written YYYY-MM-DD (got ${JSON.stringify(opts.asOf)}).`);
  }
}

/**
 * The publication window a result must fall in. Without an as-of date the recency window counts
 * back from the retrieval day. Providers send the same window upstream, so their own date filters
 * and ours agree; ours is the one that counts, because upstream filters are approximate.
 */
export function dateWindow(opts: RuleOptions, retrievedAt: Date): DateWindow {
  const to = opts.asOf ?? null;
  const from = opts.recencyDays === undefined ? null : addDays(to ?? isoDay(retrievedAt), -opts.recencyDays);
  return { from, to };
}

/** A key under which two links to the same page collide: no fragment, no www., no trailing slash, no utm_*. */
export function urlKey(url: URL): string {
  const params = [...url.searchParams].filter(([k]) => !k.toLowerCase().startsWith('utm_'));
  params.sort(([a], [b]) => a.localeCompare(b));
  const query = new URLSearchParams(params).toString();
  const path = url.pathname.replace(/\/+$/, '') || '/';
  return `${url.hostname.replace(/^www\./, '')}${path}${query ? `?${query}` : ''}`;
}

export function applyRules(results: WebResult[], opts: RuleOptions, retrievedAt: Date): WebResult[] {
  const { from, to } = dateWindow(opts, retrievedAt);
  const seen = new Set<string>();
  const kept: WebResult[] = [];
  for (const result of results) {
    if (kept.length >= opts.maxResults) break;
    const url = httpUrl(result.url);
    if (!url) continue;
    // Nothing published after the as-of date may reach an agent; undated results stay, flagged by
    // publishedDate: null, and the evidence built from them says the page gave no date.
    if (result.publishedDate !== null) {
      if (to && result.publishedDate > to) continue;
      if (from && result.publishedDate < from) continue;
    }
    const key = urlKey(url);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push({ ...result, url: url.href });
  }
  return kept;
}
