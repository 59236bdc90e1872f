// Stored automated judgments (lib/eval/judges.ts): a pairwise verdict on two runs of one case, or a
// rubric judgment of one run. Every stored judgment is audited in the same transaction, so the
// log and the table cannot disagree about who ran which judge.
import 'server-only';
import { and, desc, eq, or } from 'drizzle-orm';
import type { Db, Executor } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { judgments, users } from '@/lib/db/schema';
import type { PairwiseJudgmentRow, PairwiseOutcome, PairwiseResult, RubricJudgmentRow, RubricResult } from '@/lib/domain/judgments';
import type { JudgmentKind } from '@/lib/domain/vocabulary';

type Stored = { provider: string; model: string; createdById: string };

/** Stores a pairwise result (a = runId, b = otherRunId) and its audit entry. */
export async function recordPairwiseJudgment({ db, a, b, result, ...by }: Stored & { db: Db; a: string; b: string; result: PairwiseResult }) {
  return record(db, { kind: 'pairwise', runId: a, otherRunId: b, result, ...by });
}

/** Stores a rubric result and its audit entry. */
export async function recordRubricJudgment({ db, runId, result, ...by }: Stored & { db: Db; runId: string; result: RubricResult }) {
  return record(db, { kind: 'rubric', runId, otherRunId: null, result, ...by });
}

async function record(db: Db, row: Stored & { kind: JudgmentKind; runId: string; otherRunId: string | null; result: PairwiseResult | RubricResult }) {
  return db.transaction(async (tx) => {
    const [saved] = await tx.insert(judgments).values(row).returning({ id: judgments.id, createdAt: judgments.createdAt });
    await appendAudit({
      tx,
      actorId: row.createdById,
      action: `judge.${row.kind}`,
      entityType: 'judgment',
      entityId: saved.id,
      detail: { runIds: row.otherRunId ? [row.runId, row.otherRunId] : [row.runId], provider: row.provider, model: row.model },
    });
    return saved;
  });
}

const columns = {
  id: judgments.id,
  runId: judgments.runId,
  otherRunId: judgments.otherRunId,
  result: judgments.result,
  provider: judgments.provider,
  model: judgments.model,
  createdAt: judgments.createdAt,
  createdByName: users.name,
};

/**
 * Earlier pairwise judgments of the pair, newest first, in either order they were asked, seen
 * from `a`'s side: a judgment stored as (b, a) has its sides and orders swapped back.
 */
export async function listPairwiseJudgments({ db, a, b }: { db: Executor; a: string; b: string }): Promise<PairwiseJudgmentRow[]> {
  const rows = await db
    .select(columns)
    .from(judgments)
    .leftJoin(users, eq(users.id, judgments.createdById))
    .where(
      and(
        eq(judgments.kind, 'pairwise'),
        or(and(eq(judgments.runId, a), eq(judgments.otherRunId, b)), and(eq(judgments.runId, b), eq(judgments.otherRunId, a))),
      ),
    )
    .orderBy(desc(judgments.createdAt));
  return rows.map(({ runId, otherRunId: _other, result, ...rest }) => {
    // The kind filter above makes every result here a pairwise one.
    const stored = result as PairwiseResult;
    return { ...rest, result: runId === a ? stored : swapSides(stored) };
  });
}

/** The same verdicts with the two runs' roles exchanged. */
export function swapSides(r: PairwiseResult): PairwiseResult {
  const flip = (w: PairwiseOutcome): PairwiseOutcome => (w === 'a' ? 'b' : w === 'b' ? 'a' : 'tie');
  return {
    ...r,
    // "a-first" always means "the page's run A was shown as Report A"; keep that order.
    comparisons: [...r.comparisons]
      .map((c) => ({ ...c, order: c.order === 'a-first' ? ('b-first' as const) : ('a-first' as const), winner: flip(c.winner) }))
      .sort((x, y) => (x.order === y.order ? 0 : x.order === 'a-first' ? -1 : 1)),
    wins: { a: r.wins.b, b: r.wins.a },
    winRate: { a: r.winRate.b, b: r.winRate.a },
  };
}

/** Earlier rubric judgments of a run, newest first. */
export async function listRubricJudgments({ db, runId }: { db: Executor; runId: string }): Promise<RubricJudgmentRow[]> {
  const rows = await db
    .select(columns)
    .from(judgments)
    .leftJoin(users, eq(users.id, judgments.createdById))
    .where(and(eq(judgments.kind, 'rubric'), eq(judgments.runId, runId)))
    .orderBy(desc(judgments.createdAt));
  return rows.map(({ runId: _run, otherRunId: _other, result, ...rest }) => ({ ...rest, result: result as RubricResult }));
}
