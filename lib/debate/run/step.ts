// One step from its input to its saved answer: given what it may see (step-input.ts), asked in one
// call or by sections (ask.ts, write-sections.ts), checked as the engine checks every answer, and
// saved the moment it is done (recorder.ts). A step that throws is recorded as failed by the
// engine, with what its attempts spent (the budget meter) and asked (`attemptRepairs`).
import { z, type ZodType } from 'zod';
import { NO_TOKENS, type RunBudgetMeter, type Tokens } from '@/lib/debate/budget';
import { resolveCitations } from '@/lib/debate/checks';
import { enforce } from '@/lib/debate/enforce';
import { checkStepRules, dropNewEvidence } from '@/lib/debate/rules';
import { providerLimit } from '@/lib/debate/semaphore';
import { proseOf, type StepOutput } from '@/lib/domain/outputs';
import type { RunMode, StepDef } from '@/lib/domain/protocol';
import { stepOutputSchema } from '@/lib/domain/step-output';
import type { KeptSection, StepRepair } from '@/lib/domain/stored';
import { yieldToEventLoop } from '@/lib/event-loop';
import { costOf } from '@/lib/llm/prices';
import type { ModelProvider } from '@/lib/llm/types';
import { ask, type Asker, type StepTally, type Verdict } from '@/lib/debate/run/ask';
import type { RunRecorder } from '@/lib/debate/run/recorder';
import { stepMaterial, type Done, type RunMaterial } from '@/lib/debate/run/step-input';
import { writeSections } from '@/lib/debate/run/write-sections';

// The JSON Schema of each step's answer (its output kind, narrowed to the parts the step fills:
// lib/domain/step-output.ts), computed once per shape.
const jsonSchemas = new Map<ZodType, Record<string, unknown>>();
function jsonSchemaOf(schema: ZodType) {
  let json = jsonSchemas.get(schema);
  if (!json) jsonSchemas.set(schema, (json = z.toJSONSchema(schema) as Record<string, unknown>));
  return json;
}

/** A step's times: when it started (after its input was built), and its calls' time on the model. */
export type StepTimes = { startedAt: number; modelMs: number; parts: { key: string; modelMs: number }[] };

/** What every step of one execution shares. */
export type StepRunner = {
  material: RunMaterial;
  mode: RunMode;
  /** Every step in one call, its sections declared or not. */
  wholeCalls: boolean;
  signal: AbortSignal;
  meter: RunBudgetMeter;
  recorder: RunRecorder;
  providerOf: (step: StepDef) => ModelProvider;
  providerConcurrency: number;
  /** Sections of steps not saved that an execution before this one finished. */
  keptSections: Map<string, readonly KeptSection[]>;
  /** What those kept sections spent that no total counts yet, per step. */
  keptSpend: Map<string, Tokens>;
  /** Each step's repair record as it grows, so a step that fails keeps what was asked on the way. */
  attemptRepairs: Map<string, StepRepair[]>;
  /** The step is saved; called before viewers hear of it. */
  saved: (step: StepDef, done: Done, times: StepTimes) => void;
};

export async function runStep(r: StepRunner, step: StepDef): Promise<void> {
  const { material: m, meter, recorder } = r;
  // A turn of the event loop first: steps that become ready together would otherwise build
  // their prompts (long on a large pool) back to back in one slice of the server's time.
  await yieldToEventLoop();
  const provider = r.providerOf(step);
  const limit = providerLimit(`${provider.name}:${provider.model}`, r.providerConcurrency);
  const input = await stepMaterial(m, step, provider);
  const { contextOutputs, availableFactors, canSearch, searched } = input;
  const startedAt = performance.now();
  // What it took to take the answer in, kept on the step for reviewers.
  const tally: StepTally = { usage: r.keptSpend.get(step.id) ?? NO_TOKENS, toolCalls: [], repairs: [], modelMs: 0 };
  r.attemptRepairs.set(step.id, tally.repairs);
  const partTimes: { key: string; modelMs: number }[] = [];
  const asker: Asker = { runId: m.runId, step, provider, limit, meter, base: input.base, tools: input.tools, tally, recordCall: recorder.recordCall };

  // The whole answer checked as the engine checks every step: what it decides itself rather
  // than take the model's word (lib/debate/enforce.ts), before the citations are resolved (a
  // version it puts in is checked like the model's own), then the rules — after the
  // citations, because one dated after as-of supports no claim. An answer with no repair
  // left that still brings new evidence into a closing loses those citations instead of
  // failing the run (lib/debate/rules.ts, dropNewEvidence); each one dropped is recorded.
  const checkWhole = (output: StepOutput, attempt: number, last = false): Verdict => {
    const enforced = enforce(step, output, {
      context: step.context.map((id) => ({ step: m.byId.get(id)!, output: m.done.get(id)!.output })),
      language: m.params.language,
    });
    const resolved = resolveCitations(enforced.output, input.citationScope());
    const dropped = last ? dropNewEvidence(step, enforced.output, contextOutputs, m.redFlagIds) : [];
    const problems = checkStepRules(step, enforced.output, {
      context: contextOutputs,
      availableFactors,
      redFlagIds: m.redFlagIds,
      ...(canSearch ? { webSearch: { ...searched } } : {}),
    });
    return {
      output: enforced.output as StepOutput,
      problems,
      repairs: [
        ...resolved.repairs.map((r) => ({ ...r, attempt })),
        ...dropped.map((c) => ({
          kind: 'citation-dropped' as const,
          attempt,
          detail: `${c.evidenceId} (${c.source}, ${c.date}) taken out: the turns this step answers do not cite it, and it may bring no new evidence`,
        })),
        ...enforced.repairs.map((r) => ({ ...r, attempt })),
      ],
    };
  };
  const startAttempt = () => recorder.stepStarted(step.id);

  const answer =
    step.sections && !r.wholeCalls
      ? await writeSections({
          asker,
          sections: step.sections,
          input,
          mode: r.mode,
          signal: r.signal,
          evidence: m.evidence,
          redFlagIds: m.redFlagIds,
          kept: r.keptSections.get(step.id) ?? [],
          recorder,
          startAttempt,
          checkWhole,
          partTimes,
        })
      : await ask(asker, {
          prompt: input.prompt,
          schema: stepOutputSchema(step),
          jsonSchema: jsonSchemaOf(stepOutputSchema(step)),
          signal: r.signal,
          started: startAttempt,
          publish: recorder.publish,
          check: checkWhole,
        });
  const output = answer.output;
  const text = proseOf(step.output, output);
  const usage = { ...tally.usage, costUsd: costOf(provider.model, tally.usage) };
  // A finished answer is kept even when it took the run past its budget: its tokens are spent.
  await recorder.stepDone({ stepId: step.id, text, output, toolCalls: tally.toolCalls, usage, repairs: tally.repairs }, () =>
    r.saved(step, { text, output }, { startedAt, modelMs: tally.modelMs, parts: partTimes }),
  );
}
