// One engine for every protocol, and the outline of a run: read it and what executions before
// this one left, check that the pool is enough to argue from, schedule its steps, then end it
// with its report or its reason. A step starts as soon as the steps in its context are done (dag
// mode) or strictly one after another in protocol order (sequential mode), gets only its declared
// context and the evidence it may see, is validated against its schema and rules (one repair
// attempt), and is saved the moment it completes, so an interrupted run resumes from its last
// completed step without redoing or duplicating any. The parts live in lib/debate/run/: the
// scheduler, a step's input, one model call with its retries, a sectioned step's calls, the step
// as a whole, and the recorder through which every write and event goes.
import type { Db } from '@/lib/db/client';
import { getRun } from '@/lib/db/queries/runs';
import { RunBudgetMeter } from '@/lib/debate/budget';
import { finalChecks } from '@/lib/debate/checks';
import { BudgetExceeded } from '@/lib/debate/limits';
import { getProtocol } from '@/lib/debate/protocols';
import { claimRun, forgetRun, RELEASED } from '@/lib/debate/run/active-runs';
import { StepFailure } from '@/lib/debate/run/ask';
import { ignoreLeaseLost, runRecorder } from '@/lib/debate/run/recorder';
import { StepScheduler } from '@/lib/debate/run/scheduler';
import { runStep, type StepTimes } from '@/lib/debate/run/step';
import { readProgress, readRunMaterial, type Done, type WebSearchFn } from '@/lib/debate/run/step-input';
import { EVIDENCE_THRESHOLD, runOutlook, type EvidenceThreshold } from '@/lib/debate/sufficiency';
import type { ProtocolDef, StepDef } from '@/lib/domain/protocol';
import type { EvidenceShortfall } from '@/lib/domain/red-flags';
import type { StepRepair } from '@/lib/domain/stored';
import { reasonOf, reasonText, stopPhrase } from '@/lib/i18n/failures';
import type { Phrase } from '@/lib/i18n';
import type { ModelProvider } from '@/lib/llm/types';

export { cancelRun, isRunActive, releaseRun } from '@/lib/debate/run/active-runs';
export { createRun, DEFAULT_RUN_PARAMS, isRetryable, retryFailedSteps } from '@/lib/debate/run/lifecycle';
export { DEFAULT_JUDGE_TEMPERATURE, type WebSearchFn } from '@/lib/debate/run/step-input';

export type ExecuteOptions = {
  db: Db;
  runId: string;
  provider: ModelProvider;
  /** Web search for the steps allowed to search; absent → agents work from the pool alone. */
  webSearch?: WebSearchFn;
  /** Concurrent calls per provider and model across all runs of this process. */
  providerConcurrency?: number;
  /** The provider for one step, when roles use different models (OPENAI_MODEL_<ROLE>); else `provider`. */
  providerFor?: (step: StepDef) => ModelProvider;
  /**
   * The queue worker executing the run (PostgreSQL mode): every write then requires this
   * worker's lease on the run, and losing it stops the execution without ending the run.
   */
  workerId?: string;
  /**
   * The evidence a run needs before any step runs (lib/debate/sufficiency.ts); the stated
   * threshold unless a test that is about something else sets its own.
   */
  evidenceThreshold?: EvidenceThreshold;
  /**
   * Every step in one call, its sections declared or not (docs/protocols.md, "Sections"): the
   * yardstick a sectioned answer is held to in the tests.
   */
  wholeCalls?: boolean;
};

/** `parts`: a sectioned step's calls (the overview's key is `overview`) and the time each waited on the model. */
export type StepTiming = { stepId: string; startedAt: number; finishedAt: number; modelMs: number; parts?: { key: string; modelMs: number }[] };

export type ExecuteResult = {
  /** `released`: this process stopped executing, the run stays running for another worker. */
  status: 'succeeded' | 'failed' | 'cancelled' | 'budget_exceeded' | 'insufficient_evidence' | 'red_flag_screening' | 'released';
  error?: string;
  /** Set when the run ended as `insufficient_evidence` or `red_flag_screening`: what the pool held against the threshold. */
  shortfall?: EvidenceShortfall;
  /** Wall time of this execution and time spent waiting on the model, for the benchmarks. */
  wallMs: number;
  modelMs: number;
  timings: StepTiming[];
};

