// Web search for a run's agents, through the provider seam in lib/pool/search: results become
// this run's evidence (ids `web-<run>-<n>`), citable like pool items and never written to the pool.
import type { WebSearchFn } from '@/lib/debate/engine';
import { env } from '@/lib/env';
import { getWebSearch, toRunEvidence } from '@/lib/pool/search';
import type { WebEvidence } from '@/lib/llm/types';

/** A search function for one run, or undefined when no search provider is configured. */
export function webSearchForRun({ runId, companyId }: { runId: string; companyId: string }): WebSearchFn | undefined {
  const search = getWebSearch(env());
  if (!search.configured) return undefined;
  let index = 0;
  return async (query, { maxResults, asOf, recencyDays, language }) => {
    const results = await search.provider.search(query, { maxResults, asOf, recencyDays, language });
    return results.map((r) => toRunEvidence(r, { runId, index: ++index, companyId }) as WebEvidence);
  };
}
