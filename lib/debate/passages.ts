// The document passages a step that reads documents is given (docs/protocols.md, "What a step
// sees"): retrieved with its query, or with each of its queries (FinDebate's query families),
// their results shared out in turn — the best of each query first, then the second best of each,
// and so on — so that every query is represented, an item found by two queries appears once, and
// the step gets at most `k`. Without a query it searches with the start of its task.
import type { StepDef } from '@/lib/domain/protocol';
import type { RetrievedItem } from '@/lib/pool/retrieve';

export type Search = (query: string, k: number) => Promise<RetrievedItem[]>;

/** The queries a step's passages are retrieved with. */
export function queriesOf(step: Pick<StepDef, 'queries' | 'query' | 'task'>): string[] {
  const listed = (step.queries ?? []).filter((q) => q.trim());
  return listed.length ? listed : [step.query ?? step.task.slice(0, 200)];
}

export async function passagesFor(step: Pick<StepDef, 'queries' | 'query' | 'task'>, search: Search, k: number): Promise<RetrievedItem[]> {
  const queries = queriesOf(step);
  if (queries.length === 1) return search(queries[0], k);
  // Each query may bring k, so that a query whose best items another one already brought still
  // contributes items of its own.
  const lists = await Promise.all(queries.map((q) => search(q, k)));
  const out: RetrievedItem[] = [];
  const seen = new Set<string>();
  for (let rank = 0; out.length < k && lists.some((l) => rank < l.length); rank++) {
    for (const list of lists) {
      const item = list[rank];
      if (!item || seen.has(item.id)) continue;
      seen.add(item.id);
      out.push(item);
      if (out.length === k) break;
    }
  }
  return out;
}
