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
import { finalChecks, resolveCitations, type KnownEvidence } from '@/lib/debate/checks';
import { buildPrompt } from '@/lib/debate/prompts';
import { getProtocol } from '@/lib/debate/protocols';
import { isDatabaseUnavailable } from '@/lib/db/errors';
import { yieldToEventLoop } from '@/lib/event-loop';
import { budgetOverrun, BudgetExceeded, defaultBudget } from '@/lib/debate/limits';
import { checkStepRules } from '@/lib/debate/rules';
import { OUTPUT_SCHEMAS, proseOf, type OutputKind, type StepOutput } from '@/lib/domain/outputs';
import { providerLimit } from '@/lib/debate/semaphore';
import type { Language, ProtocolDef, RunMode, RunParams, StepDef } from '@/lib/domain/protocol';
import type { StoredWebResult, ToolCallRecord } from '@/lib/domain/stored';
import { costOf } from '@/lib/llm/prices';
import type { ContextTurn, ModelProvider, WebEvidence } from '@/lib/llm/types';
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

function parseJson(raw: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (err) {
    return { ok: false, problem: `the output is not valid JSON (${(err as Error).message})` };
  }
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
  const timings: StepTiming[] = [];
  let modelMs = 0;
  const released = () => signal.aborted && signal.reason === RELEASED;
  // A queue worker that lost its lease, or its database, stops and leaves the run to the next
  // holder (after a database restart: itself or another worker, once the lease runs out).
  const handsOver = (err: unknown) => err instanceof LeaseLostError || (workerId !== undefined && isDatabaseUnavailable(err));
  const releasedResult = (): ExecuteResult => ({ status: 'released', wallMs: performance.now() - started, modelMs, timings });
  // What calls of steps that were not saved (stopped, failed) spent goes into the run's totals.
  const saveUnsavedSpend = async () => {
    const spent = meter.unsaved();
    if (spent.promptTokens === 0 && spent.completionTokens === 0 && spent.costUsd === 0) return;
    await addRunUsage({ db, runId, usage: spent, workerId });
    meter.flushed();
  };

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
    for (const w of webEvidence) known.set(w.id, { id: w.id, sourceName: w.sourceName, publishedDate: w.publishedDate });

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
      for (const p of passages) if (!known.has(p.id)) known.set(p.id, { id: p.id, sourceName: p.sourceName, publishedDate: p.publishedDate, stale: p.stale });
      const base = { runId, protocol, step, params, company: companyBrief, evidence: visible, passages, context };
      const prompt = buildPrompt(base);
      const tools = step.webSearch && webSearch
        ? {
            webSearch: async (query: string) => {
              const found = await webSearch(query, { maxResults: params.maxWebResults, asOf: params.asOf, recencyDays: params.recencyDays, language: params.language });
              for (const w of found) {
                if (known.has(w.id)) continue;
                webEvidence.push(w);
                known.set(w.id, { id: w.id, sourceName: w.sourceName, publishedDate: w.publishedDate });
              }
              await saveWebEvidence({ db, runId, items: webEvidence });
              return found;
            },
          }
        : {};
      const contextOutputs = new Map(context.map((c) => [c.stepId, c.output]));
      // Factors the visible evidence can support in the direction the step argues.
      const readable = (e: EvidenceAsOf) =>
        step.rules?.polarity === 'favorable' ? e.polarity !== 'adverse' : step.rules?.polarity === 'adverse-or-context' ? e.polarity !== 'favorable' : true;
      const availableFactors = step.evidence === 'none' ? undefined : new Set(visible.filter(readable).map((e) => e.factor ?? 'other'));
      const schema = OUTPUT_SCHEMAS[step.output];
      const stepStart = performance.now();
      let stepModelMs = 0;
      let repair: { previous: string; problems: string[] } | undefined;
      let usage = { promptTokens: 0, completionTokens: 0 };
      const toolCalls: ToolCallRecord[] = [];

      // A deterministic provider would only repeat itself: repair is for models.
      const attempts = provider.isLLM ? 2 : 1;
      for (let attempt = 0; attempt < attempts; attempt++) {
        const n = await markStepRunning({ db, runId, stepId: step.id, workerId });
        bus.publish({ type: 'step-started', runId, stepId: step.id, at: new Date().toISOString(), attempt: n });
        const release = await limit.acquire(signal);
        const metered = meter.call(step.id, provider.model);
        let result;
        try {
          result = await provider.generate({
            ...base,
            prompt,
            schema,
            jsonSchema: jsonSchemaOf(step.output),
            tools,
            repair,
            signal,
            onToken: (text) => bus.publish({ type: 'token', runId, stepId: step.id, text }),
            onWait: (wait) => bus.publish({ type: 'step-waiting', runId, stepId: step.id, at: new Date().toISOString(), ...wait }),
            budget: metered,
          });
        } finally {
          release();
        }
        // The usage the provider reports replaces what was estimated while it streamed.
        metered.settle(result.usage);
        stepModelMs += result.modelMs;
        toolCalls.push(...result.toolCalls);
        usage = { promptTokens: usage.promptTokens + result.usage.promptTokens, completionTokens: usage.completionTokens + result.usage.completionTokens };
        const json = parseJson(result.raw);
        const parsed = json.ok ? schema.safeParse(json.value) : null;
        const problems = !json.ok
          ? [json.problem]
          : !parsed!.success
            ? parsed!.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
            : checkStepRules(step, parsed!.data, { context: contextOutputs, availableFactors });
        if (problems.length === 0) {
          // The schema is the step's own (OUTPUT_SCHEMAS[step.output]), so the data is its output shape.
          const output = parsed!.data as StepOutput;
          resolveCitations(output, known);
          const text = proseOf(step.output, output);
          const cost = costOf(provider.model, usage);
          // A finished answer is kept even when it took the run past its budget: its tokens are spent.
          await markStepDone({ db, runId, stepId: step.id, text, output, toolCalls, usage: { ...usage, costUsd: cost }, workerId });
          meter.stepSaved(step.id);
          stopIfOverBudget();
          done.set(step.id, { text, output });
          modelMs += stepModelMs;
          timings.push({ stepId: step.id, startedAt: stepStart - started, finishedAt: performance.now() - started, modelMs: stepModelMs });
          bus.publish({ type: 'step-done', runId, stepId: step.id, at: new Date().toISOString(), text, output, usage: { ...usage, costUsd: cost } });
          return;
        }
        repair = { previous: result.raw, problems };
      }
      throw new StepFailure(
        `The output did not meet the step's rules${attempts > 1 ? ' after one repair' : ''}: ${repair!.problems.slice(0, 5).join(' ')}`,
      );
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
            const message = err instanceof StepFailure ? err.message : `The step failed: ${(err as Error).message}`;
            failed.add(step.id);
            await markStepFailed({ db, runId, stepId: step.id, error: message, workerId }).catch((e) => {
              if (handsOver(e)) controller.abort(RELEASED);
              else throw e;
            });
            if (signal.aborted) return;
            bus.publish({ type: 'step-failed', runId, stepId: step.id, at: new Date().toISOString(), error: message });
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
      await setRunStatus({ db, id: runId, status, error: budget ?? 'Cancelled.', workerId });
      bus.publish({ type: 'run-finished', runId, at: new Date().toISOString(), status, error: budget });
      return { status, error: budget, wallMs, modelMs, timings };
    }
    if (failed.size || pending.length) {
      const error = failed.size
        ? `Step${failed.size > 1 ? 's' : ''} ${[...failed].join(', ')} failed; ${pending.length} step${pending.length === 1 ? '' : 's'} could not start. Retry the failed step to continue.`
        : 'Some steps could not start.';
      if (!(await setRunStatus({ db, id: runId, status: 'failed', error, workerId }))) return releasedResult();
      bus.publish({ type: 'run-finished', runId, at: new Date().toISOString(), status: 'failed' });
      return { status: 'failed', error, wallMs, modelMs, timings };
    }

    const ordered = protocol.steps.map((s) => ({ stepId: s.id, ...done.get(s.id)! }));
    const checks = finalChecks({ steps: ordered, known, language: params.language });
    await upsertReport({ db, runId, content: done.get(protocol.reportStep)!.output, checks });
    bus.publish({ type: 'report-ready', runId, at: new Date().toISOString() });
    if (!(await setRunStatus({ db, id: runId, status: 'succeeded', workerId }))) return releasedResult();
    bus.publish({ type: 'run-finished', runId, at: new Date().toISOString(), status: 'succeeded' });
    return { status: 'succeeded', wallMs: performance.now() - started, modelMs, timings };
  } catch (err) {
    if (released() || handsOver(err)) return releasedResult();
    await saveUnsavedSpend().catch(() => {});
    const error = `The run stopped: ${(err as Error).message}`;
    await setRunStatus({ db, id: runId, status: 'failed', error, workerId }).catch(() => {});
    bus.publish({ type: 'run-finished', runId, at: new Date().toISOString(), status: 'failed' });
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
