// Part of the fake model server (a test and benchmark utility, never a product path): turns a
// JSON Schema — as `z.toJSONSchema` writes the step schemas — into a document that validates
// against it, with text that reads like a credit analyst's, so the engine, the UI and the
// benchmarks exercise real-looking turns without a model. Same schema + same seed → same JSON.

import { GUIDELINE_FACTORS } from '@/lib/domain/factors';
import { addDays } from '@/lib/util/dates';
import { seededRandom } from '@/lib/util/random';

export type JsonSchema = { [key: string]: unknown };

export type SchemaDataOptions = {
  seed: number;
  /** How many items an array gets, before the schema's minItems/maxItems. Default 1–3. */
  arrayItems?: { min: number; max: number };
  /** Rough length of long text fields (`text`, `reasoning`, …). Default 320 characters. */
  textChars?: number;
};

// The guideline's factor ids (lib/domain/factors.ts), so claims name factors the app knows; claims in one
// array get distinct ones, which is what the engine's `minFactors` rule looks for.
const FACTORS = GUIDELINE_FACTORS.map((f) => f.id);
const FACTOR_LABELS = GUIDELINE_FACTORS.map((f) => f.label);

const SENTENCES = [
  'Order intake rose for a third consecutive quarter, which supports near-term cash generation.',
  'The evidence is dated and sourced, and the most recent filing points the same way as the older ones.',
  'Management turnover has been low, so the current repayment plan is likely to be carried through.',
  'Competition from larger domestic peers narrows pricing power and could squeeze operating margins.',
  'Government export-support programmes lower the cost of working capital over the next two years.',
  'Headcount has been stable while revenue grew, suggesting productivity gains rather than cost cuts.',
  'A slowdown in the customer industry would hit volumes first, so the case depends on the cycle.',
  'The internal audit finding was remediated, but its recurrence would weaken confidence in reporting.',
  'Public interest in the company has increased, consistent with the new product line gaining traction.',
  'The claim would be refuted if the next quarterly filing showed a decline in contracted backlog.',
];

const SOURCES = ['DART quarterly report', 'Company IR release', 'Yonhap News', 'KED credit report', 'Ministry press release', 'Korea Herald'];

// Fields that hold a short label rather than prose.
const SHORT_FIELDS = new Set(['topic', 'horizon', 'assumption', 'kind', 'title', 'name', 'standing', 'stance', 'outlook']);

type Ctx = { rng: () => number; root: JsonSchema; options: Required<SchemaDataOptions>; depth: number; factorOffset: number };

export function jsonFromSchema(schema: JsonSchema, options: SchemaDataOptions): unknown {
  const ctx: Ctx = {
    rng: seededRandom(options.seed),
    root: schema,
    options: { seed: options.seed, arrayItems: options.arrayItems ?? { min: 1, max: 3 }, textChars: options.textChars ?? 320 },
    depth: 0,
    factorOffset: 0,
  };
  // A different starting factor per document, so two steps rarely argue from the same ones.
  ctx.factorOffset = Math.floor(ctx.rng() * FACTORS.length);
  return generate(schema, ctx, { key: '', index: 0, parentKey: '', item: false });
}

/** Where a value sits: its property name, its index in the nearest array, and the parent's name. */
type Where = { key: string; index: number; parentKey: string; item: boolean };

function resolveRef(ref: string, root: JsonSchema): JsonSchema {
  if (!ref.startsWith('#')) throw new Error(`Only local $ref is supported, got ${ref}`);
  let node: unknown = root;
  for (const part of ref.slice(1).split('/').filter(Boolean)) {
    node = (node as JsonSchema)?.[decodeURIComponent(part.replace(/~1/g, '/').replace(/~0/g, '~'))];
  }
  if (!node || typeof node !== 'object') throw new Error(`Unresolvable $ref ${ref}`);
  return node as JsonSchema;
}

