// The claims, questions and citations of any step output, wherever its shape keeps them (turns,
// briefings, drafts, reports, three-round arguments). Pure, so the engine, the live page and the
// queries that check an anchor or snapshot cited evidence read outputs the same way.
import type { Citation, Claim, OutputKind, Question } from '@/lib/domain/outputs';

type Shaped = { claims?: Claim[]; questions?: Question[] };

/** Claims and questions of any output shape (turns, briefings, drafts). */
export function claimsOf(output: unknown): Claim[] {
  return ((output as Shaped | null)?.claims ?? []) as Claim[];
}
export function questionsOf(output: unknown): Question[] {
  return ((output as Shaped | null)?.questions ?? []) as Question[];
}

/** Every list of citations in an output (the arrays themselves, to change in place), wherever the shape keeps them. */
export function citationListsOf(output: unknown): unknown[][] {
  const out: unknown[][] = [];
  const walk = (value: unknown, key?: string) => {
    if (Array.isArray(value)) {
      if (key === 'citations' || key === 'evidence') out.push(value);
      for (const v of value) walk(v);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, k);
    }
  };
  walk(output);
  return out;
}

/** Whether a list's element is a citation (not, say, a bare id). */
export const isCitation = (c: unknown): c is Citation => Boolean(c) && typeof c === 'object' && 'source' in (c as object);

/** Every citation in an output, wherever the shape keeps them. */
export function citationsOf(output: unknown): Citation[] {
  return citationListsOf(output).flatMap((list) => list.filter(isCitation));
}

/** The parts of an answer the live page lists while the model writes the rest of it. */
export const PART_KINDS = ['claim', 'question', 'citation', 'argument', 'response', 'topic'] as const;
export type PartKind = (typeof PART_KINDS)[number];

/** Which kind of part an array of objects holds, by the array's key, wherever in the output it sits. */
export const PART_KEYS: Readonly<Record<string, PartKind>> = {
  claims: 'claim',
  questions: 'question',
  citations: 'citation',
  evidence: 'citation',
  arguments: 'argument',
  responses: 'response',
  topics: 'topic',
};

/**
 * One part of an answer, written out in full while the answer still streams: the object as the
 * model wrote it, not yet validated (the step's output replaces it when the step is done), with
 * long strings and lists shortened so that events stay small.
 */
export type StepPart = { kind: PartKind; value: Record<string, unknown> };

/**
 * The field a reader reads of each kind of part, which the live page shows growing while the
 * model writes it (a citation has none: it is counted, not listed).
 */
export const DRAFT_FIELDS: Readonly<Partial<Record<PartKind, string>>> = {
  claim: 'text',
  question: 'text',
  argument: 'claim',
  response: 'reasoning',
  topic: 'topic',
};

/**
 * A part still being written: its `index`-th part of this kind in the answer, and what the model
 * has written of its readable field (DRAFT_FIELDS) so far, decoded and at most MAX_DRAFT_CHARS
 * long. The part, once written in full, replaces it.
 */
export type PartDraft = { kind: PartKind; index: number; text: string };

/** A draft's text is cut here (with an ellipsis), as a finished part's long strings are. */
export const MAX_DRAFT_CHARS = 600;

/** Parts beyond this many in one answer are not sent live; the finished step has them all. */
export const MAX_LIVE_PARTS = 60;

/**
 * The readable string fields of an answer beyond its prose and its parts, by output kind: what the
 * live page shows, each under a short heading, while the model writes it, so an answer that writes
 * its objective or its summaries before its prose is read from its first words. A field is a path
 * of keys from the top (a list on the way adds nothing: `['fallacies', 'explanation']` is each
 * fallacy's explanation, `['favorableSummary']` each summary). Ids, sources, dates, factor ids and
 * enum codes are not here and are never shown as text (output-parts.test.ts checks every string of
 * every kind is one or the other). A field of a prose of two (PROSE) is shown only when it comes
 * before its turn in the prose (a critique before its assumption), until the prose reaches it.
 */
export const FIELD_NAMES = [
  'objective',
  'favorableSummary',
  'adverseSummary',
  'justification',
  'assumption',
  'critique',
  'evidenceReview',
  'keyTakeaways',
  'primaryRisk',
  'mitigation',
  'outlook',
  'falsifiability',
  'concessions',
  'unrebutted',
  'finalPosition',
  'recommendation',
  'unresolved',
  'explanation',
  'note',
  'wording',
] as const;
export type FieldName = (typeof FIELD_NAMES)[number];
type FieldPath = readonly [FieldName] | readonly [string, FieldName];

export const LIVE_FIELDS: { readonly [K in OutputKind]: readonly FieldPath[] } = {
  turn: [['falsifiability']],
  report: [['objective'], ['favorableSummary'], ['adverseSummary']],
  briefing: [],
  sasJudgment: [['justification']],
  sasStress: [['assumption'], ['critique']],
  sasReport: [['evidenceReview'], ['keyTakeaways'], ['primaryRisk'], ['mitigation'], ['outlook']],
  argumentsRound: [],
  responsesRound: [],
  closingRound: [['concessions'], ['unrebutted'], ['finalPosition']],
  rubricJudgment: [
    ['overall', 'unresolved'],
    ['overall', 'recommendation'],
    ['fallacies', 'explanation'],
    ['trace', 'note'],
  ],
  stanceDraft: [],
  safetyCheck: [['edits', 'wording']],
};

/**
 * A readable field as written so far: the `index`-th string of this name in the answer (a list
 * of summaries has one per entry), decoded, at most MAX_DRAFT_CHARS long. Empty text takes it
 * back: the prose now holds it.
 */
export type LiveField = { name: FieldName; index: number; text: string };

/** Fields beyond this many in one answer are not sent live; the finished step has them all. */
export const MAX_LIVE_FIELDS = 40;

/**
 * The fields shown with this one's latest text: in place, at the end when it is new, left out when
 * its text is empty (the prose took it back). The bus and the live page keep them this same way.
 */
export function withField(fields: readonly LiveField[], field: LiveField): LiveField[] {
  const at = fields.findIndex((f) => f.name === field.name && f.index === field.index);
  if (!field.text) return at < 0 ? [...fields] : fields.filter((_, i) => i !== at);
  if (at < 0) return [...fields, field];
  return fields.map((f, i) => (i === at ? field : f));
}

/** The line a reader sees for a streamed part; empty when the model left that field out. */
export function partLine(part: StepPart): string {
  const v = part.value;
  const str = (x: unknown) => (typeof x === 'string' ? x : '');
  switch (part.kind) {
    case 'claim':
    case 'question':
      return str(v.text);
    case 'argument':
      return str(v.claim);
    case 'response':
      return str(v.reasoning);
    case 'topic':
      return str(v.topic);
    case 'citation':
      return [str(v.source), str(v.date)].filter(Boolean).join(', ');
  }
}
