// Taking a model's answer in (docs/protocols.md, "Taking answers in"): tolerant of how real
// models wrap and write JSON, strict about what it means. The answer's JSON object is found
// (inside a code fence, after or before a sentence), small syntax defects are mended, fields the
// output does not have are dropped, absent lists are taken as empty, and citation dates are
// written as ISO days. Every change is recorded as a StepRepair for the reviewer. Nothing here
// invents content: an answer cut off inside a value, a date that cannot be read, or a field that
// is missing and has no safe default is left for the schema and the repair attempt to deal with.
import { jsonrepair } from 'jsonrepair';
import type { ZodType } from 'zod';
import { citation as citationSchema, OUTPUT_SCHEMAS, type OutputKind, type StepOutput } from '@/lib/domain/outputs';
import { sectionSchema } from '@/lib/domain/sections';
import type { StepRepair, StepRepairKind } from '@/lib/domain/stored';
import type { Phrase } from '@/lib/i18n';
import { reasonText, stopPhrase } from '@/lib/i18n/failures';
import { isIsoDay, parseDay } from '@/lib/util/dates';

/** What a provider returned: the text it wrote and, when the API reports one, its refusal. */
export type Answer = { raw: string; refusal?: string | null };

export type IntakeResult =
  | { ok: true; output: StepOutput; repairs: StepRepair[] }
  | {
      ok: false;
      /** `empty` and `refusal` fail the step at once; `invalid` answers get the repair attempt. */
      failure: 'empty' | 'refusal' | 'invalid';
      /** Worded for an RM (lib/i18n/messages/run-failures.ts): the step's error when it fails on it. */
      reason: string;
      /** The same as a phrase, for an empty answer or a refusal: what the step stores and the page renders. */
      phrase?: Phrase;
      /** For the repair request: what is wrong, one line each. */
      problems: string[];
      repairs: StepRepair[];
    };

/** Candidate objects looked at in one answer: enough for a preamble that shows a brace or two. */
const MAX_CANDIDATES = 8;
const QUOTE_CHARS = 60;

/** Keys a model may give a citation's link under; kept as `url` (used to match the citation). */
const URL_KEYS = ['url', 'sourceUrl', 'source_url', 'link', 'href'] as const;

// Said without a JSON object around it, these read as a refusal rather than as a broken answer.
const REFUSAL_EN = /\b(?:I'm sorry|I am sorry|I apologi[sz]e|I can(?:not|'t)|I'm (?:not able|unable)|I am (?:not able|unable)|I won't|I will not|As an AI)\b/i;
const REFUSAL_KO = /죄송|할 수 없|드릴 수 없|어렵습니다|불가합니다|불가능합니다/;

type ZodLike = { def: { type: string; innerType?: ZodLike }; shape?: Record<string, ZodLike>; element?: ZodLike };
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isHttpUrl = (v: unknown): v is string => typeof v === 'string' && /^https?:\/\/\S+$/i.test(v.trim());

/** A short quotation of model text for a repair's detail: one line, clipped. */
function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return `“${line.length > QUOTE_CHARS ? `${line.slice(0, QUOTE_CHARS)}…` : line}”`;
}

/** Repairs of one kind and detail are noted once, with a count: forty null `respondsTo` are one line. */
class Notes {
  private seen = new Map<string, { kind: StepRepairKind; detail: string; n: number }>();
  constructor(private readonly attempt: number) {}
  add(kind: StepRepairKind, detail: string) {
    const key = `${kind}\u0000${detail}`;
    const entry = this.seen.get(key);
    if (entry) entry.n++;
    else this.seen.set(key, { kind, detail, n: 1 });
  }
  list(): StepRepair[] {
    return [...this.seen.values()].map(({ kind, detail, n }) => ({ kind, attempt: this.attempt, detail: n > 1 ? `${detail} (×${n})` : detail }));
  }
}

// ---------------------------------------------------------------- finding the object

/**
 * How an object that starts at `start` ends: at its matching brace (`end`), or not at all —
 * the text stops with only closing brackets missing after a complete value (`closers-missing`,
 * safe to close), or in the middle of a key, a value or a list (`cut`, content lost). One pass,
 * aware of strings and escapes; no regular expression reads the model's text.
 */