function isNullSchema(s: unknown) {
  return typeof s === 'object' && s !== null && (s as JsonSchema).type === 'null';
}

function generate(input: JsonSchema, ctx: Ctx, where: Where): unknown {
  let schema = input;
  if (typeof schema.$ref === 'string') schema = { ...resolveRef(schema.$ref, ctx.root), ...omit(schema, '$ref') };
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length) {
      // The first non-null branch: `nullable` unions would otherwise produce nulls everywhere.
      const pick = (options.find((o) => !isNullSchema(o)) ?? options[0]) as JsonSchema;
      return generate({ ...omit(schema, key), ...pick }, ctx, where);
    }
  }
  if (Array.isArray(schema.allOf)) schema = mergeAll(schema);

  const type = pickType(schema);
  ctx.depth++;
  try {
    switch (type) {
      case 'object':
        return generateObject(schema, ctx, where);
      case 'array':
        return generateArray(schema, ctx, where);
      case 'number':
      case 'integer':
        return generateNumber(schema, type === 'integer', ctx, where);
      case 'boolean':
        return ctx.rng() < 0.5;
      case 'null':
        return null;
      default:
        return generateString(schema, ctx, where);
    }
  } finally {
    ctx.depth--;
  }
}

function omit(schema: JsonSchema, key: string): JsonSchema {
  const { [key]: _dropped, ...rest } = schema;
  return rest;
}

function mergeAll(schema: JsonSchema): JsonSchema {
  const parts = schema.allOf as JsonSchema[];
  const merged: JsonSchema = omit(schema, 'allOf');
  for (const part of parts) {
    for (const [k, v] of Object.entries(part)) {
      if (k === 'properties') merged.properties = { ...(merged.properties as object), ...(v as object) };
      else if (k === 'required') merged.required = [...((merged.required as string[]) ?? []), ...(v as string[])];
      else if (!(k in merged)) merged[k] = v;
    }
  }
  return merged;
}

function pickType(schema: JsonSchema): string {
  const t = schema.type;
  if (Array.isArray(t)) return (t.find((x) => x !== 'null') ?? t[0]) as string;
  if (typeof t === 'string') return t;
  if (schema.properties) return 'object';
  if (schema.items || schema.prefixItems) return 'array';
  return 'string';
}

function generateObject(schema: JsonSchema, ctx: Ctx, where: Where) {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[]) ?? []);
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(properties)) {
    // Optional fields appear about half the time, and never deep in a recursive schema.
    const include = required.has(key) || (ctx.depth < 6 && ctx.rng() < 0.5);
    if (include) out[key] = generate(sub, ctx, { key, index: where.index, parentKey: where.key, item: false });
  }
  return out;
}

function generateArray(schema: JsonSchema, ctx: Ctx, where: Where) {
  const { min, max } = ctx.options.arrayItems;
  const lo = Math.max(typeof schema.minItems === 'number' ? schema.minItems : 0, ctx.depth > 8 ? 0 : min);
  const hi = Math.max(lo, Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : Infinity, ctx.depth > 8 ? lo : max));
  const count = lo + Math.floor(ctx.rng() * (hi - lo + 1));
  const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as JsonSchema[]) : [];
  const items = (typeof schema.items === 'object' && schema.items ? schema.items : {}) as JsonSchema;
  return Array.from({ length: Math.max(count, prefix.length) }, (_, index) =>
    generate(prefix[index] ?? items, ctx, { key: singular(where.key), index, parentKey: where.key, item: true }),
  );
}

function singular(key: string) {
  return key.endsWith('s') ? key.slice(0, -1) : key;
}

