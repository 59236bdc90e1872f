// What an execution keeps and says: every write of the run and its steps that the engine makes
// while it runs, and every event it tells viewers (through the run's log). One run's recorder holds its database,
// run and lease (the queue worker's `workerId`), so the rest of the engine only says what
// happened. Each final status is saved and then announced in one place (`finishRun`), so a
// reload and a live viewer see the same end.
import type { Db } from '@/lib/db/client';
import { isDatabaseUnavailable } from '@/lib/db/errors';
import {
  addRunUsage,
  getRunTotals,
  keepStepSection,
  LeaseLostError,
  markStepDone,
  markStepFailed,
  markStepRunning,
  recordRunCall,
  resetSteps,
  saveWebEvidence,
  setRunRedFlags,
  setRunStatus,
  upsertReport,
} from '@/lib/db/queries/runs';
import type { CallToRecord } from '@/lib/db/queries/run-calls';
import type { RunBudgetMeter } from '@/lib/debate/budget';
import { runPublisher } from '@/lib/debate/event-log';
import type { FinalCheck } from '@/lib/debate/checks';
import type { StepOutput } from '@/lib/domain/outputs';
import type { ProtocolDef, Usage } from '@/lib/domain/protocol';
import type { TerminalRunStatus } from '@/lib/domain/vocabulary';
import type { RedFlag, EvidenceShortfall } from '@/lib/domain/red-flags';
import type { KeptSection, StepRepair, StoredWebResult, ToolCallRecord } from '@/lib/domain/stored';
import type { Phrase } from '@/lib/i18n';

/** How a run ended, as saved on it and told in `run-finished`: with a reason, or the evidence it lacked. */
export type RunEnd = { status: TerminalRunStatus; error?: string; errorPhrase?: Phrase; shortfall?: EvidenceShortfall; redFlags?: RedFlag[] };

/**
 * When a final status is announced. `if-saved`: only once it is saved (not saved means another
 * worker holds the run now, and the end is its to say). `always`: whatever the write returned.
 * `last-resort`: an unexpected error is ending the run; a failed write must not hide it, so the
 * end is said even then.
 */
export type Announce = 'if-saved' | 'always' | 'last-resort';

/** For the tidy-up writes of a stopping queue worker: without the lease (or the database) they are the new holder's to do. */
export function ignoreLeaseLost(err: unknown) {
  if (!(err instanceof LeaseLostError) && !isDatabaseUnavailable(err)) throw err;
}

export type RunRecorder = ReturnType<typeof runRecorder>;