export async function executeRun({
  db,
  runId,
  provider: runProvider,
  webSearch,
  providerConcurrency = 8,
  providerFor,
  workerId,
  evidenceThreshold = EVIDENCE_THRESHOLD,
  wholeCalls = false,
}: ExecuteOptions): Promise<ExecuteResult> {
  const started = performance.now();
  const run = await getRun({ db, id: runId });
  if (!run) throw new Error(`Run ${runId} does not exist.`);
  if (run.status === 'succeeded' || run.status === 'cancelled' || run.status === 'insufficient_evidence' || run.status === 'red_flag_screening') {
    return { status: run.status, ...(run.shortfall ? { shortfall: run.shortfall } : {}), wallMs: 0, modelMs: 0, timings: [] };
  }
  const controller = claimRun(runId);
  const signal = controller.signal;
  const protocol: ProtocolDef = getProtocol(run.protocol);
  const params = run.params;
  const providerOf = (step: StepDef) => providerFor?.(step) ?? runProvider;
  // The budget inside the steps (lib/debate/budget.ts): every call is metered against what the
  // run has left, and going past it aborts the run like a cancellation, with the reason.
  const meter = new RunBudgetMeter(params, run, (reason) => {
    if (!signal.aborted) controller.abort(reason);
  });
  const timings: StepTiming[] = [];
  let modelMs = 0;
  const released = () => signal.aborted && signal.reason === RELEASED;
  const recorder = runRecorder({ db, runId, workerId, meter, onHandOver: () => controller.abort(RELEASED) });
  const releasedResult = (): ExecuteResult => ({ status: 'released', wallMs: performance.now() - started, modelMs, timings });

  try {
    await recorder.resetRunning();
    if (!(await recorder.setRunning())) {
      // A queue worker whose run was cancelled or taken over before it began.
      controller.abort(RELEASED);
      return releasedResult();
    }
    const material = await readRunMaterial({
      db,
      runId,
      run,
      protocol,
      webSearch,
      saveRedFlags: recorder.saveRedFlags,
      saveWebEvidence: recorder.saveWebEvidence,
    });
    const { keptSections, keptSpend, done, failed } = await readProgress({
      db,
      runId,
      byId: material.byId,
      adopt: (step, spent) => meter.adopt(step.id, providerOf(step).model, spent),
    });
    const attemptRepairs = new Map<string, StepRepair[]>();
    const scheduler = new StepScheduler(
      protocol.steps.filter((s) => !done.has(s.id) && !failed.has(s.id)),
      { mode: run.mode, maxConcurrency: params.maxConcurrency, isDone: (id) => done.has(id) },
    );
    const { pending } = scheduler;

    // Evidence sufficiency (lib/debate/sufficiency.ts), before any step runs: a run with nothing
    // done yet and too little in the pool at its as-of date ends here, saying what is missing,
    // and no model is called. A run that resumes with finished steps passed this check already.
    // With decisive red flags in that thin pool the run ends as a red-flag screening instead
    // (runOutlook, docs/protocols.md "Red-flag screening"): the report leads with each event, and
    // the case can go to the committee with it. The same on every system, offline or with a model.
    const outlook = done.size === 0 ? runOutlook(material.evidence, material.redFlags.length, evidenceThreshold) : null;
    if (outlook && outlook.kind !== 'debate') {
      const { shortfall } = outlook;
      const status = outlook.kind === 'screening' ? 'red_flag_screening' : 'insufficient_evidence';
      // Its red flags go with its end: a page open since the launch shows them without a reload.
      if (!(await recorder.finishRun({ status, shortfall, redFlags: material.redFlags }))) return releasedResult();
      return { status, shortfall, wallMs: performance.now() - started, modelMs: 0, timings: [] };
    }

    recorder.runStarted(protocol, material.redFlags, done);

    // Budgets (lib/debate/limits.ts), checked before the first step and after each finished one,
    // besides the meter inside the steps: past the budget, or at it with work left, the run stops
    // like a cancellation and keeps what is done.
    const stopIfOverBudget = () => meter.stopIfOver(scheduler.workLeft());
    const steps = {
      material: { ...material, done },
      mode: run.mode,
      wholeCalls,
      signal,
      meter,
      recorder,
      providerOf,
      providerConcurrency,
      keptSections,
      keptSpend,
      attemptRepairs,
      saved: (step: StepDef, d: Done, times: StepTimes) => {
        stopIfOverBudget();
        done.set(step.id, d);
        modelMs += times.modelMs;
        const parts = times.parts.length ? { parts: times.parts } : {};
        timings.push({ stepId: step.id, startedAt: times.startedAt - started, finishedAt: performance.now() - started, modelMs: times.modelMs, ...parts });
      },
    };
    stopIfOverBudget();
    await scheduler.run(signal, (step) =>
      runStep(steps, step).catch(async (err) => {
        // Another worker holds the run now: stop here and leave every step to it.
        if (recorder.handsOver(err)) controller.abort(RELEASED);
        if (signal.aborted) return;
        const phrase = err instanceof StepFailure ? err.phrase : stopPhrase('stepError', { reason: reasonOf(err) });
        failed.add(step.id);
        // Saved with what every attempt spent and asked on the way (repair requests, retries): a reviewer sees why it failed.
        const usage = meter.stepUsage(step.id, providerOf(step).model);
        const repairs = attemptRepairs.get(step.id) ?? [];
        await recorder.stepFailed({ stepId: step.id, error: reasonText(phrase), errorPhrase: phrase, usage, repairs }, () => signal.aborted);
      }),
    );
    if (!released()) await recorder.saveUnsavedSpend().catch(ignoreLeaseLost);

    const wallMs = performance.now() - started;
    if (released()) {
      // Still holding the lease (a graceful release): the next holder would reset these anyway,
      // but until it starts, viewers should not see steps as running that nobody runs.
      await recorder.resetRunning().catch(ignoreLeaseLost);
      return releasedResult();
    }
    if (signal.aborted) {
      await recorder.resetRunning().catch(ignoreLeaseLost);
      // Worded with the final totals, the spend of the stopped calls included.
      const budget: Phrase | undefined = signal.reason instanceof BudgetExceeded ? (meter.crossed() ?? signal.reason.phrase) : undefined;
      const status = budget ? 'budget_exceeded' : 'cancelled';
      const errorPhrase = budget ?? stopPhrase('cancelled');
      const error = reasonText(errorPhrase);
      await recorder.finishRun({ status, error, errorPhrase }, 'always');
      return { status, error: budget ? error : undefined, wallMs, modelMs, timings };
    }
    if (failed.size || pending.length) {
      const errorPhrase = failed.size
        ? stopPhrase(failed.size > 1 ? 'stepsFailed' : 'oneStepFailed', { steps: [...failed].join(', '), n: pending.length })
        : stopPhrase('notStarted');
      const error = reasonText(errorPhrase);
      if (!(await recorder.finishRun({ status: 'failed', error, errorPhrase }))) return releasedResult();
      return { status: 'failed', error, wallMs, modelMs, timings };
    }

    const ordered = protocol.steps.map((s) => ({ stepId: s.id, ...done.get(s.id)! }));
    const checks = finalChecks({
      steps: ordered,
      known: material.known,
      language: params.language,
      redFlags: material.redFlags,
      reportStep: protocol.reportStep,
    });
    await recorder.report(done.get(protocol.reportStep)!.output, checks);
    if (!(await recorder.finishRun({ status: 'succeeded' }))) return releasedResult();
    return { status: 'succeeded', wallMs: performance.now() - started, modelMs, timings };
  } catch (err) {
    if (released() || recorder.handsOver(err)) return releasedResult();
    await recorder.saveUnsavedSpend().catch(() => {});
    const errorPhrase = stopPhrase('unexpected', { reason: reasonOf(err) });
    const error = reasonText(errorPhrase);
    await recorder.finishRun({ status: 'failed', error, errorPhrase }, 'last-resort');
    return { status: 'failed', error, wallMs: performance.now() - started, modelMs, timings };
  } finally {
    // The run is over for this process once its last event is in the log.
    await recorder.flush();
    forgetRun(runId);
  }
}
