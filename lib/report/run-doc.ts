// A run as one JSON document (docs/run-export.md), built from its rows: turns in protocol order,
// the report, the reasoning tree and the metrics. Pure (no database), so the live run page in the
// browser (lib/report/run-state.ts, components/run/) shares its types without reaching the
// server; lib/report/run-view.ts reads the rows and calls it.
import type { Company, reports, Run, runSteps } from '@/lib/db/schema';
import { citationsOf, claimsOf, questionsOf } from '@/lib/domain/output-parts';
import type { StepRepair } from '@/lib/domain/stored';
import type { Phrase } from '@/lib/domain/phrase';
import { buildReasoningTree, citationGrounding } from '@/lib/eval/tree';

type Rows = {
  run: Run;
  /** In protocol order. */
  steps: (typeof runSteps.$inferSelect)[];
  report: typeof reports.$inferSelect | undefined;
  company: Company | undefined;
};

/** From the first step's start to the last one's end; null when no step has both. */
function stepSpanMs(turns: { startedAt: string | null; finishedAt: string | null }[]): number | null {
  const firstStart = Math.min(...turns.map((t) => (t.startedAt ? Date.parse(t.startedAt) : Infinity)));
  const lastEnd = Math.max(...turns.map((t) => (t.finishedAt ? Date.parse(t.finishedAt) : -Infinity)));
  return Number.isFinite(lastEnd - firstStart) ? lastEnd - firstStart : null;
}

/**
 * The latency metric (docs/protocols.md, "Metrics"): the finished steps' span, first start to last
 * end. A retried run's steps finished in earlier attempts started before its latest attempt did
 * (runs.started_at): the two groups are measured apart, and the earlier one at most as long as
 * the earlier attempts took (runs.prior_elapsed_ms), so the time the run lay failed before its
 * retry is not counted as latency.
 */
function stepLatencyMs(done: { startedAt: string | null; finishedAt: string | null }[], run: Pick<Run, 'startedAt' | 'priorElapsedMs'>): number | null {
  const prior = Number(run.priorElapsedMs ?? 0);
  if (!(prior > 0)) return stepSpanMs(done);
  // A run queued again and not yet started: every finished step is an earlier attempt's.
  const attemptStart = run.startedAt ? new Date(run.startedAt).getTime() : Infinity;
  const latest = stepSpanMs(done.filter((t) => t.startedAt && Date.parse(t.startedAt) >= attemptStart));
  const earlier = stepSpanMs(done.filter((t) => t.startedAt && Date.parse(t.startedAt) < attemptStart));
  if (latest === null && earlier === null) return null;
  return (latest ?? 0) + Math.min(earlier ?? 0, prior);
}

export function runDocument({ run, steps, report, company }: Rows) {
  const turns = steps.map((s) => {
    const citations = citationsOf(s.output) as { verified?: boolean }[];
    return {
      step: s.stepId,
      agent: s.agent,
      team: s.team,
      act: s.act,
      context: s.contextStepIds,
      status: s.status,
      text: s.text ?? '',
      claims: claimsOf(s.output),
      questions: questionsOf(s.output),
      citations,
      output: s.output,
      toolCalls: s.toolCalls,
      startedAt: s.startedAt?.toISOString() ?? null,
      finishedAt: s.finishedAt?.toISOString() ?? null,
      // cachedTokens: of the prompt tokens, those the provider's prompt cache served (0 when it did not say).
      usage: {
        promptTokens: s.promptTokens,
        completionTokens: s.completionTokens,
        costUsd: Number(s.costUsd),
        ...({ cachedTokens: s.cachedTokens ?? 0 } as { cachedTokens?: number }),
      },
      error: s.error,
      /** The error as a phrase, rendered in the reader's language; null for one stored before phrases were kept. */
      ...({ errorPhrase: s.errorPhrase ?? null } as { errorPhrase?: Phrase | null }),
      /**
       * What the engine changed to take the step's answer in (docs/protocols.md, "Taking answers
       * in"). Optional for readers: a view built elsewhere, or exported before repairs were kept, has none.
       */
      ...({ repairs: s.repairs ?? [] } as { repairs?: StepRepair[] }),
    };
  });
  const done = turns.filter((t) => t.status === 'done');
  const tree = buildReasoningTree(done.map((t) => ({ stepId: t.step, team: t.team, act: t.act, output: t.output })));
  const allCitations = done.flatMap((t) => t.citations);
  const resolved = allCitations.filter((c) => c.verified).length;
  const latencyMs = stepLatencyMs(done, run);
  return {
    id: run.id,
    protocol: run.protocol,
    status: run.status,
    error: run.error,
    errorPhrase: run.errorPhrase ?? null,
    provider: run.provider,
    model: run.model,
    mode: run.mode,
    company: company ? { id: company.id, name: company.name, nameEn: company.nameEn } : { id: run.companyId },
    params: run.params,
    /** The decisive credit events found before the debate (lib/pool/red-flags.ts), each naming its evidence item. */
    redFlags: run.redFlags ?? [],
    /** Set when the run ended as `insufficient_evidence` (lib/debate/sufficiency.ts): what the pool held against the threshold. */
    shortfall: run.shortfall ?? null,
    turns,
    report: report ? { content: report.content, checks: report.checks } : null,
    tree,
    metrics: {
      breadth: tree.breadth,
      depths: tree.depths,
      rei: tree.rei,
      citationGrounding: citationGrounding(resolved, allCitations.length),
      latencyMs,
      // `cached`: of the prompt tokens, those the provider's prompt cache served; optional for readers of older exports.
      tokens: {
        prompt: run.promptTokens,
        completion: run.completionTokens,
        total: run.promptTokens + run.completionTokens,
        ...({ cached: run.cachedTokens ?? 0 } as { cached?: number }),
      },
      costUsd: Number(run.costUsd),
    },
  };
}

export type RunView = ReturnType<typeof runDocument>;
export type RunViewTurn = RunView['turns'][number];
