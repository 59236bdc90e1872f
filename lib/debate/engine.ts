// One engine for every protocol. A step starts as soon as the steps in its context are done
// (dag mode) or strictly one after another in protocol order (sequential mode). Each step gets
// only its declared context and the evidence it may see, is validated against its schema and
// rules (one repair attempt), and is saved the moment it completes, so an interrupted run
// resumes from its last completed step without redoing or duplicating any. A step that declares
// sections is written by calls at the same time, one per section, then an overview from them
// (docs/protocols.md, "Sections"), and is checked and saved as one answer.
import { z, type ZodType } from 'zod';
import type { Db } from '@/lib/db/client';
import { getCompanyById } from '@/lib/db/queries/companies';
import { getRun, listRunSteps } from '@/lib/db/queries/runs';
import { RunBudgetMeter } from '@/lib/debate/budget';
import { ignoreLeaseLost, runRecorder } from '@/lib/debate/run/recorder';
import { StepScheduler } from '@/lib/debate/run/scheduler';
import { claimRun, forgetRun, RELEASED } from '@/lib/debate/run/active-runs';
import { liveStep } from '@/lib/debate/live-step';
import { finalChecks, resolveCitations, type CitationScope, type KnownEvidence } from '@/lib/debate/checks';
import { takeIn } from '@/lib/debate/intake';
import { askedFields, stepOutputSchema, toStoredShape } from '@/lib/domain/step-output';
import { buildPrompt, type Prompt } from '@/lib/debate/prompts';
import { liveSections } from '@/lib/debate/sections';
import { sectionFingerprint, sectionJsonSchema, sectionPrompt } from '@/lib/debate/section-prompts';
import { coversFactor, droppedEntries, joinSections, sectionCalls, sectionOf, sectionSchema, type SectionCall } from '@/lib/domain/sections';
import { getProtocol } from '@/lib/debate/protocols';
import { yieldToEventLoop } from '@/lib/event-loop';
import { BudgetExceeded } from '@/lib/debate/limits';
import { checkStepRules, dropNewEvidence, signalFactors } from '@/lib/debate/rules';
import { citationsOf } from '@/lib/domain/output-parts';
import { OUTPUT_SCHEMAS, proseOf, type StepOutput } from '@/lib/domain/outputs';
import { providerLimit } from '@/lib/debate/semaphore';
import type { Language, ProtocolDef, RunEvent, RunParams, StepDef, StepSections } from '@/lib/domain/protocol';
import { reasonOf, reasonText, ReasonError, stopPhrase } from '@/lib/i18n/failures';
import type { Phrase } from '@/lib/i18n';
import type { KeptSection, StepRepair, StoredWebResult, ToolCallRecord } from '@/lib/domain/stored';
import { costOf } from '@/lib/llm/prices';
import { spentBy, type ContextTurn, type ModelProvider, type WebEvidence } from '@/lib/llm/types';
import { readEvidence, type EvidenceAsOf } from '@/lib/pool/as-of';
import { briefRedFlags, findRedFlags } from '@/lib/pool/red-flags';
import { retrieve, type RetrievedItem } from '@/lib/pool/retrieve';
import { contextFor } from '@/lib/debate/context-scope';
import { sourceTable } from '@/lib/domain/source-keys';
import { visibleEvidence } from '@/lib/debate/evidence-scope';
import { enforce } from '@/lib/debate/enforce';
import { passagesFor } from '@/lib/debate/passages';
import { EVIDENCE_THRESHOLD, runOutlook, type EvidenceThreshold } from '@/lib/debate/sufficiency';
import type { EvidenceShortfall } from '@/lib/domain/red-flags';

export { cancelRun, isRunActive, releaseRun } from '@/lib/debate/run/active-runs';
export { createRun, DEFAULT_RUN_PARAMS, isRetryable, retryFailedSteps } from '@/lib/debate/run/lifecycle';

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