type Span = { start: number; end: number | null; tail: 'complete' | 'closers-missing' | 'cut' };

function scanObject(text: string, start: number): Span {
  const stack: string[] = [];
  let quoteChar: string | null = null;
  let escaped = false;
  // The last character outside strings that is not blank; `"` after a string closes.
  let last = '';
  let stringIsKey = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (quoteChar) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === quoteChar) {
        quoteChar = null;
        last = '"';
      }
      continue;
    }
    if (ch === '"' || ch === "'") {
      quoteChar = ch;
      stringIsKey = stack.at(-1) === '{' && (last === '{' || last === ',');
      continue;
    }
    if (ch === ' ' || ch === '\n' || ch === '\r' || ch === '\t') continue;
    if (ch === '{' || ch === '[') stack.push(ch);
    else if (ch === '}' || ch === ']') {
      stack.pop();
      if (stack.length === 0) return { start, end: i + 1, tail: 'complete' };
    }
    last = ch;
  }
  const afterValue = last === '}' || last === ']' || (last === '"' && !stringIsKey);
  return { start, end: null, tail: quoteChar === null && afterValue ? 'closers-missing' : 'cut' };
}

type Parsed = { value: unknown; mended?: string } | { problem: string };

function parseSpan(body: string, span: Span): Parsed {
  const slice = span.end === null ? body.slice(span.start) : body.slice(span.start, span.end);
  if (span.tail === 'cut') return { problem: 'the output is not valid JSON: it stops before it is complete, inside a value or a list' };
  if (span.tail === 'closers-missing') {
    try {
      return { value: JSON.parse(jsonrepair(slice)), mended: 'closed the brackets the answer left open at its end' };
    } catch {
      return { problem: 'the output is not valid JSON: it stops before it is complete' };
    }
  }
  try {
    return { value: JSON.parse(slice) };
  } catch (err) {
    const why = (err as Error).message;
    try {
      return { value: JSON.parse(jsonrepair(slice)), mended: `mended its JSON syntax (${why})` };
    } catch {
      return { problem: `the output is not valid JSON (${why})` };
    }
  }
}

/** The one key of a wrapper such as {"output": {…}} whose value holds the expected fields. */
function wrapperKey(value: Obj, keys: Set<string>): string | null {
  const entries = Object.entries(value);
  if (entries.length !== 1 || keys.has(entries[0][0])) return null;
  const inner = entries[0][1];
  return isObj(inner) && Object.keys(inner).some((k) => keys.has(k)) ? entries[0][0] : null;
}

type Found = { span: Span; value: Obj; mended?: string };

/**
 * The answer's object among the top-level objects of the text: the one holding the most fields of
 * the expected output (or wrapping them), then one that needed no mending, then the longest — an
 * example of the shape in a preamble ("answer as {"text": …}") loses to the answer itself.
 * Without any holding such a field, the first object at all.
 */
function findObject(body: string, keys: Set<string>): Found | { problem: string } | null {
  let from = 0;
  let first: Found | undefined;
  let best: { found: Found; score: [number, number, number] } | undefined;
  let firstProblem: string | undefined;
  for (let n = 0; n < MAX_CANDIDATES; n++) {
    const start = body.indexOf('{', from);
    if (start < 0) break;
    const span = scanObject(body, start);
    const parsed = parseSpan(body, span);
    if ('value' in parsed && isObj(parsed.value)) {
      const found: Found = { span, value: parsed.value, mended: parsed.mended };
      first ??= found;
      const wrapped = wrapperKey(parsed.value, keys);
      const fields = Object.keys(wrapped ? (parsed.value[wrapped] as Obj) : parsed.value).filter((k) => keys.has(k)).length;
      const score: [number, number, number] = [fields, parsed.mended ? 0 : 1, (span.end ?? body.length) - span.start];
      const better =
        !best ||
        score[0] > best.score[0] ||
        (score[0] === best.score[0] && (score[1] > best.score[1] || (score[1] === best.score[1] && score[2] > best.score[2])));
      if (fields > 0 && better) best = { found, score };
    } else if ('problem' in parsed) {
      firstProblem ??= parsed.problem;
    }
    if (span.end === null) break;
    from = span.end;
  }
  return best?.found ?? first ?? (firstProblem ? { problem: firstProblem } : null);
}

