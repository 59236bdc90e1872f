// What a run keeps in its jsonb columns besides the step outputs (lib/domain/outputs.ts): the
// cited evidence as it read when the run finished, the web results it captured, each step's
// searches and the report's final checks. lib/db/schema.ts types its columns with these.
import type { Polarity } from '@/lib/domain/vocabulary';

/**
 * One cited pool item or document passage as it read when its run finished (`runs.cited_evidence`,
 * written by lib/db/queries/cited-evidence.ts). `fingerprint` is the sha256 of the item's
 * canonical fields, the whole text included, so a later edit of the pool item is detected.
 */
export type CitedEvidenceSnapshot = {
  id: string;
  kind: 'evidence' | 'passage';
  title: string;
  /** The start of the item's text, at most 1,000 characters. */
  excerpt: string;
  sourceName: string;
  sourceUrl: string;
  publishedDate: string;
  /** When the event itself happened (evidence items that carry it). */
  eventDate: string | null;
  value: string | null;
  factor: string | null;
  polarity: Polarity | null;
  /** The document a passage belongs to, and the passage's heading. */
  documentId: string | null;
  documentTitle: string | null;
  heading: string | null;
  fingerprint: string;
};

/**
 * A web result a run captured (`runs.web_evidence`), citable like pool evidence under its id
 * `web-<run>-<n>`. The engine holds it with a Date; read back from JSON, `retrievedAt` is a string.
 */
export type StoredWebResult = {
  id: string;
  companyId: string;
  category: string;
  title: string;
  text: string;
  value: string | null;
  eventDate: string | null;
  publishedDate: string;
  sourceName: string;
  sourceUrl: string;
  language: string;
  upstream: string | null;
  license: string | null;
  retrievedAt?: Date | string | null;
};

/** One web search a step made (`run_steps.tool_calls`): its query and how many results came back. */
export type ToolCallRecord = { name: 'web_search'; query: string; results: number };

/** One final check a finished report carries (`reports.checks`, lib/debate/checks.ts). */
export type FinalCheck = { id: string; ok: boolean; message: string; items: string[] };

/**
 * What the engine changed in a model's answer to take it in (docs/protocols.md, "Taking answers
 * in"), kept on the step so a reviewer sees every repair: the answer's wrapping removed, its JSON
 * mended, a field filled, dropped or normalised, a date it could not read, a citation matched by
 * its link or its source and date, one that could not be matched to anything the step was shown
 * or that is dated after the as-of date, an answer cut off at the token limit retried, or a
 * repair request sent.
 */
export const STEP_REPAIR_KINDS = [
  'unwrapped',
  'json-mended',
  'field-defaulted',
  'field-dropped',
  'date-normalised',
  'date-unreadable',
  'citation-matched',
  'citation-unverified',
  'citation-after-as-of',
  // A closing's citation of evidence its turns did not cite, taken out after the repair request
  // still brought it (a closing brings no new material).
  'citation-dropped',
  'truncated-retry',
  'repair-request',
  // A section of a sectioned step whose factors nothing the step was shown bears on: not asked,
  // its list left empty (docs/protocols.md, "Sections").
  'section-not-asked',
  // Checks that do not take the model's word (docs/protocols.md): the engine kept FinDebate's
  // draft because the debate moved its stance or horizons or recommended nothing, corrected the
  // safety checker's decision otherwise, or recomputed a rubric judge's weighted scores and
  // side averages.
  'draft-restored',
  'safety-corrected',
  'scores-recomputed',
] as const;
export type StepRepairKind = (typeof STEP_REPAIR_KINDS)[number];
/** `part`: the section call of a sectioned step that the repair concerns (its `attempt` counts that call's tries). */
export type StepRepair = { kind: StepRepairKind; attempt: number; detail: string; part?: string };

/**
 * One call of a sectioned step that finished while the step was still being written
 * (`run_steps.sections`, docs/protocols.md "Sections"): kept the moment it finished, so a run that
 * stops before the step is saved asks again only the calls still missing. Cleared when the step
 * is saved, which then holds all of it.
 */
export type KeptSection = {
  /** The section's key (`overview` for the overview call). */
  key: string;
  /** sha256 of the model and the call's prompt: the answer is used again only for the same call asked again. */
  fingerprint: string;
  /** The call's answer as the engine kept it (narrowed to the section's fields and factors). */
  output: Record<string, unknown>;
  /** What the call spent, every try of it. */
  usage: { promptTokens: number; completionTokens: number; cachedTokens: number };
  toolCalls: ToolCallRecord[];
  repairs: StepRepair[];
  /**
   * Its usage is already in the run's totals: the run stopped (cancelled, at its budget) or the
   * step failed after it was kept, and what its calls spent was counted then. Absent: counted
   * when the step is saved.
   */
  counted?: boolean;
};
