import 'server-only';
import { and, asc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Db, Executor, Tx } from '@/lib/db/client';
import { snapshotCitedEvidence } from '@/lib/db/queries/cited-evidence';
import { insertRunCall, sealRunCalls, type CallToRecord } from '@/lib/db/queries/run-calls';
import { cases, reports, runs, runSteps, users } from '@/lib/db/schema';
import type { StepOutput } from '@/lib/domain/outputs';
import type { Phrase } from '@/lib/domain/phrase';
import type { ProtocolDef, RunMode, RunParams, Usage } from '@/lib/domain/protocol';
import type { EvidenceShortfall, RedFlag } from '@/lib/domain/red-flags';
import type { FinalCheck, KeptSection, StepRepair, StoredWebResult, ToolCallRecord } from '@/lib/domain/stored';
import { TERMINAL_RUN_STATUSES, type RunStatus } from '@/lib/domain/vocabulary';

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
  stabilitySetId = null,
  id,
}: {
  db: Executor;
  /** A fixed id (the demo run); a random one otherwise. */
  id?: string;
  /** The stability set it belongs to (docs/stability.md). */
  stabilitySetId?: string | null;
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
    const [run] = await tx
      .insert(runs)
      .values({ ...(id ? { id } : {}), protocol: protocol.id, params, provider, model, mode, companyId, caseId, createdById, stabilitySetId, status: 'queued' })
      .returning();
    await tx
      .insert(runSteps)
      .values(
        protocol.steps.map((s, ordinal) => ({ runId: run.id, stepId: s.id, ordinal, agent: s.agent, team: s.team, act: s.act, contextStepIds: s.context })),
      );
    return run;
  });
}

export async function getRun({ db, id }: { db: Executor; id: string }) {
  const [row] = await db.select().from(runs).where(eq(runs.id, id)).limit(1);
  return row;
}

/** The run's status, with its row locked until the transaction ends (call inside one). */
export async function lockRunStatus({ db, id }: { db: Executor; id: string }) {
  const [row] = await db.select({ status: runs.status }).from(runs).where(eq(runs.id, id)).for('update');
  return row?.status;
}

export async function listRunSteps({ db, runId }: { db: Executor; runId: string }) {
  return db.select().from(runSteps).where(eq(runSteps.runId, runId)).orderBy(asc(runSteps.ordinal));
}

const ACTIVE: RunStatus[] = ['queued', 'running'];

/** A queue worker wrote to a run it no longer holds: it must stop and leave the run to the new holder. */
export class LeaseLostError extends Error {
  constructor(runId: string) {
    super(`This worker no longer holds the lease on run ${runId}.`);
  }
}

/**
 * Runs `write` in a transaction that first locks the run row and checks that `workerId` still
 * holds its lease: a worker taking the run over must wait for (or be refused by) this lock, so
 * a worker that lost its lease cannot save a step the new holder also saves. Without a worker
 * (the command line, tests that execute a run directly) the write runs as is.
 */
async function underLease<T>(db: Executor, runId: string, workerId: string | undefined, write: (tx: Executor) => Promise<T>): Promise<T> {
  if (!workerId) return write(db);
  return db.transaction(async (tx) => {
    const held = await tx
      .select({ id: runs.id })
      .from(runs)
      .where(and(eq(runs.id, runId), eq(runs.workerId, workerId)))
      .for('update');
    if (!held.length) throw new LeaseLostError(runId);
    return write(tx);
  });
}

/** One model call of the run kept (lib/db/queries/run-calls.ts), under the lease like every write of an execution. */
export async function recordRunCall({ db, runId, workerId, call }: { db: Executor; runId: string; workerId?: string; call: CallToRecord }) {
  await underLease(db, runId, workerId, (tx) => insertRunCall({ db: tx, call }));
}

