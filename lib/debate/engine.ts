// One engine for every protocol. A step starts as soon as the steps in its context are done
// (dag mode) or strictly one after another in protocol order (sequential mode). Each step gets
// only its declared context and the evidence it may see, is validated against its schema and
// rules (one repair attempt), and is saved the moment it completes, so an interrupted run
// resumes from its last completed step without redoing or duplicating any.
import { z } from 'zod';
import type { Db, Executor, Tx } from '@/lib/db/client';
import { getCompanyById } from '@/lib/db/queries/companies';
import {
  addRunUsage,
  getRun,
  getRunTotals,
  insertRun,
  LeaseLostError,
  listRunSteps,
  lockRunStatus,
  markStepDone,
  markStepFailed,
  markStepRunning,
  resetSteps,
  saveWebEvidence,
  setRunStatus,
  upsertReport,
} from '@/lib/db/queries/runs';
import { RunBudgetMeter } from '@/lib/debate/budget';
import { runBus } from '@/lib/debate/bus';
import { liveStep } from '@/lib/debate/live-step';
import { finalChecks, resolveCitations, type CitationScope, type KnownEvidence } from '@/lib/debate/checks';
import { takeIn } from '@/lib/debate/intake';
import { buildPrompt } from '@/lib/debate/prompts';
import { getProtocol } from '@/lib/debate/protocols';
import { isDatabaseUnavailable } from '@/lib/db/errors';
import { yieldToEventLoop } from '@/lib/event-loop';
import { budgetOverrun, BudgetExceeded, defaultBudget } from '@/lib/debate/limits';
import { checkStepRules } from '@/lib/debate/rules';
import { citationsOf } from '@/lib/domain/output-parts';
import { OUTPUT_SCHEMAS, proseOf, type OutputKind, type StepOutput } from '@/lib/domain/outputs';
import { providerLimit } from '@/lib/debate/semaphore';
import type { Language, ProtocolDef, RunMode, RunParams, StepDef, Usage } from '@/lib/domain/protocol';
import { stopReason } from '@/lib/i18n/failures';
import type { StepRepair, StoredWebResult, ToolCallRecord } from '@/lib/domain/stored';
import { roomFor } from '@/lib/llm/output-caps';
import { costOf, priceOf } from '@/lib/llm/prices';
import { spentBy, type ContextTurn, type ModelProvider, type WebEvidence } from '@/lib/llm/types';
import { readEvidence, type EvidenceAsOf } from '@/lib/pool/as-of';
import { retrieve, type RetrievedItem } from '@/lib/pool/retrieve';
import { isoToday } from '@/lib/util/dates';
import { visibleEvidence } from '@/lib/debate/evidence-scope';

export type WebSearchFn = (query: string, options: { maxResults: number; asOf: string; recencyDays: number; language: Language }) => Promise<WebEvidence[]>;

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
};

export type StepTiming = { stepId: string; startedAt: number; finishedAt: number; modelMs: number };

export type ExecuteResult = {
  /** `released`: this process stopped executing, the run stays running for another worker. */
  status: 'succeeded' | 'failed' | 'cancelled' | 'budget_exceeded' | 'released';
  error?: string;
  /** Wall time of this execution and time spent waiting on the model, for the benchmarks. */
  wallMs: number;
  modelMs: number;
  timings: StepTiming[];
};

const globalForRuns = globalThis as typeof globalThis & { __crosscheckActiveRuns?: Map<string, AbortController> };
const activeRuns = () => (globalForRuns.__crosscheckActiveRuns ??= new Map());

/** Stops a running run; its finished steps stay, running ones go back to pending. */
export function cancelRun(runId: string) {
  const controller = activeRuns().get(runId);
  controller?.abort(new Error('cancelled'));
  return Boolean(controller);
}

// The abort reason of an execution handed to another worker rather than cancelled.
const RELEASED = new Error('released');