export function runRecorder({
  db,
  runId,
  workerId,
  meter,
  onHandOver,
}: {
  db: Db;
  runId: string;
  workerId?: string;
  meter: RunBudgetMeter;
  /** This execution lost the run to another worker: stop here and leave every step to it. */
  onHandOver: () => void;
}) {
  const at = () => new Date().toISOString();
  // The one way the engine tells an event: recorded in the run's log, which viewers follow, and
  // heard by this process's own listeners (lib/debate/event-log.ts).
  const events = runPublisher(db);
  const publishRunEvent = events.publish;
  // A queue worker that lost its lease, or its database, stops and leaves the run to the next
  // holder (after a database restart: itself or another worker, once the lease runs out).
  const handsOver = (err: unknown) => err instanceof LeaseLostError || (workerId !== undefined && isDatabaseUnavailable(err));
  // The run's totals as saved, sent with run-finished so viewers see what a reload would show.
  const savedTotals = () => getRunTotals({ db, id: runId }).catch(() => undefined);

  return {
    publish: publishRunEvent,
    /** Resolves once every event told so far is in the run's log. */
    flush: events.flush,
    handsOver,

    /** Steps that were running when a process stopped start again; finished ones stay finished. */
    resetRunning: () => resetSteps({ db, runId, statuses: ['running'], workerId }),

    /** The run starts executing here; false when it is no longer this worker's to run. */
    setRunning: () => setRunStatus({ db, id: runId, status: 'running', workerId }),

    saveRedFlags: (redFlags: RedFlag[]) => setRunRedFlags({ db, runId, redFlags, workerId }),

    saveWebEvidence: (items: StoredWebResult[]) => saveWebEvidence({ db, runId, items }),

    keepSection: (stepId: string, section: KeptSection) => keepStepSection({ db, runId, stepId, section, workerId }),

    /** One model call as sent and answered, for the case file (docs/case-file.md); refused without the lease. */
    recordCall: (call: Omit<CallToRecord, 'runId' | 'execution'>) =>
      recordRunCall({ db, runId, workerId, call: { ...call, runId, execution: workerId ?? null } }),

    /** The run's steps as viewers first see them, and the steps an execution before this one finished. */
    runStarted(protocol: ProtocolDef, redFlags: RedFlag[], done: Map<string, { text: string; output: StepOutput }>) {
      publishRunEvent({
        type: 'run-started',
        runId,
        at: at(),
        steps: protocol.steps.map((s) => ({ id: s.id, agent: s.agent, team: s.team, act: s.act, context: s.context })),
        redFlags,
      });
      for (const [stepId, d] of done) {
        publishRunEvent({
          type: 'step-done',
          runId,
          stepId,
          at: at(),
          text: d.text,
          output: d.output,
          usage: { promptTokens: 0, completionTokens: 0, costUsd: 0 },
        });
      }
    },

    /** A new attempt of the step: counted on its row and announced, so viewers start it afresh. */
    async stepStarted(stepId: string) {
      return events.together(
        (tx) => markStepRunning({ db: tx, runId, stepId, workerId }),
        async (n) => ({ type: 'step-started', runId, stepId, at: at(), attempt: n }),
      );
    },

    /**
     * A finished step saved and recorded in the run's log together. `afterSave` runs once they
     * are committed, before this process's listeners hear of it: what the engine does once the
     * step counts as saved (its budget check, its place among the done steps).
     */
    async stepDone(
      done: { stepId: string; text: string; output: StepOutput; toolCalls: ToolCallRecord[]; usage: Usage; repairs: StepRepair[] },
      afterSave: () => void,
    ) {
      const { stepId, text, output, toolCalls, usage, repairs } = done;
      await events.together(
        (tx) => markStepDone({ db: tx, runId, stepId, text, output, toolCalls, usage, repairs, workerId }),
        async () => ({ type: 'step-done', runId, stepId, at: at(), text, output, usage, repairs }),
        () => {
          meter.stepSaved(stepId);
          afterSave();
        },
      );
    },

    /**
     * A failed step saved with what all its attempts spent and asked, and recorded with it unless
     * the run stopped meanwhile (`stopped`). Without the lease the write is the new holder's: the
     * execution is handed over instead.
     */
    async stepFailed(failure: { stepId: string; error: string; errorPhrase: Phrase; usage: Usage; repairs: StepRepair[] }, stopped: () => boolean) {
      const { stepId, error, errorPhrase, usage, repairs } = failure;
      const saved = await events
        .together(
          (tx) => markStepFailed({ db: tx, runId, stepId, error, errorPhrase, usage, repairs, workerId }),
          async () => (stopped() ? null : { type: 'step-failed', runId, stepId, at: at(), error, errorPhrase, usage, repairs }),
        )
        .then(
          () => true,
          (e) => {
            if (handsOver(e)) onHandOver();
            else throw e;
            return false;
          },
        );
      if (saved) meter.stepSaved(stepId);
    },

    /**
     * What calls of steps that were not saved (stopped by a cancellation or the budget, or failed
     * without their lease) spent goes into the run's totals.
     */
    async saveUnsavedSpend() {
      const spent = meter.unsaved();
      if (spent.promptTokens === 0 && spent.completionTokens === 0 && spent.costUsd === 0) return;
      await addRunUsage({ db, runId, usage: spent, workerId });
      meter.flushed();
    },

    /** The report of a run whose steps are all done, with its final checks, recorded with its announcement. */
    async report(content: StepOutput, checks: FinalCheck[]) {
      await events.together(
        (tx) => upsertReport({ db: tx, runId, content, checks }),
        async () => ({ type: 'report-ready', runId, at: at() }),
      );
    },

    /**
     * The run's final status saved and `run-finished`, with its totals as saved, recorded in the
     * same transaction. True when the status was saved; see `Announce` for when the end is told
     * without it.
     */
    async finishRun(end: RunEnd, announce: Announce = 'if-saved'): Promise<boolean> {
      const { status, redFlags, ...details } = end;
      const finished = (totals: Usage | undefined) => ({
        type: 'run-finished' as const,
        runId,
        at: at(),
        status,
        ...details,
        totals,
        ...(redFlags?.length ? { redFlags } : {}),
      });
      const together = events.together(
        (tx) => setRunStatus({ db: tx, id: runId, status, ...details, workerId }),
        async (saved, tx) => (saved || announce !== 'if-saved' ? finished(await getRunTotals({ db: tx, id: runId })) : null),
      );
      if (announce !== 'last-resort') return together;
      // The write failed (the database, most likely): the end is still told, as best it can be.
      return together.catch(async () => {
        publishRunEvent(finished(await savedTotals()));
        return false;
      });
    },
  };
}