/**
 * Sets a run's status. With `workerId` (a queue worker) only while that worker holds the lease
 * and the run is still queued or running, so a run cancelled from another process stays
 * cancelled; a final status also clears the lease. Returns whether the run was updated.
 *
 * A final status (succeeded, failed, cancelled, budget_exceeded) also stores the cited-evidence
 * snapshot (lib/db/queries/cited-evidence.ts), read in the same transaction as the status is
 * set: the run's report keeps its sources as they read when it finished, whichever way it did.
 * A run that resumes or is retried writes it again when it finishes again.
 *
 * `insufficient_evidence` stores the shortfall (what the pool held against the threshold) and,
 * in the same transaction, puts the run's case back to draft when none of its runs has done
 * more than find the evidence short: the case is not being analysed. `red_flag_screening` stores
 * the shortfall too (its report says what the pool lacks); the case stays with it, as it does with
 * a succeeded run. Any other status clears the shortfall, so a retried run starts without one.
 *
 * Elapsed time is counted per attempt. `running` sets the start once (a run resumed after a stop
 * keeps its attempt's start). `queued` after an end (a retry) adds the ended attempt's own length,
 * start to end, to `priorElapsedMs` and clears the start, so the next `running` starts a new
 * attempt: the time a failed run lay waiting for its retry is no one's elapsed time.
 */
export async function setRunStatus({
  db,
  id,
  status,
  error = null,
  errorPhrase = null,
  workerId,
  shortfall = null,
}: {
  db: Executor;
  id: string;
  status: RunStatus;
  error?: string | null;
  /** The reason as a phrase, for the reader's language (runs.errorPhrase). */
  errorPhrase?: Phrase | null;
  workerId?: string;
  shortfall?: EvidenceShortfall | null;
}): Promise<boolean> {
  const now = new Date();
  const final = TERMINAL_RUN_STATUSES.includes(status);
  const write = async (tx: Executor) => {
    const citedEvidence = final ? await snapshotCitedEvidence({ db: tx, runId: id }) : undefined;
    const updated = await tx
      .update(runs)
      .set({
        status,
        error,
        errorPhrase: error === null ? null : errorPhrase,
        shortfall: status === 'insufficient_evidence' || status === 'red_flag_screening' ? shortfall : null,
        ...(status === 'running' ? { startedAt: sql`coalesce(${runs.startedAt}, now())` } : {}),
        // Every expression here reads the row as it was before this update (finishedAt included).
        ...(status === 'queued'
          ? {
              priorElapsedMs: sql`${runs.priorElapsedMs} + coalesce(round(extract(epoch from (${runs.finishedAt} - ${runs.startedAt})) * 1000), 0)::bigint`,
              startedAt: sql`case when ${runs.finishedAt} is null then ${runs.startedAt} else null end`,
            }
          : {}),
        ...(final ? { finishedAt: now, citedEvidence } : { finishedAt: null }),
        // A final status ends whichever attempt held the run: one still executing (cancelled from
        // elsewhere) finds its writes refused from here on.
        ...(final ? { workerId: null, leaseExpiresAt: null } : {}),
      })
      .where(workerId ? and(eq(runs.id, id), eq(runs.workerId, workerId), inArray(runs.status, ACTIVE)) : eq(runs.id, id))
      .returning({ id: runs.id, caseId: runs.caseId });
    if (status === 'insufficient_evidence' && updated[0]?.caseId) await draftIfNothingAnalysed(tx, updated[0].caseId);
    // The calls the run made, sealed in the audit chain with its end (docs/case-file.md).
    if (final && updated.length > 0) await sealRunCalls({ tx: tx as Tx, runId: id });
    return updated.length > 0;
  };
  return final ? db.transaction(write) : write(db);
}

/** Analyzing → draft when every run of the case ended short of evidence (setRunStatus). */
async function draftIfNothingAnalysed(tx: Executor, caseId: string) {
  await tx
    .update(cases)
    .set({ status: 'draft', updatedAt: new Date() })
    .where(
      and(
        eq(cases.id, caseId),
        eq(cases.status, 'analyzing'),
        sql`not exists (select 1 from ${runs} where ${runs.caseId} = ${caseId} and ${runs.status} <> 'insufficient_evidence')`,
      ),
    );
}