/** Stops executing a run here but leaves it running (not cancelled) so another worker resumes it. */
export function releaseRun(runId: string) {
  const controller = activeRuns().get(runId);
  controller?.abort(RELEASED);
  return Boolean(controller);
}

export function isRunActive(runId: string) {
  return activeRuns().has(runId);
}

// The JSON Schema of each output kind, computed once.
const jsonSchemas = new Map<OutputKind, Record<string, unknown>>();
function jsonSchemaOf(kind: OutputKind) {
  let schema = jsonSchemas.get(kind);
  if (!schema) jsonSchemas.set(kind, (schema = z.toJSONSchema(OUTPUT_SCHEMAS[kind]) as Record<string, unknown>));
  return schema;
}

/**
 * The completion tokens to ask for when an answer was cut off after `cut` of them: the model's
 * whole output cap (lib/llm/output-caps.ts) within what the run's budget leaves (`left`,
 * undefined without a budget); undefined when that is no more than the answer already had.
 */
function moreRoom(model: string, cut: number, left: number | undefined): number | undefined {
  const room = roomFor(model, left);
  return room > cut ? room : undefined;
}

/** Evidence ids the given turns cite and verified: shown to a step that receives those turns. */
function verifiedIn(context: ContextTurn[]): string[] {
  return context.flatMap((t) => citationsOf(t.output).flatMap((c) => (c.evidenceId && (c as { verified?: boolean }).verified ? [c.evidenceId] : [])));
}

type Done = { text: string; output: StepOutput };

