// What an RM may do to a run of their case, decided on the server from the case's state: once
// the case is with the committee (submitted) or decided, its runs are the committee's record and
// are neither started, retried nor cancelled (docs/security.md). The server actions of the case
// and run pages call these after checking who asks (lib/auth/run-access.ts); refusals are
// AppErrors that say why, as phrases of the run table the action wrapper shows in the reader's language.
import { randomUUID } from 'node:crypto';
import type { Db, Executor } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { isCaseClosed, lockCaseStatus, markCaseAnalyzing } from '@/lib/db/queries/cases';
import type { Case, Run } from '@/lib/db/schema';
import { createRun } from '@/lib/debate/engine';
import type { Language, ProtocolId, RunMode } from '@/lib/domain/protocol';
import type { ModelProvider } from '@/lib/llm/types';
import { decisionGradeParams } from '@/lib/llm';
import { MAX_STABILITY_RUNS } from '@/lib/domain/stability';
import type { CaseStatus } from '@/lib/domain/vocabulary';
import { claimRunSlot, RunLimitReached } from '@/lib/debate/limits';
import { enqueueRun, getBoss } from '@/lib/jobs/boss';
import { runner, RunStateError } from '@/lib/jobs/runner';
import { AppError } from '@/lib/errors';
import { say, type Said } from '@/lib/i18n';
import { runMessages } from '@/lib/i18n/messages/run';

type CaseRun = Pick<Run, 'id' | 'caseId' | 'createdById'>;

export type StartCaseRunOptions = {
  db: Db;
  kase: Pick<Case, 'id' | 'companyId' | 'asOfDate'>;
  actorId: string;
  protocolId: ProtocolId;
  provider: ModelProvider;
  mode: RunMode;
  params: {
    language: Language;
    recencyDays: number;
    maxWebResults: number;
    maxTokens?: number;
    maxCostUsd?: number;
    /** Sampling chosen by the caller; otherwise decision-grade (lib/llm/index.ts decisionGradeParams). */
    temperature?: number;
    seed?: number;
  };
};

/**
 * Starts a run on a case, as of the case's date: the case check (with the case locked), the
 * actor's run limit, the new run, the case's status and the audit entry are one transaction, so a
 * refused start writes nothing, two quick clicks cannot both pass the limit, and a submission
 * cannot slip in between. The run's job is sent in that transaction too: a run exists with its
 * job or not at all, and from the commit on the caller is answered with the run, whatever a
 * worker has made of it by then.
 */
export async function startCaseRun(options: StartCaseRunOptions) {
  const { runs } = await startCaseRuns({ ...options, count: 1 });
  return runs[0];
}

/**
 * Starts `count` runs of one system on a case in one transaction, tagged as one stability set
 * (docs/stability.md) when there are several: each takes a run slot of the actor, so a set that
 * does not fit in the actor's limit starts none. `queue: false` is for a caller that executes the
 * runs itself (the command line): no job is sent and no run slot is claimed.
 */
export async function startCaseRuns({
  db,
  kase,
  actorId,
  protocolId,
  provider,
  mode,
  params,
  count,
  queue = true,
}: Omit<StartCaseRunOptions, 'actorId'> & { actorId: string | null; count: number; queue?: boolean }) {
  if (!Number.isInteger(count) || count < 1 || count > MAX_STABILITY_RUNS) throw new RangeError(`A case starts 1 to ${MAX_STABILITY_RUNS} runs at once.`);
  const { language, recencyDays, maxWebResults } = params;
  const budget = {
    ...(params.maxTokens !== undefined ? { maxTokens: params.maxTokens } : {}),
    ...(params.maxCostUsd !== undefined ? { maxCostUsd: params.maxCostUsd } : {}),
  };
  // The committee decides on a case's runs: a model is asked for decision-grade sampling unless
  // the caller chose its own (the command line's --temperature) or the deployment turned it off.
  const sampling = {
    ...decisionGradeParams(provider),
    ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
    ...(params.seed !== undefined ? { seed: params.seed } : {}),
  };
  const stabilitySetId = count > 1 ? randomUUID() : null;
  if (queue) await getBoss(db); // before the transaction: see getBoss
  const runs = await db.transaction(async (tx) => {
    // Checked with the case locked: a submission between the caller's check and this insert
    // would otherwise leave a new run on a case the committee already has.
    const status = await lockCaseStatus({ db: tx, id: kase.id });
    if (!status || isCaseClosed(status)) throw new AppError('conflict', say(runMessages, 'errCaseClosed'));
    const started: Run[] = [];
    for (let i = 0; i < count; i++) {
      if (queue && actorId) {
        try {
          await claimRunSlot({ db: tx, userId: actorId });
        } catch (err) {
          if (err instanceof RunLimitReached) throw new AppError('rate_limited', err.said);
          throw err;
        }
      }
      const run = await createRun({
        db: tx,
        protocolId,
        companyId: kase.companyId,
        provider,
        mode,
        params: { language, asOf: kase.asOfDate, recencyDays, maxWebResults, ...budget, ...sampling },
        caseId: kase.id,
        createdById: actorId,
        stabilitySetId,
      });
      // The job commits with the run: no committed run is left without one.
      if (queue) await enqueueRun({ db, runId: run.id, tx });
      await appendAudit({
        tx,
        actorId,
        action: 'run.start',
        entityType: 'run',
        entityId: run.id,
        detail: {
          caseId: kase.id,
          protocol: protocolId,
          provider: provider.name,
          model: provider.model,
          mode,
          language,
          ...budget,
          ...(sampling.temperature !== undefined ? { temperature: sampling.temperature } : {}),
          ...(sampling.seed !== undefined ? { modelSeed: sampling.seed } : {}),
          ...(stabilitySetId ? { stabilitySetId } : {}),
        },
      });
      started.push(run);
    }
    await markCaseAnalyzing({ db: tx, id: kase.id });
    return started;
  });
  return { stabilitySetId, runs };
}