export async function markStepRunning({ db, runId, stepId, workerId }: { db: Executor; runId: string; stepId: string; workerId?: string }) {
  return underLease(db, runId, workerId, async (tx) => {
    const [row] = await tx
      .update(runSteps)
      .set({ status: 'running', startedAt: new Date(), finishedAt: null, error: null, attempt: sql`${runSteps.attempt} + 1` })
      .where(and(eq(runSteps.runId, runId), eq(runSteps.stepId, stepId)))
      .returning({ attempt: runSteps.attempt });
    return row.attempt;
  });
}

/**
 * Keeps one finished call of a sectioned step still being written (run_steps.sections), the
 * moment it finishes: a run that stops before the step is saved asks only the calls still
 * missing when it resumes (docs/protocols.md, "Sections"). Its usage is counted when the step is
 * saved, or when the run's unsaved spend is (addRunUsage, markStepFailed). Appended in one
 * statement, so calls that finish together do not overwrite each other; only while the step is
 * running (and, for a queue worker, under its lease). Returns whether it was kept.
 */
export async function keepStepSection({
  db,
  runId,
  stepId,
  section,
  workerId,
}: {
  db: Executor;
  runId: string;
  stepId: string;
  section: KeptSection;
  workerId?: string;
}) {
  const kept = await underLease(db, runId, workerId, (tx) =>
    tx
      .update(runSteps)
      .set({ sections: sql`coalesce(${runSteps.sections}, '[]'::jsonb) || ${JSON.stringify([section])}::jsonb` })
      .where(and(eq(runSteps.runId, runId), eq(runSteps.stepId, stepId), eq(runSteps.status, 'running')))
      .returning({ id: runSteps.id }),
  );
  return kept.length > 0;
}

/** The kept sections of a step, each marked `counted`: what they spent has just gone into the run's totals. */
const sectionsCounted = sql`(select jsonb_agg(e || '{"counted": true}'::jsonb) from jsonb_array_elements(${runSteps.sections}) e)`;

/**
 * Saves a finished step and adds its usage to the run, atomically: a crash after this loses
 * nothing. Returns the run's totals after the step, for the budget check. The step's own usage
 * adds up too: a step retried after it failed keeps what its failed execution spent.
 */
export async function markStepDone({
  db,
  runId,
  stepId,
  text,
  output,
  usage,
  toolCalls = [],
  repairs = [],
  workerId,
}: {
  db: Executor;
  runId: string;
  stepId: string;
  text: string;
  output: StepOutput;
  usage: Usage;
  toolCalls?: ToolCallRecord[];
  /** What the engine changed to take the answer in (lib/debate/intake.ts), shown to reviewers. */
  repairs?: StepRepair[];
  /** A queue worker's id: the step is saved only under its lease, and only if it is still running. */
  workerId?: string;
}) {
  // Of the prompt tokens, those the provider's cache served (0 when it did not say).
  const cachedTokens = Math.round(Math.min(usage.cachedTokens ?? 0, usage.promptTokens));
  const save = async (tx: Executor) => {
    const saved = await tx
      .update(runSteps)
      .set({
        status: 'done',
        text,
        output,
        toolCalls,
        repairs,
        // The output holds every section now.
        sections: null,
        finishedAt: new Date(),
        promptTokens: sql`${runSteps.promptTokens} + ${usage.promptTokens}`,
        cachedTokens: sql`${runSteps.cachedTokens} + ${cachedTokens}`,
        completionTokens: sql`${runSteps.completionTokens} + ${usage.completionTokens}`,
        costUsd: sql`${runSteps.costUsd} + ${usage.costUsd}`,
      })
      .where(and(eq(runSteps.runId, runId), eq(runSteps.stepId, stepId), ...(workerId ? [eq(runSteps.status, 'running')] : [])))
      .returning({ id: runSteps.id });
    if (workerId && !saved.length) throw new LeaseLostError(runId);
    const [totals] = await tx
      .update(runs)
      .set({
        promptTokens: sql`${runs.promptTokens} + ${usage.promptTokens}`,
        cachedTokens: sql`${runs.cachedTokens} + ${cachedTokens}`,
        completionTokens: sql`${runs.completionTokens} + ${usage.completionTokens}`,
        costUsd: sql`${runs.costUsd} + ${usage.costUsd}`,
      })
      .where(eq(runs.id, runId))
      .returning({ promptTokens: runs.promptTokens, completionTokens: runs.completionTokens, costUsd: runs.costUsd });
    return totals;
  };
  return workerId ? underLease(db, runId, workerId, save) : db.transaction(save);
}