/** The text inside the first ``` fence, its language label, and the text around the fence; null without one. */
function fenced(text: string): { body: string; label: string; before: string; after: string } | null {
  const open = text.indexOf('```');
  if (open < 0) return null;
  const lineEnd = text.indexOf('\n', open + 3);
  if (lineEnd < 0) return null;
  const label = text.slice(open + 3, lineEnd).trim();
  const close = text.indexOf('```', lineEnd + 1);
  return {
    body: text.slice(lineEnd + 1, close < 0 ? text.length : close),
    label,
    before: text.slice(0, open),
    after: close < 0 ? '' : text.slice(close + 3),
  };
}

// ---------------------------------------------------------------- cleaning the object

function cleanValue(value: unknown, schema: ZodLike, path: string, notes: Notes): unknown {
  switch (schema.def.type) {
    case 'optional':
      return value === undefined ? undefined : cleanValue(value, schema.def.innerType!, path, notes);
    case 'array':
      return Array.isArray(value) ? value.map((v) => cleanValue(v, schema.element!, `${path}[]`, notes)) : value;
    case 'object':
      return isObj(value) ? cleanObject(value, schema, path, notes) : value;
    default:
      return value;
  }
}

function cleanObject(value: Obj, schema: ZodLike, path: string, notes: Notes): Obj {
  const shape = schema.shape!;
  const isCitation = (schema as unknown) === citationSchema;
  const at = (key: string) => (path ? `${path}.${key}` : key);
  const out: Obj = {};
  for (const [key, field] of Object.entries(shape)) {
    let v = value[key];
    const optional = field.def.type === 'optional';
    if (v === null && optional) {
      // Models write null for "none"; an optional field says none by being absent.
      notes.add('field-defaulted', `${at(key)}: null left out`);
      continue;
    }
    // A list the output requires, left out or null, says "none": an empty list. An optional
    // field simply stays absent.
    if ((v === undefined || v === null) && !optional && field.def.type === 'array') {
      notes.add('field-defaulted', `${at(key)}: missing, taken as an empty list`);
      v = [];
    }
    if (v === undefined) continue;
    out[key] = cleanValue(v, field, at(key), notes);
  }
  if (isCitation) citationFields(value, out, notes);
  for (const key of Object.keys(value)) {
    // A link under one of the usual keys is kept as `url` (citationFields), not dropped.
    if (key in shape || (isCitation && (URL_KEYS as readonly string[]).includes(key) && isHttpUrl(value[key]))) continue;
    notes.add('field-dropped', `${at(key)}: not a field of this output, dropped`);
  }
  return out;
}

/** A citation's date as an ISO day, and the link it gives (under any usual key, or as its id or source). */
function citationFields(given: Obj, out: Obj, notes: Notes) {
  if (typeof out.date === 'number') out.date = String(out.date);
  if (typeof out.date === 'string' && out.date.trim() && !isIsoDay(out.date)) {
    const day = parseDay(out.date);
    if (day) {
      notes.add('date-normalised', `${quote(out.date)} → ${day}`);
      out.date = day;
    } else {
      notes.add('date-unreadable', `${quote(out.date)} is not a day; kept as written`);
    }
  }
  const url = URL_KEYS.map((k) => given[k]).find(isHttpUrl) ?? [out.evidenceId, out.source].find(isHttpUrl);
  if (url) out.url = url.trim();
}

// ---------------------------------------------------------------- the intake

function refusalOf(text: string): boolean {
  return REFUSAL_EN.test(text) || REFUSAL_KO.test(text);
}

/** What the generic intake returns: the cleaned object validated by the caller's schema. */
export type ObjectIntake<T> = { ok: true; value: T; repairs: StepRepair[] } | Extract<IntakeResult, { ok: false }>;