export async function executeRun({ db, runId, provider: runProvider, webSearch, providerConcurrency = 8, providerFor, workerId }: ExecuteOptions): Promise<ExecuteResult> {
  const started = performance.now();
  const run = await getRun({ db, id: runId });
  if (!run) throw new Error(`Run ${runId} does not exist.`);
  if (run.status === 'succeeded' || run.status === 'cancelled') {
    return { status: run.status, wallMs: 0, modelMs: 0, timings: [] };
  }
  if (activeRuns().has(runId)) throw new Error(`Run ${runId} is already executing in this process.`);
  const controller = new AbortController();
  activeRuns().set(runId, controller);
  const signal = controller.signal;
  const bus = runBus();
  const protocol: ProtocolDef = getProtocol(run.protocol);
  const params = run.params;
  const byId = new Map(protocol.steps.map((s) => [s.id, s]));
  // The budget inside the steps (lib/debate/budget.ts): every call is metered against what the
  // run has left, and going past it aborts the run like a cancellation, with the reason.
  const meter = new RunBudgetMeter(params, run, (reason) => {
    if (!signal.aborted) controller.abort(reason);
  });
  // What the run's budget leaves for one answer on `model` after a prompt of `promptTokens`
  // (undefined without a budget): the room a cut-off answer may be given when it is asked again.
  const budgetRoom = (model: string, promptTokens: number): number | undefined => {
    if (params.maxTokens == null && params.maxCostUsd == null) return undefined;
    const used = meter.totals();
    let left = params.maxTokens != null ? params.maxTokens - used.promptTokens - used.completionTokens - promptTokens : Infinity;
    if (params.maxCostUsd != null) {
      const price = priceOf(model);
      const dollars = params.maxCostUsd - used.costUsd - (promptTokens * price.inputPerMTok) / 1_000_000;
      left = Math.min(left, dollars <= 0 ? 0 : price.outputPerMTok > 0 ? (dollars * 1_000_000) / price.outputPerMTok : Infinity);
    }
    return left === Infinity ? undefined : Math.max(0, Math.floor(left));
  };
  const timings: StepTiming[] = [];
  let modelMs = 0;
  const released = () => signal.aborted && signal.reason === RELEASED;
  // A queue worker that lost its lease, or its database, stops and leaves the run to the next
  // holder (after a database restart: itself or another worker, once the lease runs out).
  const handsOver = (err: unknown) => err instanceof LeaseLostError || (workerId !== undefined && isDatabaseUnavailable(err));
  const releasedResult = (): ExecuteResult => ({ status: 'released', wallMs: performance.now() - started, modelMs, timings });
  // What calls of steps that were not saved (stopped by a cancellation or the budget, or failed
  // without their lease) spent goes into the run's totals.
  const saveUnsavedSpend = async () => {
    const spent = meter.unsaved();
    if (spent.promptTokens === 0 && spent.completionTokens === 0 && spent.costUsd === 0) return;
    await addRunUsage({ db, runId, usage: spent, workerId });
    meter.flushed();
  };
  // What a step's unsaved calls spent (every attempt), priced at its model, to save on the step.
  const stepUsage = (step: StepDef): Usage => {
    const spent = meter.stepSpend(step.id);
    const tokens = { promptTokens: Math.round(spent.promptTokens), completionTokens: Math.round(spent.completionTokens) };
    return { ...tokens, costUsd: costOf((providerFor?.(step) ?? runProvider).model, tokens) };
  };
  // The run's totals as saved, sent with run-finished so viewers see what a reload would show.
  const savedTotals = () => getRunTotals({ db, id: runId }).catch(() => undefined);

  try {
    // Steps that were running when a process stopped start again; finished ones stay finished.
    await resetSteps({ db, runId, statuses: ['running'], workerId });
    if (!(await setRunStatus({ db, id: runId, status: 'running', workerId }))) {
      // A queue worker whose run was cancelled or taken over before it began.
      controller.abort(RELEASED);
      return releasedResult();
    }
    const company = await getCompanyById({ db, id: run.companyId });
    if (!company) throw new Error(`Company ${run.companyId} does not exist.`);
    const evidence = await readEvidence({ db, companyId: company.id, asOf: params.asOf, recencyDays: params.recencyDays });
    const webEvidence: StoredWebResult[] = run.webEvidence ?? [];
    const known = new Map<string, KnownEvidence>(evidence.map((e) => [e.id, e]));
    for (const w of webEvidence) known.set(w.id, { id: w.id, sourceName: w.sourceName, publishedDate: w.publishedDate, eventDate: w.eventDate, sourceUrl: w.sourceUrl });

    const rows = await listRunSteps({ db, runId });
    const done = new Map<string, Done>();
    for (const r of rows) if (r.status === 'done') done.set(r.stepId, { text: r.text ?? '', output: r.output as StepOutput });
    const failed = new Set(rows.filter((r) => r.status === 'failed').map((r) => r.stepId));
    const pending = protocol.steps.filter((s) => !done.has(s.id) && !failed.has(s.id));

    bus.publish({
      type: 'run-started',
      runId,
      at: new Date().toISOString(),
      steps: protocol.steps.map((s) => ({ id: s.id, agent: s.agent, team: s.team, act: s.act, context: s.context })),
    });
    for (const [stepId, d] of done) {
      bus.publish({ type: 'step-done', runId, stepId, at: new Date().toISOString(), text: d.text, output: d.output, usage: { promptTokens: 0, completionTokens: 0, costUsd: 0 } });
    }

    const companyBrief = { id: company.id, name: company.name, nameEn: company.nameEn, country: company.country, industry: company.industry, description: company.description };

    const runStep = async (step: StepDef): Promise<void> => {
      // A turn of the event loop first: steps that become ready together would otherwise build
      // their prompts (long on a large pool) back to back in one slice of the server's time.
      await yieldToEventLoop();
      const provider = providerFor?.(step) ?? runProvider;
      const limit = providerLimit(`${provider.name}:${provider.model}`, providerConcurrency);
      const context: ContextTurn[] = step.context.map((id) => {
        const def = byId.get(id)!;
        const d = done.get(id)!;
        return { stepId: id, agent: def.agent, team: def.team, act: def.act, text: d.text, output: d.output };
      });
      const visible: EvidenceAsOf[] = visibleEvidence(step, evidence, context);
      const passages: RetrievedItem[] =
        step.evidence === 'documents'
          ? await retrieve({ db, companyId: company.id, query: step.query ?? step.task.slice(0, 200), asOf: params.asOf, k: 8, recencyDays: params.recencyDays })
          : [];
      // Document passages are citable by their id, like pool items.
      for (const p of passages) if (!known.has(p.id)) known.set(p.id, { id: p.id, sourceName: p.sourceName, publishedDate: p.publishedDate, sourceUrl: p.sourceUrl, stale: p.stale });
      const base = { runId, protocol, step, params, company: companyBrief, evidence: visible, passages, context };
      const prompt = buildPrompt(base);
      const tools = step.webSearch && webSearch
        ? {
            webSearch: async (query: string) => {
              const found = await webSearch(query, { maxResults: params.maxWebResults, asOf: params.asOf, recencyDays: params.recencyDays, language: params.language });
              for (const w of found) {
                if (known.has(w.id)) continue;
                webEvidence.push(w);
                known.set(w.id, { id: w.id, sourceName: w.sourceName, publishedDate: w.publishedDate, eventDate: w.eventDate, sourceUrl: w.sourceUrl });
              }
              await saveWebEvidence({ db, runId, items: webEvidence });
              return found;
            },
          }
        : {};
      // What the step was shown, for its citations (docs/protocols.md, "Taking answers in"): the
      // pool items and passages in its prompt, the items the turns it receives cite, and this
      // run's web results — read when its answer is in, after any searches it made.
      const citationScope = (): CitationScope => {
        const shown = new Map<string, KnownEvidence>();
        for (const id of [...visible.map((e) => e.id), ...passages.map((p) => p.id), ...verifiedIn(context), ...webEvidence.map((w) => w.id)]) {
          const item = known.get(id);
          if (item) shown.set(id, item);
        }
        return { shown, known, asOf: params.asOf };
      };
      const contextOutputs = new Map(context.map((c) => [c.stepId, c.output]));
      // Factors the visible evidence can support in the direction the step argues.
      const readable = (e: EvidenceAsOf) =>
        step.rules?.polarity === 'favorable' ? e.polarity !== 'adverse' : step.rules?.polarity === 'adverse-or-context' ? e.polarity !== 'favorable' : true;
      const availableFactors = step.evidence === 'none' ? undefined : new Set(visible.filter(readable).map((e) => e.factor ?? 'other'));
      const schema = OUTPUT_SCHEMAS[step.output];
      const stepStart = performance.now();
      let stepModelMs = 0;
      let repair: { previous: string; problems: string[] } | undefined;
      // What it took to take the answer in, kept on the step for reviewers.
      const stepRepairs: StepRepair[] = [];
      let maxTokens: number | undefined;
      let askedShorter = false;
      let usage = { promptTokens: 0, completionTokens: 0 };
      const toolCalls: ToolCallRecord[] = [];

      // A deterministic provider would only repeat itself: repair is for models. A model gets one
      // repair attempt for an answer it did not get right, and one more try for an answer cut off
      // at its token limit (docs/protocols.md, "Taking answers in").
      let repairsLeft = provider.isLLM ? 1 : 0;
      let cutRetriesLeft = provider.isLLM ? 1 : 0;
      let emptyRetriesLeft = provider.isLLM ? 1 : 0;
      for (;;) {
        const n = await markStepRunning({ db, runId, stepId: step.id, workerId });
        bus.publish({ type: 'step-started', runId, stepId: step.id, at: new Date().toISOString(), attempt: n });
        const release = await limit.acquire(signal);
        const metered = meter.call(step.id, provider.model);
        // Viewers get the answer's prose, its parts and its spend as it streams (lib/debate/live-step.ts).
        const live = liveStep({ publish: (e) => bus.publish(e), runId, stepId: step.id, kind: step.output, spent: () => meter.stepSpend(step.id) });
        let result;
        try {
          result = await provider.generate({
            ...base,
            prompt,
            schema,
            jsonSchema: jsonSchemaOf(step.output),
            tools,
            repair,
            maxTokens,
            signal,
            onToken: live.onToken,
            onWait: live.onWait,
            budget: metered,
          });
        } catch (err) {
          // A call that failed or was cut off counts what it spent, as far as the provider can
          // tell (its prompts, what streamed, attempts it retried), instead of the estimates.
          const spent = spentBy(err);
          if (spent) metered.settle(spent);
          throw err;
        } finally {
          release();
        }
        // The usage the provider reports replaces what was estimated while it streamed.
        metered.settle(result.usage);
        live.end();
        stepModelMs += result.modelMs;
        toolCalls.push(...result.toolCalls);
        usage = { promptTokens: usage.promptTokens + result.usage.promptTokens, completionTokens: usage.completionTokens + result.usage.completionTokens };
        if (result.finishReason === 'length') {
          // Cut off at the token limit: never taken in as it is. Asked again once, with more room
          // when there is more, else for a shorter answer.
          const cut = result.usage.completionTokens;
          if (cutRetriesLeft-- <= 0) throw new StepFailure(stopReason(askedShorter ? 'cutOffShorter' : 'cutOff', { tokens: cut.toLocaleString('en-US') }));
          const room = moreRoom(provider.model, cut, budgetRoom(provider.model, result.usage.promptTokens));
          if (room) {
            maxTokens = room;
            stepRepairs.push({ kind: 'truncated-retry', attempt: n, detail: `cut off at the token limit after ${cut.toLocaleString('en-US')} tokens; asked again with room for ${room.toLocaleString('en-US')}` });
          } else {
            repair = { previous: result.raw, problems: [`the answer was cut off at the token limit (${cut.toLocaleString('en-US')} tokens) and there is no more room: give the whole answer again, shorter`] };
            askedShorter = true;
            stepRepairs.push({ kind: 'repair-request', attempt: n, detail: `cut off at the token limit after ${cut.toLocaleString('en-US')} tokens, with no more room to give; asked for a shorter answer` });
          }
          continue;
        }
        // Tolerant intake, strict meaning (lib/debate/intake.ts). An empty answer or a refusal is
        // asked again once, plainly (serving stacks drop answers now and then, and a refusal of a
        // credit memo is rarely the model's settled view); a second one fails the step with its
        // reason. An answer that is not valid gets the repair attempt.
        const taken = takeIn(step.output, { raw: result.raw, refusal: result.refusal }, { attempt: n });
        if (!taken.ok && taken.failure !== 'invalid') {
          if (emptyRetriesLeft-- <= 0) throw new StepFailure(taken.reason);
          stepRepairs.push({ kind: 'repair-request', attempt: n, detail: `${taken.failure === 'refusal' ? 'the model declined' : 'the answer was empty'}; asked again once` });
          continue;
        }
        // Citations are resolved before the rules: one dated after as-of supports no claim.
        const resolved = taken.ok ? resolveCitations(taken.output, citationScope()) : undefined;
        const problems = taken.ok ? checkStepRules(step, taken.output, { context: contextOutputs, availableFactors }) : taken.problems;
        if (taken.ok && problems.length === 0) {
          const output = taken.output;
          stepRepairs.push(...taken.repairs, ...resolved!.repairs.map((r) => ({ ...r, attempt: n })));
          const text = proseOf(step.output, output);
          const cost = costOf(provider.model, usage);
          // A finished answer is kept even when it took the run past its budget: its tokens are spent.
          await markStepDone({ db, runId, stepId: step.id, text, output, toolCalls, usage: { ...usage, costUsd: cost }, repairs: stepRepairs, workerId });
          meter.stepSaved(step.id);
          stopIfOverBudget();
          done.set(step.id, { text, output });
          modelMs += stepModelMs;
          timings.push({ stepId: step.id, startedAt: stepStart - started, finishedAt: performance.now() - started, modelMs: stepModelMs });
          bus.publish({ type: 'step-done', runId, stepId: step.id, at: new Date().toISOString(), text, output, usage: { ...usage, costUsd: cost }, repairs: stepRepairs });
          return;
        }
        if (repairsLeft-- <= 0) {
          throw new StepFailure(stopReason(repair ? 'rulesAfterRepair' : 'rules', { problems: problems.slice(0, 5).join(' ') }));
        }
        repair = { previous: result.raw, problems };
        stepRepairs.push({ kind: 'repair-request', attempt: n, detail: `sent back once: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? '; …' : ''}` });
      }
    };

    // The scheduler: start every ready step up to the run's concurrency; wait for any to end.
    const running = new Map<string, Promise<void>>();
    const maxConcurrency = run.mode === 'sequential' ? 1 : Math.max(1, params.maxConcurrency ?? 8);
    const isReady = (s: StepDef) => s.context.every((id) => done.has(id));
    // Budgets (lib/debate/limits.ts), checked before the first step and after each finished one,
    // besides the meter inside the steps: past the budget, or at it with work left, the run stops
    // like a cancellation and keeps what is done.
    const stopIfOverBudget = () => {
      if (signal.aborted) return;
      const overrun = meter.crossed() ?? (pending.length > 0 || running.size > 1 ? budgetOverrun(params, meter.totals()) : null);
      if (overrun) controller.abort(new BudgetExceeded(overrun));
    };
    stopIfOverBudget();
    while (!signal.aborted) {
      const candidates = run.mode === 'sequential' ? pending.slice(0, 1) : pending;
      for (const step of candidates.filter(isReady)) {
        if (running.size >= maxConcurrency) break;
        pending.splice(pending.indexOf(step), 1);
        const task = runStep(step)
          .catch(async (err) => {
            // Another worker holds the run now: stop here and leave every step to it.
            if (handsOver(err)) controller.abort(RELEASED);
            if (signal.aborted) return;
            const message = err instanceof StepFailure ? err.message : stopReason('stepError', { reason: (err as Error).message });
            failed.add(step.id);
            // Every attempt of the step, failed and repair attempts included, is saved on it.
            const usage = stepUsage(step);
            const saved = await markStepFailed({ db, runId, stepId: step.id, error: message, usage, workerId }).then(
              () => true,
              (e) => {
                if (handsOver(e)) controller.abort(RELEASED);
                else throw e;
                return false;
              },
            );
            if (saved) meter.stepSaved(step.id);
            if (signal.aborted) return;
            bus.publish({ type: 'step-failed', runId, stepId: step.id, at: new Date().toISOString(), error: message, usage });
          })
          .finally(() => running.delete(step.id));
        running.set(step.id, task);
      }
      if (running.size === 0) break;
      await Promise.race(running.values());
    }
    await Promise.allSettled(running.values());
    if (!released()) await saveUnsavedSpend().catch(ignoreLeaseLost);

    const wallMs = performance.now() - started;
    if (released()) {
      // Still holding the lease (a graceful release): the next holder would reset these anyway,
      // but until it starts, viewers should not see steps as running that nobody runs.
      await resetSteps({ db, runId, statuses: ['running'], workerId }).catch(ignoreLeaseLost);
      return releasedResult();
    }
    if (signal.aborted) {
      await resetSteps({ db, runId, statuses: ['running'], workerId }).catch(ignoreLeaseLost);
      // Worded with the final totals, the spend of the stopped calls included.
      const budget = signal.reason instanceof BudgetExceeded ? (meter.crossed() ?? signal.reason.message) : undefined;
      const status = budget ? 'budget_exceeded' : 'cancelled';
      const error = budget ?? stopReason('cancelled');
      await setRunStatus({ db, id: runId, status, error, workerId });
      bus.publish({ type: 'run-finished', runId, at: new Date().toISOString(), status, error, totals: await savedTotals() });
      return { status, error: budget, wallMs, modelMs, timings };
    }
    if (failed.size || pending.length) {
      const error = failed.size
        ? stopReason(failed.size > 1 ? 'stepsFailed' : 'oneStepFailed', { steps: [...failed].join(', '), n: pending.length, plural: pending.length === 1 ? '' : 's' })
        : stopReason('notStarted');
      if (!(await setRunStatus({ db, id: runId, status: 'failed', error, workerId }))) return releasedResult();
      bus.publish({ type: 'run-finished', runId, at: new Date().toISOString(), status: 'failed', error, totals: await savedTotals() });
      return { status: 'failed', error, wallMs, modelMs, timings };
    }

    const ordered = protocol.steps.map((s) => ({ stepId: s.id, ...done.get(s.id)! }));
    const checks = finalChecks({ steps: ordered, known, language: params.language });
    await upsertReport({ db, runId, content: done.get(protocol.reportStep)!.output, checks });
    bus.publish({ type: 'report-ready', runId, at: new Date().toISOString() });
    if (!(await setRunStatus({ db, id: runId, status: 'succeeded', workerId }))) return releasedResult();
    bus.publish({ type: 'run-finished', runId, at: new Date().toISOString(), status: 'succeeded', totals: await savedTotals() });
    return { status: 'succeeded', wallMs: performance.now() - started, modelMs, timings };
  } catch (err) {
    if (released() || handsOver(err)) return releasedResult();
    await saveUnsavedSpend().catch(() => {});
    const error = stopReason('unexpected', { reason: (err as Error).message });
    await setRunStatus({ db, id: runId, status: 'failed', error, workerId }).catch(() => {});
    bus.publish({ type: 'run-finished', runId, at: new Date().toISOString(), status: 'failed', error, totals: await savedTotals() });
    return { status: 'failed', error, wallMs: performance.now() - started, modelMs, timings };
  } finally {
    activeRuns().delete(runId);
  }
}