/**
 * Adds tokens and cost spent by calls whose step was not saved (stopped at the budget, cancelled
 * or failed) to the run's totals, so they count against its budget and show in its figures.
 */
export async function addRunUsage({ db, runId, usage, workerId }: { db: Executor; runId: string; usage: Usage; workerId?: string }) {
  const costUsd = Math.round(usage.costUsd * 1e6) / 1e6;
  await underLease(db, runId, workerId, async (tx) => {
    await tx
      .update(runs)
      .set({
        promptTokens: sql`${runs.promptTokens} + ${Math.round(usage.promptTokens)}`,
        completionTokens: sql`${runs.completionTokens} + ${Math.round(usage.completionTokens)}`,
        costUsd: sql`${runs.costUsd} + ${costUsd}`,
      })
      .where(eq(runs.id, runId));
    // The unsaved spend includes what the kept sections of unsaved steps spent: counted now, not again when they are used.
    await tx
      .update(runSteps)
      .set({ sections: sectionsCounted })
      .where(and(eq(runSteps.runId, runId), isNotNull(runSteps.sections)));
  });
}

/**
 * Saves a failed step with what its attempts spent, and adds that to the run's totals, in one
 * transaction like a finished step: a failed step's card shows its tokens and cost, and the run's
 * totals are the sum of its steps' (what calls cut off by a cancellation spent aside, which only
 * the run counts: addRunUsage).
 */
export async function markStepFailed({
  db,
  runId,
  stepId,
  error,
  usage = { promptTokens: 0, completionTokens: 0, costUsd: 0 },
  repairs,
  errorPhrase = null,
  workerId,
}: {
  db: Executor;
  runId: string;
  stepId: string;
  error: string;
  /** The error as a phrase, for the reader's language (run_steps.errorPhrase). */
  errorPhrase?: Phrase | null;
  usage?: Usage;
  /** What was asked of the model on the way to failing (a repair request, a retry with more room): kept for the reviewer. */
  repairs?: StepRepair[];
  workerId?: string;
}) {
  const costUsd = Math.round(usage.costUsd * 1e6) / 1e6;
  const promptTokens = Math.round(usage.promptTokens);
  const completionTokens = Math.round(usage.completionTokens);
  const save = async (tx: Executor) => {
    await tx
      .update(runSteps)
      .set({
        status: 'failed',
        error,
        errorPhrase,
        // Kept for a retry, which asks only what is missing; what they spent is in this step's usage.
        sections: sectionsCounted,
        finishedAt: new Date(),
        ...(repairs ? { repairs } : {}),
        promptTokens: sql`${runSteps.promptTokens} + ${promptTokens}`,
        completionTokens: sql`${runSteps.completionTokens} + ${completionTokens}`,
        costUsd: sql`${runSteps.costUsd} + ${costUsd}`,
      })
      .where(and(eq(runSteps.runId, runId), eq(runSteps.stepId, stepId)));
    if (promptTokens === 0 && completionTokens === 0 && costUsd === 0) return;
    await tx
      .update(runs)
      .set({
        promptTokens: sql`${runs.promptTokens} + ${promptTokens}`,
        completionTokens: sql`${runs.completionTokens} + ${completionTokens}`,
        costUsd: sql`${runs.costUsd} + ${costUsd}`,
      })
      .where(eq(runs.id, runId));
  };
  await (workerId ? underLease(db, runId, workerId, save) : db.transaction(save));
}