function generateNumber(schema: JsonSchema, integer: boolean, ctx: Ctx, where: Where) {
  const exMin = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const exMax = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : undefined;
  let lo = typeof schema.minimum === 'number' ? schema.minimum : (exMin ?? undefined);
  let hi = typeof schema.maximum === 'number' ? schema.maximum : (exMax ?? undefined);
  // Scores and totals read better in a 1–10 range than as arbitrary floats.
  if (lo === undefined && hi === undefined) [lo, hi] = where.key.toLowerCase().includes('total') ? [10, 40] : [1, 10];
  if (lo === undefined) lo = hi! - 10;
  if (hi === undefined) hi = lo + 10;
  const span = hi - lo;
  // Stay off exclusive bounds by a margin; integers round inward.
  let value = lo + span * (0.1 + 0.8 * ctx.rng());
  if (integer) {
    value = Math.round(value);
    if (exMin !== undefined && value <= exMin) value = Math.floor(exMin) + 1;
    if (exMax !== undefined && value >= exMax) value = Math.ceil(exMax) - 1;
    return Math.min(Math.max(value, Math.ceil(lo)), Math.floor(hi));
  }
  return Math.round(value * 100) / 100;
}

function generateString(schema: JsonSchema, ctx: Ctx, where: Where): string {
  const text = stringFor(schema, ctx, where);
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  let out = text;
  while (out.length < minLength) out += ` ${SENTENCES[out.length % SENTENCES.length]}`;
  return [...out].slice(0, maxLength).join('');
}

/** A day in the 900 days from 2023-01-01. */
function fakeDate(rng: () => number) {
  return addDays('2023-01-01', Math.floor(rng() * 900));
}

function prose(ctx: Ctx, chars: number) {
  const parts: string[] = [];
  let length = 0;
  let i = Math.floor(ctx.rng() * SENTENCES.length);
  while (length < chars) {
    const s = SENTENCES[i++ % SENTENCES.length];
    parts.push(s);
    length += s.length + 1;
  }
  return parts.join(' ');
}

function idPrefix(key: string) {
  if (key.startsWith('question')) return 'q';
  if (key.startsWith('argument')) return 'arg';
  if (key.startsWith('claim')) return 'c';
  return key.slice(0, 1) || 'x';
}

function stringFor(schema: JsonSchema, ctx: Ctx, { key, index, parentKey, item }: Where): string {
  const k = key.toLowerCase();
  switch (schema.format) {
    case 'date':
      return fakeDate(ctx.rng);
    case 'date-time':
      return `${fakeDate(ctx.rng)}T09:00:00Z`;
    case 'email':
      return 'analyst@bank.example';
    case 'uri':
    case 'url':
      return 'https://example.com/evidence';
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
  }
  if (k === 'id') return `${idPrefix(parentKey)}${index + 1}`;
  if (k === 'targetclaimid' || k === 'respondsto') return `c${index + 1}`;
  if (k === 'argumentid' || k === 'targetid') return `arg${index + 1}`;
  if (k === 'evidenceid') return `ev-${index + 1}`;
  if (k.endsWith('id')) return `${k.slice(0, 3)}-${index + 1}`;
  if (k === 'date' || k.endsWith('date')) return fakeDate(ctx.rng);
  if (k === 'source') return SOURCES[Math.floor(ctx.rng() * SOURCES.length)];
  if (k === 'factor' || parentKey === 'factors') return FACTORS[(index + ctx.factorOffset) % FACTORS.length];
  if (k === 'value') return `${(ctx.rng() * 30).toFixed(1)}%`;
  if (k === 'horizon') return ['12 months', '24 months', '36 months'][index % 3];
  if (k === 'topic') return FACTOR_LABELS[(index + ctx.factorOffset) % FACTOR_LABELS.length];
  if (SHORT_FIELDS.has(k)) return SENTENCES[Math.floor(ctx.rng() * SENTENCES.length)].split(',')[0];
  // Items of string arrays (summaries, concessions, assumptions) are one sentence each.
  if (item) return SENTENCES[(index + Math.floor(ctx.rng() * SENTENCES.length)) % SENTENCES.length];
  return prose(ctx, ctx.options.textChars);
}
