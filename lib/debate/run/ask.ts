// One model call of a step, asked until its answer is taken in: a whole step's call or one
// section's, alike. What is asked again, and how often, is one policy (`RETRIES`), read by a single
// loop: an answer that fails its schema or its checks goes back once for repair with the problems
// listed, an answer cut off at its token limit is asked again once with more room (or for a
// shorter answer when the budget gives none), and an empty answer or a refusal is asked again
// once, plainly (docs/protocols.md, "Taking answers in"). Whatever else goes wrong fails the step.
import type { ZodType } from 'zod';
import { addTokens, NO_TOKENS, type RunBudgetMeter, type Tokens } from '@/lib/debate/budget';
import { takeIn } from '@/lib/debate/intake';
import { liveStep } from '@/lib/debate/live-step';
import type { Prompt } from '@/lib/debate/prompts';
import type { StepOutput } from '@/lib/domain/outputs';
import type { RunEvent, StepDef } from '@/lib/domain/protocol';
import type { SectionCall } from '@/lib/domain/sections';
import { askedFields, toStoredShape } from '@/lib/domain/step-output';
import type { StepRepair, ToolCallRecord } from '@/lib/domain/stored';
import { ReasonError, stopPhrase } from '@/lib/i18n/failures';
import { spentBy, type GenerateRequest, type ModelProvider, type StepInput } from '@/lib/llm/types';
import type { Semaphore } from '@/lib/util/semaphore';
import type { RunRecorder } from '@/lib/debate/run/recorder';

/** A step that cannot be answered, with its reason as a phrase. */
export class StepFailure extends ReasonError {}

/**
 * How many times a call is asked again, by what went wrong. A deterministic provider would only
 * repeat itself: asking again is for models.
 */
export type RetryPolicy = { repair: number; cutOff: number; empty: number };
const RETRIES: RetryPolicy = { repair: 1, cutOff: 1, empty: 1 };
const NO_RETRIES: RetryPolicy = { repair: 0, cutOff: 0, empty: 0 };

/** An answer taken in and checked: the output as kept, what its checks found, and the repairs they made. */
export type Verdict = { output: StepOutput; problems: string[]; repairs: StepRepair[] };

/** What one call spent and did on its way to its answer, every try of it: a section kept as it finishes keeps these. */
export type CallRecord = { usage: Tokens; toolCalls: ToolCallRecord[]; repairs: StepRepair[] };

/**
 * What all of a step's calls spent and did, saved on the step. `usage.cachedTokens`: what the
 * provider's prompt cache served, billed at the cached-input price.
 */
export type StepTally = { usage: Tokens; toolCalls: ToolCallRecord[]; repairs: StepRepair[]; modelMs: number };

/** What one section wrote, as the overview call reads it. */
export type SectionWritten = { key: string; output: Record<string, unknown> };

