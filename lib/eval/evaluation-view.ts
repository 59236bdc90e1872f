// The automatic measures the report page shows next to the rubric judge, as
// plain values: the page renders them, and a test can read them without React.
import type { RunView } from '@/lib/report/run-view';
import { readabilityOfRun, type Readability, type ReadableRun } from '@/lib/eval/readability';
import { citationGrounding } from '@/lib/eval/tree';

export type ReadabilityState = { ok: true; value: Readability } | { ok: false; reason: 'korean' | 'no-report' | 'other'; message?: string };

/** Readability is computed on render: it is cheap, and never stale against the stored report. */
export function readabilityState(view: ReadableRun): ReadabilityState {
  if (!view.report) return { ok: false, reason: 'no-report' };
  if (view.params?.language === 'ko') return { ok: false, reason: 'korean' };
  try {
    return { ok: true, value: readabilityOfRun(view) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, reason: /Korean/.test(message) ? 'korean' : 'other', message };
  }
}

/** Resolved / all citations of the finished turns (the figure lib/report/run-view.ts reports). */
export function groundingCounts(view: Pick<RunView, 'turns'>) {
  const citations = view.turns.filter((t) => t.status === 'done').flatMap((t) => t.citations as { verified?: boolean }[]);
  const resolved = citations.filter((c) => c.verified).length;
  return { resolved, total: citations.length, ratio: citationGrounding(resolved, citations.length) };
}