/** A run's totals as saved (what a viewer sees after a reload). */
export async function getRunTotals({ db, id }: { db: Executor; id: string }): Promise<Usage | undefined> {
  const [row] = await db
    .select({ promptTokens: runs.promptTokens, cachedTokens: runs.cachedTokens, completionTokens: runs.completionTokens, costUsd: runs.costUsd })
    .from(runs)
    .where(eq(runs.id, id))
    .limit(1);
  return row && { promptTokens: row.promptTokens, cachedTokens: row.cachedTokens, completionTokens: row.completionTokens, costUsd: Number(row.costUsd) };
}

/** Steps that were running when the process stopped, or that failed, go back to pending. */
export async function resetSteps({ db, runId, statuses, workerId }: { db: Executor; runId: string; statuses: ('running' | 'failed')[]; workerId?: string }) {
  await underLease(db, runId, workerId, (tx) =>
    tx
      .update(runSteps)
      .set({ status: 'pending', startedAt: null, finishedAt: null, error: null })
      .where(and(eq(runSteps.runId, runId), inArray(runSteps.status, statuses))),
  );
}
/** The red flags a run found in its pool at its as-of date (lib/pool/red-flags.ts), kept for its report, exports and checks. */
export async function setRunRedFlags({ db, runId, redFlags, workerId }: { db: Executor; runId: string; redFlags: RedFlag[]; workerId?: string }) {
  await underLease(db, runId, workerId, (tx) => tx.update(runs).set({ redFlags }).where(eq(runs.id, runId)));
}

export async function saveWebEvidence({ db, runId, items }: { db: Executor; runId: string; items: StoredWebResult[] }) {
  await db.update(runs).set({ webEvidence: items }).where(eq(runs.id, runId));
}

export async function upsertReport({ db, runId, content, checks }: { db: Executor; runId: string; content: StepOutput; checks: FinalCheck[] }) {
  await db
    .insert(reports)
    .values({ runId, content, checks })
    .onConflictDoUpdate({ target: reports.runId, set: { content, checks, createdAt: new Date() } });
}

export async function getReport({ db, runId }: { db: Executor; runId: string }) {
  const [row] = await db.select().from(reports).where(eq(reports.runId, runId)).limit(1);
  return row;
}

/** Runs a process was executing when it stopped: to resume at start. */
export async function listInterruptedRuns({ db }: { db: Executor }) {
  return db
    .select({ id: runs.id })
    .from(runs)
    .where(inArray(runs.status, ['queued', 'running']));
}

/**
 * The user's runs that are queued or running. With `lock`, inside a transaction, the user's row
 * is locked first, so concurrent starts by one user count one after another.
 */
export async function countActiveRunsOfUser({ db, userId, lock = false }: { db: Executor; userId: string; lock?: boolean }) {
  // NO KEY UPDATE, not UPDATE: it still makes concurrent starts wait for each other, but it leaves
  // the row to foreign-key checks, so an audit entry by this user in another transaction (which
  // holds the audit lock while it checks its actor) cannot deadlock with this one.
  if (lock) await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(runs)
    .where(and(eq(runs.createdById, userId), inArray(runs.status, ['queued', 'running'])));
  return row.n;
}

// Attempts (PostgreSQL queue mode). A queue worker executes a run as an attempt named
// `<worker>/<job id>/<retry count>` (lib/jobs/worker.ts), recorded in runs.worker_id: every write
// it makes checks that the run still names it (underLease), so two attempts never both write.
// Whether an attempt is alive is pg-boss's to say: its job is `active` with that retry count only
// while the worker's heartbeat goes on (lib/jobs/boss.ts).

