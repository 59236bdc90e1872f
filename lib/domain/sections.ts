// A sectioned step's answer (StepDef.sections, docs/protocols.md "Sections"): each section call
// writes some fields of the output, the overview call the rest, and the engine puts the parts
// together in the declared order. Pure, so the engine, the offline analyst and the tests cut and
// join answers the same way.
import { z } from 'zod';
import { FACTORS } from '@/lib/domain/factors';
import { OUTPUT_SCHEMAS, PROSE, type OutputKind } from '@/lib/domain/outputs';
import type { StepSection, StepSections } from '@/lib/domain/protocol';

/** The key of the overview call, beside the sections' own keys (which may not use it). */
export const OVERVIEW_PART = 'overview';

/** One call of a sectioned step: a section, or the overview (which reads what the sections wrote). */
export type SectionCall = { key: string; fields: string[]; factors?: string[]; task: string; overview: boolean };

/** The calls of a sectioned step in the order their answers are put together: the sections, then the overview. */
export function sectionCalls(sections: StepSections): SectionCall[] {
  return [...sections.parts.map((p) => ({ ...p, overview: false })), { key: OVERVIEW_PART, ...sections.overview, overview: true }];
}

/**
 * The schema of the answer a call writes: the output's, narrowed to the call's fields, in the
 * call's order (the order a model writes them in: the report's objective before its overview).
 * With `factors`, an entry's factor is one of them: the schema sent to the model, so a section
 * writes only entries it keeps (a model held to the schema cannot write another section's, and a
 * viewer sees every entry it writes). The answer is checked against the schema without them and
 * the entries outside its factors dropped, so a model that strays loses those entries, not the call.
 */
export function sectionSchema(kind: OutputKind, fields: readonly string[], factors?: readonly string[]): z.ZodObject<z.ZodRawShape> {
  const whole = OUTPUT_SCHEMAS[kind] as unknown as z.ZodObject<z.ZodRawShape>;
  const picked = whole.pick(Object.fromEntries(fields.map((f) => [f, true])) as Record<string, true>);
  const field = (f: string) => {
    const value = picked.shape[f];
    if (!factors?.length || !entriesNameFactor(kind, f)) return value;
    const element = (value as z.ZodArray<z.ZodObject<z.ZodRawShape>>).element;
    return z.array(element.extend({ factor: z.enum(factors as [string, ...string[]]) }));
  };
  return z.object(Object.fromEntries(fields.filter((f) => f in picked.shape).map((f) => [f, field(f)])));
}

const KNOWN_FACTORS = new Set<string>(FACTORS.map((f) => f.id));

/** Whether an entry on `factor` belongs to a section of these factors (`other` takes every factor outside the ten). */
export function coversFactor(factors: readonly string[], factor: unknown): boolean {
  if (typeof factor !== 'string') return factors.includes('other');
  return factors.includes(factor) || (!KNOWN_FACTORS.has(factor) && factors.includes('other'));
}

const hasFactor = (entry: unknown) => Boolean(entry) && typeof entry === 'object' && 'factor' in (entry as object);

/**
 * The share of a whole answer that one call writes: its fields, in the output's key order, and in
 * a list of entries that name a factor only the entries on its factors. What the offline analyst
 * answers to a section call, and how a test cuts a one-call answer.
 */
export function sectionOf(kind: OutputKind, output: unknown, call: Pick<SectionCall, 'fields' | 'factors'>): Record<string, unknown> {
  const whole = (output ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(OUTPUT_SCHEMAS[kind].shape)) {
    if (!call.fields.includes(key) || !(key in whole)) continue;
    const value = whole[key];
    out[key] =
      call.factors && Array.isArray(value) ? value.filter((e) => !hasFactor(e) || coversFactor(call.factors!, (e as { factor?: unknown }).factor)) : value;
  }
  return out;
}

/** Whether the entries of the output's list `key` name a factor (a claim, a topic, an argument). */
function entriesNameFactor(kind: OutputKind, key: string): boolean {
  const field = (OUTPUT_SCHEMAS[kind] as unknown as z.ZodObject<z.ZodRawShape>).shape[key];
  const element = field instanceof z.ZodArray ? field.element : undefined;
  return element instanceof z.ZodObject && 'factor' in element.shape;
}

