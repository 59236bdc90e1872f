// A sectioned step (docs/protocols.md, "Sections"): one attempt of the step, its sections asked
// at the same time (one after another in sequential mode), then the overview with what they
// wrote. Viewers get the sections in their order whichever finishes first. The first call that
// fails stops the others and fails the step with its reason. Each call is kept as it finishes
// (run_steps.sections), so a run that stops before the step is saved asks only the calls still
// missing when it resumes: a call kept by an execution before this one, for the same prompt and
// model, is taken as it was, with what it spent.
import { sectionFingerprint, sectionJsonSchema, sectionPrompt } from '@/lib/debate/section-prompts';
import { liveSections } from '@/lib/debate/sections';
import { OUTPUT_SCHEMAS, type StepOutput } from '@/lib/domain/outputs';
import type { RunMode, StepSections } from '@/lib/domain/protocol';
import { coversFactor, droppedEntries, joinSections, sectionCalls, sectionOf, sectionSchema, type SectionCall } from '@/lib/domain/sections';
import type { KeptSection } from '@/lib/domain/stored';
import { stopPhrase } from '@/lib/i18n/failures';
import type { EvidenceAsOf } from '@/lib/pool/as-of';
import { ask, StepFailure, type Asker, type SectionWritten, type Verdict } from '@/lib/debate/run/ask';
import type { RunRecorder } from '@/lib/debate/run/recorder';
import type { StepMaterial } from '@/lib/debate/run/step-input';

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

export async function writeSections({
  asker,
  sections,
  input,
  mode,
  signal,
  evidence,
  redFlagIds,
  kept,
  recorder,
  startAttempt,
  checkWhole,
  partTimes,
}: {
  asker: Asker;
  sections: StepSections;
  input: StepMaterial;
  mode: RunMode;
  signal: AbortSignal;
  /** The run's pool as of its date, for the red flags' factors. */
  evidence: EvidenceAsOf[];
  redFlagIds: Set<string>;
  /** This step's calls kept by an execution before this one. */
  kept: readonly KeptSection[];
  recorder: RunRecorder;
  startAttempt: () => Promise<number>;
  checkWhole: (output: StepOutput, attempt: number) => Verdict;
  /** Each call's time on the model, as it finishes. */
  partTimes: { key: string; modelMs: number }[];
}): Promise<Verdict> {
  const { step, provider, tally } = asker;
  const { visible, context, passages, searchTool, base } = input;
  const attempt = await startAttempt();
  const calls = sectionCalls(sections);
  const parts = calls.filter((c) => !c.overview);
  const overview = calls.find((c) => c.overview)!;
  const stop = new AbortController();
  const callSignal = AbortSignal.any([signal, stop.signal]);
  const events = liveSections({ kind: step.output, calls, runId: asker.runId, stepId: step.id, publish: recorder.publish });
  const keptBefore = new Map(kept.map((k) => [k.key, k]));
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
      tally.repairs.push({
        kind: 'section-not-asked',
        attempt,
        part: call.key,
        detail: `not asked: nothing the step was shown bears on ${call.factors!.join(', ')}; its ${call.fields.join(', ')} left empty`,
      });
      events.done(i, known);
      partTimes.push({ key: call.key, modelMs: 0 });
      return known;
    }
    const callPrompt = sectionPrompt({ ...base, searchTool }, call, written);
    const fingerprint = sectionFingerprint(provider.model, callPrompt);
    const before = keptBefore.get(call.key);
    if (before?.fingerprint === fingerprint) {
      // Its spend is counted already (keptSpend); its answer, tool calls and repairs are the step's.
      tally.toolCalls.push(...before.toolCalls);
      tally.repairs.push(...before.repairs);
      events.done(i, before.output);
      partTimes.push({ key: call.key, modelMs: 0 });
      return before.output;
    }
    let tries = 0;
    const verdict = await ask(asker, {
      part: call,
      written,
      prompt: callPrompt,
      schema: sectionSchema(step.output, call.fields),
      jsonSchema: sectionJsonSchema(step.output, call.fields, call.factors),
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
  if (mode === 'sequential') for (const [i, call] of parts.entries()) outputs.push(await one(call, i));
  else {
    const settled = await Promise.allSettled(parts.map(settle));
    if (first) throw first.err;
    for (const s of settled) if (s.status === 'fulfilled') outputs.push(s.value);
  }
  const written = parts.map((call, i) => ({ key: call.key, output: outputs[i] }));
  const summary = await one(overview, parts.length, written);
  const whole = joinSections(step.output, [
    ...parts.map((call, i) => ({ fields: call.fields, output: outputs[i] })),
    { fields: overview.fields, output: summary },
  ]);
  // The whole answer is checked as a one-call answer is; no one call wrote it, so a problem
  // fails the step rather than going back for repair (sectioned steps declare no rules).
  const shaped = OUTPUT_SCHEMAS[step.output].safeParse(whole);
  const verdict = shaped.success ? checkWhole(whole as StepOutput, attempt) : undefined;
  const problems = verdict ? verdict.problems : shaped.error!.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  if (!verdict || problems.length) throw new StepFailure(stopPhrase('rules', { problems: problems.slice(0, 5).join(' ') }));
  tally.repairs.push(...verdict.repairs);
  return verdict;
}