/**
 * Takes one answer in for an output kind. `attempt` is the step's attempt number, written on
 * every repair. The output on success is the cleaned object, validated by the kind's schema; it
 * may carry `url` on citations (a link the model gave), which the citation resolution reads.
 */
export function takeIn(kind: OutputKind, answer: Answer, { attempt = 1, fields }: { attempt?: number; fields?: readonly string[] } = {}): IntakeResult {
  // A section call of a sectioned step answers some of the kind's fields (lib/domain/sections.ts).
  const shape = fields ? sectionSchema(kind, fields) : OUTPUT_SCHEMAS[kind];
  const taken = takeInObject(shape as unknown as ZodType<StepOutput>, answer, { attempt, what: "the step's" });
  return taken.ok ? { ok: true, output: taken.value, repairs: taken.repairs } : taken;
}

/**
 * The same intake for any object schema outside a debate step (a document's candidate items,
 * lib/jobs/document-reading.ts): the object found however it is wrapped, its syntax
 * mended, unknown fields dropped, absent lists taken as empty; then the schema decides. Date
 * fields other than citations' are the caller's to read (parseDay).
 */
export function takeInObject<T>(
  schemaOf: ZodType<T>,
  answer: Answer,
  { attempt = 1, what = 'the expected' }: { attempt?: number; what?: string } = {},
): ObjectIntake<T> {
  const notes = new Notes(attempt);
  const fail = (failure: 'empty' | 'refusal' | 'invalid', reason: string | Phrase, problems?: string[]): ObjectIntake<T> => {
    const text = typeof reason === 'string' ? reason : reasonText(reason);
    return { ok: false, failure, reason: text, ...(typeof reason === 'string' ? {} : { phrase: reason }), problems: problems ?? [text], repairs: notes.list() };
  };
  const refusal = answer.refusal?.trim();
  if (refusal) return fail('refusal', stopPhrase('refusal', { reason: quote(refusal) }));
  const text = answer.raw.replace(/^\uFEFF/, '').trim();
  if (!text) return fail('empty', stopPhrase('emptyAnswer'));

  const schema = schemaOf as unknown as ZodLike;
  const keys = new Set(Object.keys(schema.shape!));
  const wrapping: string[] = [];
  let body = text;
  // Text around a fence is dropped with it, and said with what was dropped around the JSON.
  let outside = { before: '', after: '' };
  if (!text.startsWith('{')) {
    const fence = fenced(text);
    if (fence && fence.body.includes('{')) {
      body = fence.body;
      outside = { before: fence.before, after: fence.after };
      wrapping.push(`took the JSON out of a \`\`\`${fence.label} code fence`);
    }
  }
  const found = findObject(body, keys);
  if (!found) {
    if (refusalOf(text)) return fail('refusal', stopPhrase('refusal', { reason: quote(text) }));
    return fail('invalid', 'The answer holds no JSON object.', ['the output holds no JSON object']);
  }
  if ('problem' in found) return fail('invalid', `The answer could not be read: ${found.problem}.`, [found.problem]);

  const before = `${outside.before} ${body.slice(0, found.span.start)}`.trim();
  const after = `${found.span.end === null ? '' : body.slice(found.span.end)} ${outside.after}`.trim();
  if (before) wrapping.push(`dropped the text before the JSON: ${quote(before)}`);
  if (after) wrapping.push(`dropped the text after the JSON: ${quote(after)}`);
  if (wrapping.length) notes.add('unwrapped', wrapping.join('; '));
  if (found.mended) notes.add('json-mended', found.mended);

  let value = found.value;
  const wrapper = wrapperKey(value, keys);
  if (wrapper) {
    notes.add('unwrapped', `took the answer out of its ${JSON.stringify(wrapper)} wrapper`);
    value = value[wrapper] as Obj;
  }
  const cleaned = cleanObject(value, schema, '', notes);
  const parsed = schemaOf.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    return fail('invalid', `The answer does not have ${what} shape: ${problems.slice(0, 3).join('; ')}.`, problems);
  }
  // The cleaned object, not parsed.data: the schema strips the `url` a citation may carry.
  return { ok: true, value: cleaned as T, repairs: notes.list() };
}