const REFUSALS: Record<'retry' | 'cancel', Partial<Record<CaseStatus, Said>>> = {
  retry: { submitted: say(runMessages, 'errRetrySubmitted'), decided: say(runMessages, 'errRetryDecided') },
  cancel: { submitted: say(runMessages, 'errCancelSubmitted'), decided: say(runMessages, 'errCancelDecided') },
};

/**
 * Refuses `what` on the runs of a submitted or decided case. Locks the case row (call inside the
 * transaction of the write), so the case cannot be submitted or decided until that write ends.
 */
export async function assertCaseRunsOpen({ db, caseId, what }: { db: Executor; caseId: string; what: 'retry' | 'cancel' }) {
  const status = await lockCaseStatus({ db, id: caseId });
  if (!status) throw new AppError('not_found', 'This case does not exist or is not yours.');
  const refusal = REFUSALS[what][status];
  if (refusal) throw new AppError('conflict', refusal);
}

/**
 * Retries a failed, cancelled or insufficient-evidence run: the case check, the owner's run limit, the requeue and the
 * audit entry are one transaction, so a refusal writes nothing and a submission cannot slip in
 * between the check and the requeue.
 */
export async function retryCaseRun({ db, run, actorId }: { db: Db; run: CaseRun; actorId: string }) {
  try {
    await runner.retry({
      db,
      runId: run.id,
      alsoInTransaction: async (tx) => {
        if (run.caseId) {
          await assertCaseRunsOpen({ db: tx, caseId: run.caseId, what: 'retry' });
          // A case put back to draft because its runs found too little evidence is analysed again.
          await markCaseAnalyzing({ db: tx, id: run.caseId });
        }
        // A retried run is active again, so it counts against its owner's limit like a new start.
        if (run.createdById) await claimRunSlot({ db: tx, userId: run.createdById });
        await appendAudit({ tx, actorId, action: 'run.retry', entityType: 'run', entityId: run.id });
      },
    });
  } catch (err) {
    if (err instanceof RunStateError) throw new AppError('conflict', err.message);
    if (err instanceof RunLimitReached) throw new AppError('rate_limited', err.said);
    throw err;
  }
}

/**
 * Cancels a queued or running run. The case check runs first with the case locked; the cancel
 * itself may have to stop steps executing in this process, so it follows that transaction. No
 * submission can come between them: a case is not submitted while one of its runs is active
 * (lib/db/queries/cases.ts, countActiveRunsOfCase).
 */
export async function cancelCaseRun({ db, run, actorId }: { db: Db; run: CaseRun; actorId: string }) {
  if (run.caseId) await db.transaction((tx) => assertCaseRunsOpen({ db: tx, caseId: run.caseId!, what: 'cancel' }));
  if (!(await runner.cancel({ db, runId: run.id }))) throw new AppError('conflict', say(runMessages, 'errNotRunning'));
  await db.transaction((tx) => appendAudit({ tx, actorId, action: 'run.cancel', entityType: 'run', entityId: run.id }));
}