type QueueRef = { schema: string; name: string };

/** The job of the attempt recorded on the run is still active with that retry: the attempt lives. */
const liveAttempt = (queue: QueueRef) => sql`exists (
  select 1 from ${sql.raw(`${queue.schema}.job`)} j
  where j.name = ${queue.name} and j.state = 'active'
    and j.id::text = split_part(${runs.workerId}, '/', 2) and j.retry_count::text = split_part(${runs.workerId}, '/', 3))`;

/**
 * Takes the run for `attempt` if it is queued or running and no other live attempt holds it:
 * nobody, an attempt whose job pg-boss failed or cancelled (a dead worker), or this same job's
 * earlier try. Refused while another job's attempt is alive: that job goes on, and this one has
 * nothing to do.
 */
export async function claimRun({ db, id, attempt, queue }: { db: Executor; id: string; attempt: string; queue: QueueRef }) {
  const [row] = await db
    .update(runs)
    .set({ workerId: attempt, leaseExpiresAt: null })
    .where(and(eq(runs.id, id), inArray(runs.status, ACTIVE), or(isNull(runs.workerId), sql`not ${liveAttempt(queue)}`)))
    .returning({ id: runs.id, status: runs.status });
  return row;
}

/** Gives a run back (graceful shutdown): true when `workerId` still held it. */
export async function releaseLease({ db, id, workerId }: { db: Executor; id: string; workerId: string }) {
  const rows = await db
    .update(runs)
    .set({ workerId: null, leaseExpiresAt: null })
    .where(and(eq(runs.id, id), eq(runs.workerId, workerId)))
    .returning({ id: runs.id });
  return rows.length > 0;
}

/**
 * Queued or running runs with no job waiting or active in `queue` and no live attempt: nothing
 * would ever execute them (see queueOrphanedRuns in lib/jobs/boss.ts).
 */
export async function listOrphanedRuns({ db, queue }: { db: Executor; queue: QueueRef }) {
  const jobbed = sql`exists (select 1 from ${sql.raw(`${queue.schema}.job`)} j where j.name = ${queue.name} and j.singleton_key = ${runs.id}::text and j.state <= 'active')`;
  return db
    .select({ id: runs.id })
    .from(runs)
    .where(and(inArray(runs.status, ACTIVE), sql`not ${jobbed}`));
}

/**
 * Cancels a queued or running run from any process, and ends its attempt: a worker still executing
 * it finds its writes refused (and its job cancelled, lib/jobs/queue-runner.ts). Like any finish,
 * it stores the cited-evidence snapshot in the same transaction. `alsoInTransaction` runs in it.
 */
export async function cancelActiveRun({ db, id, alsoInTransaction }: { db: Db; id: string; alsoInTransaction?: (tx: Tx) => Promise<void> }) {
  return db.transaction(async (tx) => {
    const citedEvidence = await snapshotCitedEvidence({ db: tx, runId: id });
    const rows = await tx
      .update(runs)
      .set({
        status: 'cancelled',
        error: 'Cancelled.',
        errorPhrase: { key: 'cancelled' },
        finishedAt: new Date(),
        citedEvidence,
        workerId: null,
        leaseExpiresAt: null,
      })
      .where(and(eq(runs.id, id), inArray(runs.status, ACTIVE)))
      .returning({ id: runs.id });
    if (!rows.length) return false;
    // Its steps in flight go back to pending: the attempt that ran them can no longer say so.
    await resetSteps({ db: tx, runId: id, statuses: ['running'] });
    await sealRunCalls({ tx, runId: id });
    await alsoInTransaction?.(tx);
    return true;
  });
}

/** Queued or running runs a live attempt executes (see claimRun): what executes right now. */
export async function countExecutingRuns({ db, queue }: { db: Executor; queue: QueueRef }): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(runs)
    .where(and(inArray(runs.status, ACTIVE), isNotNull(runs.workerId), liveAttempt(queue)));
  return Number(row?.n ?? 0);
}
