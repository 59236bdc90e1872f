import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '@/lib/db/client';
import { reports, runs, runSteps, users, type RunStatus } from '@/lib/db/schema';
import type { ProtocolDef, RunMode, RunParams } from '@/lib/debate/types';

export async function insertRun({
  db,
  protocol,
  params,
  provider,
  model,
  mode,
  companyId,
  caseId = null,
  createdById = null,
  id,
}: {
  db: Executor;
  /** A fixed id (the demo run); a random one otherwise. */
  id?: string;
  protocol: ProtocolDef;
  params: RunParams;
  provider: string;
  model: string;
  mode: RunMode;
  companyId: string;
  caseId?: string | null;
  createdById?: string | null;
}) {
  return db.transaction(async (tx) => {
    const [run] = await tx.insert(runs).values({ ...(id ? { id } : {}), protocol: protocol.id, params, provider, model, mode, companyId, caseId, createdById, status: 'queued' }).returning();
    await tx.insert(runSteps).values(
      protocol.steps.map((s, ordinal) => ({ runId: run.id, stepId: s.id, ordinal, agent: s.agent, team: s.team, act: s.act, contextStepIds: s.context })),
    );
    return run;
  });
}

export async function getRun({ db, id }: { db: Executor; id: string }) {
  const [row] = await db.select().from(runs).where(eq(runs.id, id)).limit(1);
  return row;
}

export async function listRunSteps({ db, runId }: { db: Executor; runId: string }) {
  return db.select().from(runSteps).where(eq(runSteps.runId, runId)).orderBy(asc(runSteps.ordinal));
}

export async function setRunStatus({ db, id, status, error = null }: { db: Executor; id: string; status: RunStatus; error?: string | null }) {
  const now = new Date();
  await db
    .update(runs)
    .set({
      status,
      error,
      ...(status === 'running' ? { startedAt: sql`coalesce(${runs.startedAt}, now())` } : {}),
      ...(['succeeded', 'failed', 'cancelled', 'budget_exceeded'].includes(status) ? { finishedAt: now } : { finishedAt: null }),
    })
    .where(eq(runs.id, id));
}

export async function markStepRunning({ db, runId, stepId }: { db: Executor; runId: string; stepId: string }) {
  const [row] = await db
    .update(runSteps)
    .set({ status: 'running', startedAt: new Date(), finishedAt: null, error: null, attempt: sql`${runSteps.attempt} + 1` })
    .where(and(eq(runSteps.runId, runId), eq(runSteps.stepId, stepId)))
    .returning({ attempt: runSteps.attempt });
  return row.attempt;
}

/**
 * Saves a finished step and adds its usage to the run, atomically: a crash after this loses
 * nothing. Returns the run's totals after the step, for the budget check.
 */
export async function markStepDone({
  db,
  runId,
  stepId,
  text,
  output,
  usage,
  toolCalls = [],
}: {
  db: Executor;
  runId: string;
  stepId: string;
  text: string;
  output: unknown;
  usage: { promptTokens: number; completionTokens: number; costUsd: number };
  toolCalls?: { name: string; query: string; results: number }[];
}) {
  return db.transaction(async (tx) => {
    await tx
      .update(runSteps)
      .set({ status: 'done', text, output, toolCalls, finishedAt: new Date(), promptTokens: usage.promptTokens, completionTokens: usage.completionTokens, costUsd: String(usage.costUsd) })
      .where(and(eq(runSteps.runId, runId), eq(runSteps.stepId, stepId)));
    const [totals] = await tx
      .update(runs)
      .set({
        promptTokens: sql`${runs.promptTokens} + ${usage.promptTokens}`,
        completionTokens: sql`${runs.completionTokens} + ${usage.completionTokens}`,
        costUsd: sql`${runs.costUsd} + ${usage.costUsd}`,
      })
      .where(eq(runs.id, runId))
      .returning({ promptTokens: runs.promptTokens, completionTokens: runs.completionTokens, costUsd: runs.costUsd });
    return totals;
  });
}

export async function markStepFailed({ db, runId, stepId, error }: { db: Executor; runId: string; stepId: string; error: string }) {
  await db.update(runSteps).set({ status: 'failed', error, finishedAt: new Date() }).where(and(eq(runSteps.runId, runId), eq(runSteps.stepId, stepId)));
}

/** Steps that were running when the process stopped, or that failed, go back to pending. */
export async function resetSteps({ db, runId, statuses }: { db: Executor; runId: string; statuses: ('running' | 'failed')[] }) {
  await db
    .update(runSteps)
    .set({ status: 'pending', startedAt: null, finishedAt: null, error: null })
    .where(and(eq(runSteps.runId, runId), inArray(runSteps.status, statuses)));
}

export async function saveWebEvidence({ db, runId, items }: { db: Executor; runId: string; items: Record<string, unknown>[] }) {
  await db.update(runs).set({ webEvidence: items }).where(eq(runs.id, runId));
}

export async function upsertReport({ db, runId, content, checks }: { db: Executor; runId: string; content: unknown; checks: unknown }) {
  await db.insert(reports).values({ runId, content, checks }).onConflictDoUpdate({ target: reports.runId, set: { content, checks, createdAt: new Date() } });
}

export async function getReport({ db, runId }: { db: Executor; runId: string }) {
  const [row] = await db.select().from(reports).where(eq(reports.runId, runId)).limit(1);
  return row;
}

/** Runs a process was executing when it stopped: to resume at start. */
export async function listInterruptedRuns({ db }: { db: Executor }) {
  return db.select({ id: runs.id }).from(runs).where(inArray(runs.status, ['queued', 'running']));
}

/**
 * The user's runs that are queued or running. With `lock`, inside a transaction, the user's row
 * is locked first, so concurrent starts by one user count one after another.
 */
export async function countActiveRunsOfUser({ db, userId, lock = false }: { db: Executor; userId: string; lock?: boolean }) {
  if (lock) await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(runs)
    .where(and(eq(runs.createdById, userId), inArray(runs.status, ['queued', 'running'])));
  return row.n;
}
