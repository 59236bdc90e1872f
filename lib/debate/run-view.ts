// A run as one JSON document (docs/run-export.md): turns in protocol order, the report, the
// reasoning tree and the metrics. The CLI prints it; exports and the API will share it.
import type { Db } from '@/lib/db/client';
import { getCompanyById } from '@/lib/db/queries/companies';
import { getReport, getRun, listRunSteps } from '@/lib/db/queries/runs';
import { citationsOf, claimsOf, questionsOf } from '@/lib/debate/rules';
import { buildReasoningTree, citationGrounding } from '@/lib/eval/tree';

export async function loadRunView({ db, runId }: { db: Db; runId: string }) {
  const run = await getRun({ db, id: runId });
  if (!run) throw new Error(`Run ${runId} does not exist.`);
  const [steps, report, company] = await Promise.all([listRunSteps({ db, runId }), getReport({ db, runId }), getCompanyById({ db, id: run.companyId })]);
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
      usage: { promptTokens: s.promptTokens, completionTokens: s.completionTokens, costUsd: Number(s.costUsd) },
      error: s.error,
    };
  });
  const done = turns.filter((t) => t.status === 'done');
  const tree = buildReasoningTree(done.map((t) => ({ stepId: t.step, team: t.team, act: t.act, output: t.output })));
  const allCitations = done.flatMap((t) => t.citations);
  const resolved = allCitations.filter((c) => c.verified).length;
  const firstStart = Math.min(...done.map((t) => (t.startedAt ? Date.parse(t.startedAt) : Infinity)));
  const lastEnd = Math.max(...done.map((t) => (t.finishedAt ? Date.parse(t.finishedAt) : -Infinity)));
  return {
    id: run.id,
    protocol: run.protocol,
    status: run.status,
    error: run.error,
    provider: run.provider,
    model: run.model,
    mode: run.mode,
    company: company ? { id: company.id, name: company.name, nameEn: company.nameEn } : { id: run.companyId },
    params: run.params,
    turns,
    report: report ? { content: report.content, checks: report.checks } : null,
    tree,
    metrics: {
      breadth: tree.breadth,
      depths: tree.depths,
      rei: tree.rei,
      citationGrounding: citationGrounding(resolved, allCitations.length),
      latencyMs: Number.isFinite(lastEnd - firstStart) ? lastEnd - firstStart : null,
      tokens: { prompt: run.promptTokens, completion: run.completionTokens, total: run.promptTokens + run.completionTokens },
      costUsd: Number(run.costUsd),
    },
  };
}

export type RunView = Awaited<ReturnType<typeof loadRunView>>;
export type RunViewTurn = RunView['turns'][number];
