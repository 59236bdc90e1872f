// The answer one step gives: its output kind, narrowed to the parts the step fills. A turn holds
// claims, questions and a falsifiability line, but no step fills all three: a cross-examination
// asks and does not claim, a rebuttal claims and does not ask. Asking a literal model for a field
// its task forbids invites it to invent one (docs/protocols.md, "What a prompt may say"), so the
// shape in the prompt and the JSON Schema sent to the model carry only the step's parts; the
// parts it does not fill are stored as empty, the same stored shape for every turn.
import { z } from 'zod';
import type { Act, StepDef } from '@/lib/domain/protocol';
import { OUTPUT_SCHEMAS, type OutputKind } from '@/lib/domain/outputs';

/** The optional parts of a turn; `text` is always asked. */
export const TURN_PARTS = ['claims', 'questions', 'falsifiability'] as const;
export type TurnPart = (typeof TURN_PARTS)[number];

/**
 * What each act of a turn fills. Asking acts (a cross-examination, the devil's advocate's
 * challenges and its judgment of the rebuttals, which presses with follow-up questions) fill
 * questions; arguing acts fill claims; a constructive also names what would refute it.
 */
const TURN_PARTS_BY_ACT: Partial<Record<Act, readonly TurnPart[]>> = {
  'cross-examination': ['questions'],
  challenge: ['questions'],
  judgment: ['questions'],
  constructive: ['claims', 'falsifiability'],
};
const ARGUING: readonly TurnPart[] = ['claims'];

/** The parts of a turn this step fills (every part for an output that is not a turn). */
export function turnPartsOf(step: Pick<StepDef, 'act' | 'output'>): readonly TurnPart[] {
  if (step.output !== 'turn') return TURN_PARTS;
  return TURN_PARTS_BY_ACT[step.act] ?? ARGUING;
}

/** The parts of a turn this step leaves out of its answer. */
export function partsNotAsked(step: Pick<StepDef, 'act' | 'output'>): TurnPart[] {
  const asked = turnPartsOf(step);
  return TURN_PARTS.filter((p) => !asked.includes(p));
}

const cache = new Map<string, z.ZodObject<z.ZodRawShape>>();

/** The schema of this step's answer: its output kind without the parts it does not fill. */
export function stepOutputSchema(step: Pick<StepDef, 'act' | 'output'>): z.ZodObject<z.ZodRawShape> {
  const whole = OUTPUT_SCHEMAS[step.output as OutputKind] as unknown as z.ZodObject<z.ZodRawShape>;
  const omitted = partsNotAsked(step);
  if (!omitted.length) return whole;
  const key = `${step.output}:${omitted.join(',')}`;
  let schema = cache.get(key);
  if (!schema) cache.set(key, (schema = whole.omit(Object.fromEntries(omitted.map((p) => [p, true])) as never)));
  return schema;
}

/**
 * The answer in the stored shape of its kind: the lists the step was not asked for are empty
 * (whatever the answer held there: a claim a cross-examination was not asked for is not kept),
 * and a field it was not asked for is absent.
 */
export function toStoredShape<T>(step: Pick<StepDef, 'act' | 'output'>, output: T): T {
  const omitted = partsNotAsked(step);
  if (!omitted.length || !output || typeof output !== 'object') return output;
  const stored = { ...(output as Record<string, unknown>) };
  for (const part of omitted) {
    if (part === 'falsifiability') delete stored[part];
    else stored[part] = [];
  }
  return stored as T;
}

/** The top-level fields this step's answer is asked for, when narrower than its kind's; undefined otherwise. */
export function askedFields(step: Pick<StepDef, 'act' | 'output'>): string[] | undefined {
  return partsNotAsked(step).length ? Object.keys(stepOutputSchema(step).shape) : undefined;
}

/**
 * An answer as JSON in the step's shape, keys in the schema's order (the prose first): what the
 * offline analyst streams and the fake model replays. A part the step is not asked for is left
 * out, as a model following the prompt leaves it out; an answer that does not fit is written as
 * it is, for the engine to reject.
 */
export function answerJson(step: Pick<StepDef, 'act' | 'output'>, output: unknown): string {
  const parsed = stepOutputSchema(step).safeParse(output);
  return JSON.stringify(parsed.success ? parsed.data : output);
}