class StepFailure extends Error {}

/** For the tidy-up writes of a stopping queue worker: without the lease (or the database) they are the new holder's to do. */
function ignoreLeaseLost(err: unknown) {
  if (!(err instanceof LeaseLostError) && !isDatabaseUnavailable(err)) throw err;
}

/**
 * Puts a failed or cancelled run back to queued: its failed steps (and what could not start
 * after them) run again; finished steps are kept. One transaction, with the run locked and its
 * status checked there, so two retries at once cannot both pass; `alsoInTransaction` adds the
 * caller's checks and writes (the per-user limit, the audit entry), and its error writes nothing.
 * False, with nothing written, when the run is not failed or cancelled (any more).
 */
export async function retryFailedSteps({ db, runId, alsoInTransaction }: { db: Db; runId: string; alsoInTransaction?: (tx: Tx) => Promise<void> }) {
  return db.transaction(async (tx) => {
    const status = await lockRunStatus({ db: tx, id: runId });
    if (status !== 'failed' && status !== 'cancelled') return false;
    await alsoInTransaction?.(tx);
    await resetSteps({ db: tx, runId, statuses: ['failed'] });
    await setRunStatus({ db: tx, id: runId, status: 'queued' });
    return true;
  });
}

export const DEFAULT_RUN_PARAMS = {
  language: 'ko',
  /** Three years: older evidence is used only with a note that it is old. */
  recencyDays: 3 * 365,
  maxWebResults: 5,
  maxConcurrency: 8,
} as const satisfies Omit<RunParams, 'asOf'>;

export async function createRun({
  db,
  protocolId,
  companyId,
  provider,
  mode = 'dag',
  params = {},
  caseId = null,
  createdById = null,
  id,
}: {
  db: Executor;
  id?: string;
  protocolId: ProtocolDef['id'];
  companyId: string;
  provider: ModelProvider;
  mode?: RunMode;
  params?: Partial<RunParams>;
  caseId?: string | null;
  createdById?: string | null;
}) {
  const protocol = getProtocol(protocolId);
  const full: RunParams = { ...DEFAULT_RUN_PARAMS, ...defaultBudget(), asOf: isoToday(), ...params };
  return insertRun({ db, id, protocol, params: full, provider: provider.name, model: provider.model, mode, companyId, caseId, createdById });
}