// The JSON Schema of each step's answer (its output kind, narrowed to the parts the step fills:
// lib/domain/step-output.ts), computed once per shape.
const jsonSchemas = new Map<ZodType, Record<string, unknown>>();
function jsonSchemaOf(schema: ZodType) {
  let json = jsonSchemas.get(schema);
  if (!json) jsonSchemas.set(schema, (json = z.toJSONSchema(schema) as Record<string, unknown>));
  return json;
}

/** Evidence ids the given turns cite and verified: shown to a step that receives those turns. */
function verifiedIn(context: ContextTurn[]): string[] {
  return context.flatMap((t) => citationsOf(t.output).flatMap((c) => (c.evidenceId && (c as { verified?: boolean }).verified ? [c.evidenceId] : [])));
}

/** Every factor an answer names (its claims', topics', arguments'), wherever in it. */
function factorsNamedIn(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) factorsNamedIn(v, into);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'factor' && typeof v === 'string') into.push(v);
      else factorsNamedIn(v, into);
    }
  }
  return into;
}

type Done = { text: string; output: StepOutput };

/** An answer taken in and checked: the output as kept, what its checks found, and the repairs they made. */
type Verdict = { output: StepOutput; problems: string[]; repairs: StepRepair[] };

/** What one call spent and did on its way to its answer, every try of it: a section kept as it finishes keeps these. */
type CallRecord = { usage: KeptSection['usage']; toolCalls: ToolCallRecord[]; repairs: StepRepair[] };

type Tokens = KeptSection['usage'];
const NO_TOKENS: Tokens = { promptTokens: 0, completionTokens: 0, cachedTokens: 0 };
const addTokens = (a: Tokens, b: { promptTokens: number; completionTokens: number; cachedTokens?: number }): Tokens => ({
  promptTokens: a.promptTokens + b.promptTokens,
  completionTokens: a.completionTokens + b.completionTokens,
  cachedTokens: a.cachedTokens + (b.cachedTokens ?? 0),
});

/** What one section wrote, as the overview call reads it. */
type SectionWritten = { key: string; output: Record<string, unknown> };

/** One model call of a step: the whole answer, or one section of it (with what the sections wrote, for the overview). */
type AskCall = {
  part?: SectionCall;
  written?: SectionWritten[];
  prompt: Prompt;
  schema: ZodType;
  jsonSchema: Record<string, unknown>;
  signal: AbortSignal;
  /** Before each try: its attempt number. */
  started: () => Promise<number>;
  publish: (event: RunEvent) => void;
  /** What the engine checks beyond the schema; `last`: no repair is left for this answer. */
  check: (output: StepOutput, attempt: number, last: boolean) => Verdict;
};

/**
 * Passages retrieved for a step that reads documents, before those its evidence block already
 * shows are dropped. Six rather than eight: on the engine benchmark's Samsung case the last two of
 * eight cost a FinDebate case 1,367 prompt tokens (45,909 against 44,542).
 */