/** One model call of a step: the whole answer, or one section of it (with what the sections wrote, for the overview). */
export type AskCall = {
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

/** The step every call of it belongs to, and where its calls are counted. */
export type Asker = {
  runId: string;
  step: StepDef;
  provider: ModelProvider;
  /** The provider's concurrency across all runs of this process. */
  limit: Semaphore;
  meter: RunBudgetMeter;
  base: Omit<StepInput, 'prompt'>;
  tools: GenerateRequest['tools'];
  tally: StepTally;
  /** Keeps each call as sent and answered (the run's recorder: docs/case-file.md); absent, nothing is kept. */
  recordCall?: RunRecorder['recordCall'];
};

export async function ask(asker: Asker, call: AskCall): Promise<Verdict & { modelMs: number; record: CallRecord }> {
  const { runId, step, provider, limit, meter, base, tools, tally } = asker;
  const record: CallRecord = { usage: NO_TOKENS, toolCalls: [], repairs: [] };
  const note = (r: StepRepair) => {
    const noted = call.part ? { ...r, part: call.part.key } : r;
    tally.repairs.push(noted);
    record.repairs.push(noted);
  };
  const left = { ...(provider.isLLM ? RETRIES : NO_RETRIES) };
  let repair: { previous: string; problems: string[] } | undefined;
  let maxTokens: number | undefined;
  let askedShorter = false;
  let callModelMs = 0;
  for (;;) {
    const n = await call.started();
    const release = await limit.acquire(call.signal);
    const metered = meter.call(step.id, provider.model);
    // Viewers get the answer so far and its spend as it streams (lib/debate/live-step.ts).
    const live = liveStep({ publish: call.publish, runId, stepId: step.id, kind: step.output, spent: () => meter.stepSpend(step.id), sources: base.sources });
    let result;
    // What went to the endpoint, request by request (a model's); the offline analyst sends none.
    const requests: unknown[] = [];
    const startedAt = new Date();
    const kept = (
      answer: string,
      more: { finishReason?: string; error?: string; usage?: { promptTokens: number; completionTokens: number; cachedTokens?: number } },
    ) =>
      asker.recordCall?.({
        stepId: step.id,
        partKey: call.part?.key ?? null,
        attempt: n,
        provider: provider.name,
        model: provider.model,
        isLlm: provider.isLLM,
        request: requests.length ? { requests } : offlineRequest(call, maxTokens, repair),
        answer,
        finishReason: more.finishReason ?? null,
        error: more.error ?? null,
        usage: more.usage ?? null,
        startedAt,
        finishedAt: new Date(),
      });
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
        onRequest: (body) => requests.push(JSON.parse(JSON.stringify(body))),
      });
    } catch (err) {
      // A call that failed or was cut off counts what it spent, as far as the provider can
      // tell (its prompts, what streamed, attempts it retried), instead of the estimates.
      const spent = spentBy(err);
      if (spent) metered.settle(spent);
      // Kept too, with its error; a failure to keep it must not hide the call's own.
      await kept('', { error: err instanceof Error ? err.message : String(err), ...(spent ? { usage: spent } : {}) })?.catch(() => undefined);
      throw err;
    } finally {
      release();
    }
    // The usage the provider reports replaces what was estimated while it streamed.
    metered.settle(result.usage);
    await kept(result.raw, { finishReason: result.finishReason, usage: result.usage, ...(result.refusal ? { error: `refusal: ${result.refusal}` } : {}) });
    live.end();
    tally.modelMs += result.modelMs;
    callModelMs += result.modelMs;
    tally.toolCalls.push(...result.toolCalls);
    record.toolCalls.push(...result.toolCalls);
    record.usage = addTokens(record.usage, result.usage);
    tally.usage = addTokens(tally.usage, result.usage);
    if (result.finishReason === 'length') {
      // Cut off at the token limit: never taken in as it is. Asked again, with more room when
      // there is more, else for a shorter answer.
      const cut = result.usage.completionTokens;
      if (left.cutOff-- <= 0) throw new StepFailure(stopPhrase(askedShorter ? 'cutOffShorter' : 'cutOff', { tokens: cut }));
      const room = meter.moreRoom(provider.model, cut, result.usage.promptTokens);
      if (room) {
        maxTokens = room;
        note({
          kind: 'truncated-retry',
          attempt: n,
          detail: `cut off at the token limit after ${cut.toLocaleString('en-US')} tokens; asked again with room for ${room.toLocaleString('en-US')}`,
        });
      } else {
        repair = {
          previous: result.raw,
          problems: [
            `the answer was cut off at the token limit (${cut.toLocaleString('en-US')} tokens) and there is no more room: give the whole answer again, shorter`,
          ],
        };
        askedShorter = true;
        note({
          kind: 'repair-request',
          attempt: n,
          detail: `cut off at the token limit after ${cut.toLocaleString('en-US')} tokens, with no more room to give; asked for a shorter answer`,
        });
      }
      continue;
    }
    // Tolerant intake, strict meaning (lib/debate/intake.ts). An empty answer or a refusal is
    // asked again, plainly (serving stacks drop answers now and then, and a refusal of a credit
    // memo is rarely the model's settled view); one more fails the step with its reason. An
    // answer that is not valid gets the repair attempt.
    const taken = takeIn(step.output, { raw: result.raw, refusal: result.refusal }, { attempt: n, fields: call.part?.fields ?? askedFields(step) });
    if (!taken.ok && taken.failure !== 'invalid') {
      if (left.empty-- <= 0) throw new StepFailure(taken.phrase ?? stopPhrase('stepError', { reason: taken.reason }));
      note({ kind: 'repair-request', attempt: n, detail: `${taken.failure === 'refusal' ? 'the model declined' : 'the answer was empty'}; asked again once` });
      continue;
    }
    let problems: string[];
    if (taken.ok) {
      // A part the step was not asked for is stored empty (lib/domain/step-output.ts).
      const verdict = call.check(toStoredShape(step, taken.output), n, left.repair <= 0);
      if (verdict.problems.length === 0) {
        for (const r of [...taken.repairs, ...verdict.repairs]) note(r);
        return { ...verdict, modelMs: callModelMs, record };
      }
      problems = verdict.problems;
    } else problems = taken.problems;
    if (left.repair-- <= 0) {
      throw new StepFailure(stopPhrase(repair ? 'rulesAfterRepair' : 'rules', { problems: problems.slice(0, 5).join(' ') }));
    }
    repair = { previous: result.raw, problems };
    note({ kind: 'repair-request', attempt: n, detail: `sent back once: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? '; …' : ''}` });
  }
}

/**
 * What the offline analyst was given, for the record: it is not a language model and sends no
 * request; it builds the answer by rules from the step's evidence. The prompt is the one the
 * engine built for the step, as a model would have received it.
 */
function offlineRequest(call: AskCall, maxTokens: number | undefined, repair: { previous: string; problems: string[] } | undefined) {
  return {
    offline: 'The built-in offline analyst is not a language model: it writes the answer by fixed rules from the evidence the step was shown.',
    system: call.prompt.system,
    user: call.prompt.user,
    ...(call.part ? { part: call.part.key } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(repair ? { repair } : {}),
  };
}