/**
 * What a viewer may see of a call's answer so far: `sectionOf`, except that in a list split by
 * factor an entry shows only once its factor is settled and the call's. Settled: the model has
 * written a key after it, or a next entry; until then the factor may be half written ("indus"
 * reads as an unknown factor, which the `other` section takes). So no entry shows while a call
 * streams that the call's finished answer then drops (`check` in lib/debate/run/write-sections.ts).
 */
export function liveSectionOf(kind: OutputKind, partial: unknown, call: Pick<SectionCall, 'fields' | 'factors'>): Record<string, unknown> {
  const share = sectionOf(kind, partial, { fields: call.fields });
  if (!call.factors) return share;
  const settled = (entry: Record<string, unknown>, last: boolean) => {
    const keys = Object.keys(entry);
    const at = keys.indexOf('factor');
    return at >= 0 && (!last || at < keys.length - 1);
  };
  for (const [key, value] of Object.entries(share)) {
    if (!Array.isArray(value) || !entriesNameFactor(kind, key)) continue;
    share[key] = value.filter((e, i) => {
      if (!e || typeof e !== 'object') return true;
      const entry = e as Record<string, unknown>;
      return settled(entry, i === value.length - 1) && coversFactor(call.factors!, entry.factor);
    });
  }
  return share;
}

/** How many list entries `kept` has fewer than `output`: what a call wrote outside its factors. */
export function droppedEntries(output: unknown, kept: unknown): number {
  const lists = (o: unknown) => Object.values((o ?? {}) as Record<string, unknown>).filter(Array.isArray) as unknown[][];
  const count = (o: unknown) => lists(o).reduce((n, l) => n + l.length, 0);
  return count(output) - count(kept);
}

/**
 * The whole answer from its parts, in the output's key order: a field written by one call is
 * taken as it is, a list written by several is joined in the calls' order (so the sections keep
 * their declared order whichever finished first).
 */
export function joinSections(kind: OutputKind, parts: readonly { fields: readonly string[]; output: Record<string, unknown> }[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(OUTPUT_SCHEMAS[kind].shape)) {
    for (const part of parts) {
      if (!part.fields.includes(key) || !(key in part.output)) continue;
      const value = part.output[key];
      out[key] = Array.isArray(out[key]) && Array.isArray(value) ? [...(out[key] as unknown[]), ...value] : value;
    }
  }
  return out;
}

/**
 * What is wrong with a step's sections, empty when sound: every field of the output written by
 * exactly one call, except a list split by factor among sections whose factors do not overlap;
 * the prose in the overview (it reads the sections, and a reader reads it first); unique keys;
 * and no rules (checked on the whole answer, which no one call wrote, so they could not be sent
 * back for repair).
 */
export function sectionProblems(kind: OutputKind, sections: StepSections, hasRules: boolean): string[] {
  const problems: string[] = [];
  const keys = Object.keys(OUTPUT_SCHEMAS[kind].shape);
  const calls = sectionCalls(sections);
  const seenKeys = new Set<string>();
  for (const c of calls) {
    if (seenKeys.has(c.key)) problems.push(`section key ${c.key} is used twice`);
    seenKeys.add(c.key);
    for (const f of c.fields) if (!keys.includes(f)) problems.push(`section ${c.key} writes ${f}, which ${kind} does not have`);
  }
  for (const key of keys) {
    const writers = calls.filter((c) => c.fields.includes(key));
    if (writers.length === 0) problems.push(`no section writes ${key}`);
    if (writers.length > 1) {
      const split = writers.every((w) => w.factors && !w.overview);
      const factors = writers.flatMap((w) => w.factors ?? []);
      if (!split) problems.push(`${key} is written by ${writers.map((w) => w.key).join(' and ')} without a split by factor`);
      else if (new Set(factors).size !== factors.length) problems.push(`${key}: sections ${writers.map((w) => w.key).join(', ')} share a factor`);
    }
  }
  const prose = (PROSE[kind].parts as readonly (readonly string[])[]).map((p) => p[0]);
  for (const p of prose) if (!sections.overview.fields.includes(p)) problems.push(`the overview does not write the prose field ${p}`);
  if (hasRules) problems.push('a sectioned step declares rules');
  return problems;
}

export type { StepSection, StepSections };