const PASSAGES_PER_STEP = 6;

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
  const byId = new Map(protocol.steps.map((s) => [s.id, s]));
  // The budget inside the steps (lib/debate/budget.ts): every call is metered against what the
  // run has left, and going past it aborts the run like a cancellation, with the reason.
  const meter = new RunBudgetMeter(params, run, (reason) => {
    if (!signal.aborted) controller.abort(reason);
  });
  const timings: StepTiming[] = [];
  let modelMs = 0;
  const released = () => signal.aborted && signal.reason === RELEASED;
  const recorder = runRecorder({ db, runId, workerId, meter, onHandOver: () => controller.abort(RELEASED) });
  const { handsOver } = recorder;
  const releasedResult = (): ExecuteResult => ({ status: 'released', wallMs: performance.now() - started, modelMs, timings });

  try {
    await recorder.resetRunning();
    if (!(await recorder.setRunning())) {
      // A queue worker whose run was cancelled or taken over before it began.
      controller.abort(RELEASED);
      return releasedResult();
    }
    const company = await getCompanyById({ db, id: run.companyId });
    if (!company) throw new Error(`Company ${run.companyId} does not exist.`);
    const evidence = await readEvidence({ db, companyId: company.id, asOf: params.asOf, recencyDays: params.recencyDays });
    // Red flags (lib/pool/red-flags.ts): found by rule in what the run may see, before any step,
    // kept on the run and handed to every step; the report's final step must address each one.
    const redFlags = findRedFlags(evidence);
    await recorder.saveRedFlags(redFlags);
    const stepRedFlags = briefRedFlags(redFlags, evidence);
    // Every prompt's header names the red flags: a claim citing only these reads a decisive event (lib/debate/rules.ts).
    const redFlagIds = new Set(redFlags.flatMap((f) => [f.evidenceId, ...(f.alsoEvidenceIds ?? [])]));
    // The run's source table (lib/domain/source-keys.ts): named once in every step's header, by
    // key everywhere else in its prompt; a key a model cites is taken back to its name.
    const sources = sourceTable(evidence);
    const webEvidence: StoredWebResult[] = run.webEvidence ?? [];
    const known = new Map<string, KnownEvidence>(evidence.map((e) => [e.id, e]));
    for (const w of webEvidence) known.set(w.id, { id: w.id, sourceName: w.sourceName, publishedDate: w.publishedDate, eventDate: w.eventDate, sourceUrl: w.sourceUrl });

    const rows = await listRunSteps({ db, runId });
    // Sections of steps not saved that an execution before this one finished (lib/domain/stored.ts).
    const keptSections = new Map(rows.flatMap((r) => (r.status !== 'done' && r.sections?.length ? [[r.stepId, r.sections] as const] : [])));
    // What they spent that no total counts yet (the execution that asked them stopped without
    // saving their step) is this execution's unsaved spend from now on, whether or not they are
    // used again: saved with their step, or with the run's unsaved spend if it stops first.
    const keptSpend = new Map<string, KeptSection['usage']>();
    for (const [stepId, kept] of keptSections) {
      const def = byId.get(stepId);
      const spent = kept.filter((k) => !k.counted).reduce((sum, k) => addTokens(sum, k.usage), NO_TOKENS);
      if (!def || (spent.promptTokens === 0 && spent.completionTokens === 0)) continue;
      keptSpend.set(stepId, spent);
      meter.adopt(stepId, (providerFor?.(def) ?? runProvider).model, spent);
    }
    const done = new Map<string, Done>();
    for (const r of rows) if (r.status === 'done') done.set(r.stepId, { text: r.text ?? '', output: r.output as StepOutput });
    const failed = new Set(rows.filter((r) => r.status === 'failed').map((r) => r.stepId));
    // Each step's repair record as it grows, so a step that fails keeps what was asked on the way.
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
    const outlook = done.size === 0 ? runOutlook(evidence, redFlags.length, evidenceThreshold) : null;
    if (outlook && outlook.kind !== 'debate') {
      const { shortfall } = outlook;
      const status = outlook.kind === 'screening' ? 'red_flag_screening' : 'insufficient_evidence';
      if (!(await recorder.finishRun({ status, shortfall }))) return releasedResult();
      return { status, shortfall, wallMs: performance.now() - started, modelMs: 0, timings: [] };
    }

    recorder.runStarted(protocol, redFlags, done);

    // Identity fields only: the free-text profile may state facts from after the as-of date (lib/llm/types.ts).
    const companyBrief = { id: company.id, name: company.name, nameEn: company.nameEn, country: company.country, industry: company.industry, identifiers: company.identifiers };

    const runStep = async (step: StepDef): Promise<void> => {
      // A turn of the event loop first: steps that become ready together would otherwise build
      // their prompts (long on a large pool) back to back in one slice of the server's time.
      await yieldToEventLoop();
      const provider = providerFor?.(step) ?? runProvider;
      const limit = providerLimit(`${provider.name}:${provider.model}`, providerConcurrency);
      // The declared turns; SAS's stress test only the winning side's (lib/debate/context-scope.ts).
      const context: ContextTurn[] = contextFor(
        step,
        step.context.map((id) => {
          const def = byId.get(id)!;
          const d = done.get(id)!;
          return { stepId: id, agent: def.agent, team: def.team, act: def.act, text: d.text, output: d.output };
        }),
      );
      const visible: EvidenceAsOf[] = visibleEvidence(step, evidence, context, redFlagIds);
      // A passage that is a pool item the evidence block already shows is not shown twice.
      const shown = new Set(visible.map((e) => e.id));
      const passages: RetrievedItem[] =
        step.evidence === 'documents'
          ? (await passagesFor(step, (query, k) => retrieve({ db, companyId: company.id, query, asOf: params.asOf, k, recencyDays: params.recencyDays }), PASSAGES_PER_STEP)).filter((p) => !shown.has(p.id))
          : [];
      // Document passages are citable by their id, like pool items.
      for (const p of passages) if (!known.has(p.id)) known.set(p.id, { id: p.id, sourceName: p.sourceName, publishedDate: p.publishedDate, sourceUrl: p.sourceUrl, stale: p.stale });
      // A judge runs at the run's judge temperature (low by default); every other step at the run's.
      const stepParams: RunParams = step.role === 'judge' ? { ...params, temperature: params.judgeTemperature ?? DEFAULT_JUDGE_TEMPERATURE } : params;
      // Factors the visible evidence can support in the direction the step argues: its minimums
      // shrink to them, in the prompt and in the check alike (lib/debate/rules.ts).
      const availableFactors = signalFactors(step, visible);
      // Only a provider that searches can be held to searching; the offline analyst never does.
      const canSearch = Boolean(step.webSearch && webSearch) && provider.isLLM;
      // Short of the signals it must bring (KPD-MADS: fewer than three in its direction), a step
      // that can search must search first: its prompt says so (lib/debate/prompts.ts) and its
      // rules check that it did (lib/debate/rules.ts).
      // The request carries the web_search tool exactly when the step may search and a search
      // provider is configured; the prompt speaks of searching only then (lib/debate/prompts.ts).
      const searchTool = Boolean(step.webSearch && webSearch);
      const base = { runId, protocol, step, params: stepParams, company: companyBrief, evidence: visible, passages, context, redFlags: stepRedFlags, sources };
      const prompt = buildPrompt({ ...base, searchTool });
      // The searches this step made and the new results they brought, for its rules (a KPD-MADS
      // constructive short of signals must search: lib/debate/rules.ts).
      const searched = { searches: 0, results: 0 };
      const tools = searchTool && webSearch
        ? {
            webSearch: async (query: string) => {
              searched.searches++;
              const found = await webSearch(query, { maxResults: params.maxWebResults, asOf: params.asOf, recencyDays: params.recencyDays, language: params.language });
              for (const w of found) {
                if (known.has(w.id)) continue;
                searched.results++;
                webEvidence.push(w);
                known.set(w.id, { id: w.id, sourceName: w.sourceName, publishedDate: w.publishedDate, eventDate: w.eventDate, sourceUrl: w.sourceUrl });
              }
              await recorder.saveWebEvidence(webEvidence);
              return found;
            },
          }
        : {};
      // What the step was shown, for its citations (docs/protocols.md, "Taking answers in"): the
      // pool items and passages in its prompt, the items the turns it receives cite, and this
      // run's web results — read when its answer is in, after any searches it made.
      const citationScope = (): CitationScope => {
        const shown = new Map<string, KnownEvidence>();
        // Every step is shown the run's red flags (the prompt's header names each by its id).
        for (const id of [...visible.map((e) => e.id), ...passages.map((p) => p.id), ...verifiedIn(context), ...webEvidence.map((w) => w.id), ...redFlagIds]) {
          const item = known.get(id);
          if (item) shown.set(id, item);
        }
        return { shown, known, asOf: params.asOf, sources };
      };
      const contextOutputs = new Map(context.map((c) => [c.stepId, c.output]));
      const stepStart = performance.now();
      let stepModelMs = 0;
      // What it took to take the answer in, kept on the step for reviewers.
      const stepRepairs: StepRepair[] = [];
      attemptRepairs.set(step.id, stepRepairs);
      // cachedTokens: what the provider's prompt cache served, billed at the cached-input price.
      let usage = keptSpend.get(step.id) ?? NO_TOKENS;
      const toolCalls: ToolCallRecord[] = [];
      const partTimes: { key: string; modelMs: number }[] = [];

      // The whole answer checked as the engine checks every step: what it decides itself rather
      // than take the model's word (lib/debate/enforce.ts), before the citations are resolved (a
      // version it puts in is checked like the model's own), then the rules — after the
      // citations, because one dated after as-of supports no claim. An answer with no repair
      // left that still brings new evidence into a closing loses those citations instead of
      // failing the run (lib/debate/rules.ts, dropNewEvidence); each one dropped is recorded.
      const checkWhole = (output: StepOutput, attempt: number, last = false): Verdict => {
        const enforced = enforce(step, output, { context: step.context.map((id) => ({ step: byId.get(id)!, output: done.get(id)!.output })), language: params.language });
        const resolved = resolveCitations(enforced.output, citationScope());
        const dropped = last ? dropNewEvidence(step, enforced.output, contextOutputs, redFlagIds) : [];
        const problems = checkStepRules(step, enforced.output, { context: contextOutputs, availableFactors, redFlagIds, ...(canSearch ? { webSearch: { ...searched } } : {}) });
        return {
          output: enforced.output as StepOutput,
          problems,
          repairs: [
            ...resolved.repairs.map((r) => ({ ...r, attempt })),
            ...dropped.map((c) => ({ kind: 'citation-dropped' as const, attempt, detail: `${c.evidenceId} (${c.source}, ${c.date}) taken out: the turns this step answers do not cite it, and it may bring no new evidence` })),
            ...enforced.repairs.map((r) => ({ ...r, attempt })),
          ],
        };
      };

      // One call of the step, asked until its answer is taken in. A deterministic provider would
      // only repeat itself: repair is for models. A model gets one repair attempt for an answer it
      // did not get right, and one more try for an answer cut off at its token limit
      // (docs/protocols.md, "Taking answers in"). Each call of a sectioned step has its own.
      const ask = async (call: AskCall): Promise<Verdict & { modelMs: number; record: CallRecord }> => {
        const record: CallRecord = { usage: NO_TOKENS, toolCalls: [], repairs: [] };
        const note = (r: StepRepair) => {
          const noted = call.part ? { ...r, part: call.part.key } : r;
          stepRepairs.push(noted);
          record.repairs.push(noted);
        };
        let repair: { previous: string; problems: string[] } | undefined;
        let maxTokens: number | undefined;
        let askedShorter = false;
        let callModelMs = 0;
        let repairsLeft = provider.isLLM ? 1 : 0;
        let cutRetriesLeft = provider.isLLM ? 1 : 0;
        let emptyRetriesLeft = provider.isLLM ? 1 : 0;
        for (;;) {
          const n = await call.started();
          const release = await limit.acquire(call.signal);
          const metered = meter.call(step.id, provider.model);
          // Viewers get the answer so far and its spend as it streams (lib/debate/live-step.ts).
          const live = liveStep({ publish: call.publish, runId, stepId: step.id, kind: step.output, spent: () => meter.stepSpend(step.id), sources });
          let result;
          try {
            result = await provider.generate({
              ...base,
              ...(call.part ? { part: { ...call.part, ...(call.written ? { written: call.written } : {}) } } : {}),
              prompt: call.prompt,
              schema: call.schema,
              jsonSchema: call.jsonSchema,
              // A call of a sectioned step that writes no citation could not use a web result.
              tools: call.part && !JSON.stringify(call.jsonSchema).includes('"citations"') ? {} : tools,
              repair,
              maxTokens,
              signal: call.signal,
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
          callModelMs += result.modelMs;
          toolCalls.push(...result.toolCalls);
          record.toolCalls.push(...result.toolCalls);
          record.usage = addTokens(record.usage, result.usage);
          usage = addTokens(usage, result.usage);
          if (result.finishReason === 'length') {
            // Cut off at the token limit: never taken in as it is. Asked again once, with more room
            // when there is more, else for a shorter answer.
            const cut = result.usage.completionTokens;
            if (cutRetriesLeft-- <= 0) throw new StepFailure(stopPhrase(askedShorter ? 'cutOffShorter' : 'cutOff', { tokens: cut }));
            const room = meter.moreRoom(provider.model, cut, result.usage.promptTokens);
            if (room) {
              maxTokens = room;
              note({ kind: 'truncated-retry', attempt: n, detail: `cut off at the token limit after ${cut.toLocaleString('en-US')} tokens; asked again with room for ${room.toLocaleString('en-US')}` });
            } else {
              repair = { previous: result.raw, problems: [`the answer was cut off at the token limit (${cut.toLocaleString('en-US')} tokens) and there is no more room: give the whole answer again, shorter`] };
              askedShorter = true;
              note({ kind: 'repair-request', attempt: n, detail: `cut off at the token limit after ${cut.toLocaleString('en-US')} tokens, with no more room to give; asked for a shorter answer` });
            }
            continue;
          }
          // Tolerant intake, strict meaning (lib/debate/intake.ts). An empty answer or a refusal is
          // asked again once, plainly (serving stacks drop answers now and then, and a refusal of a
          // credit memo is rarely the model's settled view); a second one fails the step with its
          // reason. An answer that is not valid gets the repair attempt.
          const taken = takeIn(step.output, { raw: result.raw, refusal: result.refusal }, { attempt: n, fields: call.part?.fields ?? askedFields(step) });
          if (!taken.ok && taken.failure !== 'invalid') {
            if (emptyRetriesLeft-- <= 0) throw new StepFailure(taken.phrase ?? stopPhrase('stepError', { reason: taken.reason }));
            note({ kind: 'repair-request', attempt: n, detail: `${taken.failure === 'refusal' ? 'the model declined' : 'the answer was empty'}; asked again once` });
            continue;
          }
          let problems: string[];
          if (taken.ok) {
            // A part the step was not asked for is stored empty (lib/domain/step-output.ts).
            const verdict = call.check(toStoredShape(step, taken.output), n, repairsLeft <= 0);
            if (verdict.problems.length === 0) {
              for (const r of [...taken.repairs, ...verdict.repairs]) note(r);
              return { ...verdict, modelMs: callModelMs, record };
            }
            problems = verdict.problems;
          } else problems = taken.problems;
          if (repairsLeft-- <= 0) {
            throw new StepFailure(stopPhrase(repair ? 'rulesAfterRepair' : 'rules', { problems: problems.slice(0, 5).join(' ') }));
          }
          repair = { previous: result.raw, problems };
          note({ kind: 'repair-request', attempt: n, detail: `sent back once: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? '; …' : ''}` });
        }
      };

      const startAttempt = () => recorder.stepStarted(step.id);

      // A sectioned step (docs/protocols.md, "Sections"): one attempt of the step, its sections
      // asked at the same time (one after another in sequential mode), then the overview with
      // what they wrote. Viewers get the sections in their order whichever finishes first. The
      // first call that fails stops the others and fails the step with its reason. Each call is
      // kept as it finishes (run_steps.sections), so a run that stops before the step is saved
      // asks only the calls still missing when it resumes: a call kept by an execution before
      // this one, for the same prompt and model, is taken as it was, with what it spent.
      const writeSections = async (sections: StepSections): Promise<Verdict> => {
        const attempt = await startAttempt();
        const calls = sectionCalls(sections);
        const parts = calls.filter((c) => !c.overview);
        const overview = calls.find((c) => c.overview)!;
        const stop = new AbortController();
        const callSignal = AbortSignal.any([signal, stop.signal]);
        const events = liveSections({ kind: step.output, calls, runId, stepId: step.id, publish: recorder.publish });
        const keptBefore = new Map((keptSections.get(step.id) ?? []).map((k) => [k.key, k]));
        // The factors of what the step was shown: its pool items, the run's red flags and what the
        // turns it receives argue (a passage carries no factor, so any passage is material for
        // every section). A section on factors none of it bears on has a known answer, the empty
        // list: it is not asked, rather than sent the whole prompt for it, and is recorded as not
        // asked (docs/protocols.md, "Sections"). With the web_search tool in the request the model
        // could find material: the section is asked.
        const shownFactors: (string | null)[] = [
          ...visible.map((e) => e.factor),
          ...[...redFlagIds].map((id) => evidence.find((e) => e.id === id)?.factor ?? null),
          ...context.flatMap((t) => factorsNamedIn(t.output)),
        ];
        const unasked = (call: SectionCall) => {
          if (!call.factors || call.overview || searchTool || passages.length) return undefined;
          if (shownFactors.some((f) => coversFactor(call.factors!, f))) return undefined;
          const empty = Object.fromEntries(call.fields.map((f) => [f, []]));
          return sectionSchema(step.output, call.fields).safeParse(empty).success ? empty : undefined;
        };
        const one = async (call: SectionCall, i: number, written?: SectionWritten[]) => {
          const known = unasked(call);
          if (known) {
            stepRepairs.push({ kind: 'section-not-asked', attempt, part: call.key, detail: `not asked: nothing the step was shown bears on ${call.factors!.join(', ')}; its ${call.fields.join(', ')} left empty` });
            events.done(i, known);
            partTimes.push({ key: call.key, modelMs: 0 });
            return known;
          }
          const callPrompt = sectionPrompt({ ...base, searchTool }, call, written);
          const fingerprint = sectionFingerprint(provider.model, callPrompt);
          const before = keptBefore.get(call.key);
          if (before?.fingerprint === fingerprint) {
            // Its spend is counted already (keptSpend); its answer, tool calls and repairs are the step's.
            toolCalls.push(...before.toolCalls);
            stepRepairs.push(...before.repairs);
            events.done(i, before.output);
            partTimes.push({ key: call.key, modelMs: 0 });
            return before.output;
          }
          let tries = 0;
          const verdict = await ask({
            part: call,
            written,
            prompt: callPrompt,
            schema: sectionSchema(step.output, call.fields),
            jsonSchema: sectionJsonSchema(step.output, call.fields),
            signal: callSignal,
            started: async () => ++tries,
            publish: (e) => events.publish(i, e),
            // Entries on another section's factors are that section's to write: kept, they would
            // stand twice in the report.
            check: (output, attempt) => {
              const kept = sectionOf(step.output, output, call) as StepOutput;
              const dropped = droppedEntries(output, kept);
              const detail = `dropped ${dropped} entr${dropped === 1 ? 'y' : 'ies'} on factors another section writes`;
              return { output: kept, problems: [], repairs: dropped ? [{ kind: 'field-dropped' as const, attempt, detail }] : [] };
            },
          });
          const output = verdict.output as Record<string, unknown>;
          await recorder.keepSection(step.id, { key: call.key, fingerprint, output, ...verdict.record });
          events.done(i, output);
          partTimes.push({ key: call.key, modelMs: verdict.modelMs });
          return output;
        };
        let first: { err: unknown } | undefined;
        const settle = (call: SectionCall, i: number) =>
          one(call, i).catch((err) => {
            first ??= { err };
            stop.abort(err);
            throw err;
          });
        const outputs: Record<string, unknown>[] = [];
        if (run.mode === 'sequential') for (const [i, call] of parts.entries()) outputs.push(await one(call, i));
        else {
          const settled = await Promise.allSettled(parts.map(settle));
          if (first) throw first.err;
          for (const s of settled) if (s.status === 'fulfilled') outputs.push(s.value);
        }
        const written = parts.map((call, i) => ({ key: call.key, output: outputs[i] }));
        const summary = await one(overview, parts.length, written);
        const whole = joinSections(step.output, [...parts.map((call, i) => ({ fields: call.fields, output: outputs[i] })), { fields: overview.fields, output: summary }]);
        // The whole answer is checked as a one-call answer is; no one call wrote it, so a problem
        // fails the step rather than going back for repair (sectioned steps declare no rules).
        const shaped = OUTPUT_SCHEMAS[step.output].safeParse(whole);
        const verdict = shaped.success ? checkWhole(whole as StepOutput, attempt) : undefined;
        const problems = verdict ? verdict.problems : shaped.error!.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
        if (!verdict || problems.length) throw new StepFailure(stopPhrase('rules', { problems: problems.slice(0, 5).join(' ') }));
        stepRepairs.push(...verdict.repairs);
        return verdict;
      };

      const answer =
        step.sections && !wholeCalls
          ? await writeSections(step.sections)
          : await ask({
              prompt,
              schema: stepOutputSchema(step),
              jsonSchema: jsonSchemaOf(stepOutputSchema(step)),
              signal,
              started: startAttempt,
              publish: recorder.publish,
              check: checkWhole,
            });
      const output = answer.output;
      const text = proseOf(step.output, output);
      const cost = costOf(provider.model, usage);
      // A finished answer is kept even when it took the run past its budget: its tokens are spent.
      await recorder.stepDone({ stepId: step.id, text, output, toolCalls, usage: { ...usage, costUsd: cost }, repairs: stepRepairs }, () => {
        stopIfOverBudget();
        done.set(step.id, { text, output });
        modelMs += stepModelMs;
        timings.push({ stepId: step.id, startedAt: stepStart - started, finishedAt: performance.now() - started, modelMs: stepModelMs, ...(partTimes.length ? { parts: partTimes } : {}) });
      });
    };

    // Budgets (lib/debate/limits.ts), checked before the first step and after each finished one,
    // besides the meter inside the steps: past the budget, or at it with work left, the run stops
    // like a cancellation and keeps what is done.
    const stopIfOverBudget = () => meter.stopIfOver(scheduler.workLeft());
    stopIfOverBudget();
    await scheduler.run(signal, (step) =>
      runStep(step).catch(async (err) => {
        // Another worker holds the run now: stop here and leave every step to it.
        if (handsOver(err)) controller.abort(RELEASED);
        if (signal.aborted) return;
        const phrase = err instanceof StepFailure ? err.phrase : stopPhrase('stepError', { reason: reasonOf(err) });
        const message = reasonText(phrase);
        failed.add(step.id);
        // Every attempt of the step, failed and repair attempts included, is saved on it.
        const usage = meter.stepUsage(step.id, (providerFor?.(step) ?? runProvider).model);
        // And what was asked of the model on the way (repair requests, retries): a reviewer sees why it failed.
        const repairs = attemptRepairs.get(step.id) ?? [];
        await recorder.stepFailed({ stepId: step.id, error: message, errorPhrase: phrase, usage, repairs }, () => signal.aborted);
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
      const errorPhrase = failed.size ? stopPhrase(failed.size > 1 ? 'stepsFailed' : 'oneStepFailed', { steps: [...failed].join(', '), n: pending.length }) : stopPhrase('notStarted');
      const error = reasonText(errorPhrase);
      if (!(await recorder.finishRun({ status: 'failed', error, errorPhrase }))) return releasedResult();
      return { status: 'failed', error, wallMs, modelMs, timings };
    }

    const ordered = protocol.steps.map((s) => ({ stepId: s.id, ...done.get(s.id)! }));
    const checks = finalChecks({ steps: ordered, known, language: params.language, redFlags, reportStep: protocol.reportStep });
    await recorder.report(done.get(protocol.reportStep)!.output, checks);
    if (!(await recorder.finishRun({ status: 'succeeded' }))) return releasedResult();
    return { status: 'succeeded', wallMs: performance.now() - started, modelMs, timings };
  } catch (err) {
    if (released() || handsOver(err)) return releasedResult();
    await recorder.saveUnsavedSpend().catch(() => {});
    const errorPhrase = stopPhrase('unexpected', { reason: reasonOf(err) });
    const error = reasonText(errorPhrase);
    await recorder.finishRun({ status: 'failed', error, errorPhrase }, 'last-resort');
    return { status: 'failed', error, wallMs: performance.now() - started, modelMs, timings };
  } finally {
    forgetRun(runId);
  }
}

class StepFailure extends ReasonError {}

/** A judge's temperature when the run sets none (`judgeTemperature` in RunParams). */
export const DEFAULT_JUDGE_TEMPERATURE = 0.2;
