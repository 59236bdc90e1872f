// The shape of a run's report document (lib/report/model.ts builds it; the page, the Markdown
// and the PDF draw it) and of what the protocol sections (lib/report/sections.ts) are given.
// Types only, so the builder and the sections share them without importing each other.
import type { CitedSource, PoolNote, SourcesState } from '@/lib/domain/cited-source';
import type { RedFlagKind } from '@/lib/domain/red-flags';
import type { Locale, Translate } from '@/lib/i18n';
import type { ReportMessages } from '@/lib/i18n/messages/report';
import type { RunOversight } from '@/lib/report/oversight-text';
import type { RunView, RunViewTurn } from '@/lib/report/run-doc';

/**
 * What a citation's evidence id points to: a pool item, a document passage or a web result; for
 * a finished run, as its cited-evidence snapshot recorded it (lib/db/queries/sources.ts).
 */
export type SourceInfo = CitedSource;
export type Sources = Record<string, SourceInfo>;
export type { SourcesState };

export type { PoolNote };
/** `afterAsOf`: dated after the run's as-of date, so it supports nothing (lib/debate/checks.ts); shown as such, not merely unverified. */
export type CitationRef = {
  source: string;
  date: string;
  value?: string;
  evidenceId?: string;
  verified: boolean;
  afterAsOf?: boolean;
  url?: string;
  title?: string;
  poolNote?: PoolNote;
};
/**
 * A piece of prose that names a turn of the run or a topic of the report, which the page draws as
 * a link: a turn to its card in the run's transcript (`/runs/<id>#turn-D7`, `#claim-D1-c2`,
 * `#question-D2-q3`), a topic to its place in the report (`#topic-3`). The exports, where such
 * links cannot work, read the block's plain text, which is the pieces joined.
 */
export type TextLink = { text: string; to: 'turn' | 'topic'; anchor: string };
export type Segment = string | TextLink;
/** `parts`: the value as pieces, set only when some piece is a link; `value` is always the whole text. */
export type Field = { label: string; value: string; parts?: Segment[] };
export type Block =
  | { kind: 'paragraph'; text: string; parts?: Segment[] }
  | { kind: 'list'; items: string[]; parts?: (Segment[] | null)[] }
  | { kind: 'fields'; items: Field[] }
  | { kind: 'citations'; items: CitationRef[] }
  | { kind: 'table'; caption: string; head: string[]; rows: string[][] }
  | { kind: 'note'; tone: 'info' | 'warning' | 'error'; text: string; parts?: Segment[] }
  /** `anchor`: the id a link to this group targets (a topic's `topic-3`). */
  | { kind: 'group'; title: string; blocks: Block[]; anchor?: string };
export type Section = { id: string; title: string; blocks: Block[] };
export type CheckRow = { id: string; ok: boolean; label: string; items: string[] };
export type TranscriptTurn = {
  step: string;
  /** What the turn is, in words ("The negative rebuttal"); the step id where the protocol is unknown or the copy is blind. */
  title: string;
  speaker: string;
  team: string;
  act: string;
  status: string;
  text: string;
  questions: string[];
  citations: CitationRef[];
  /** One line per claim of this turn that reads against its evidence (lib/eval/reading-consistency.ts). */
  flags: string[];
};

/** A red flag as the report lists it: the kind in words, the date, the item and where to open it. */
export type RedFlagRow = {
  kind: RedFlagKind;
  label: string;
  date: string;
  title: string;
  evidenceId: string;
  source?: string;
  url?: string;
  /** The other items that report the same event (lib/pool/red-flag-events.ts). */
  alsoEvidenceIds?: string[];
};

export type ReportDoc = {
  /** Language of the headings and labels. */
  locale: Locale;
  /** Language of the run's own text (model and evidence), for `lang` attributes. */
  contentLanguage: Locale;
  title: string;
  subtitle: string;
  companyName: string;
  /** The run's page, whose transcript the turn links in the prose point into. */
  runHref: string;
  protocol: string;
  protocolName: string;
  asOf: string;
  status: RunView['status'];
  header: Field[];
  metrics: Field[];
  /** Set while the run is going, or when it failed or was cancelled. */
  notice: { tone: 'info' | 'error'; title?: string; text: string } | null;
  /**
   * Set when final checks failed: which, in words with their counts (lib/report/failed-checks.ts).
   * Every renderer draws it at the top, right after the red flags and before the header.
   */
  failedChecks: { title: string; text: string; lines: { id: string; count: number; text: string }[] } | null;
  /** Set when a finished run's cited evidence was not frozen (it finished before snapshots): sources read live. */
  sourcesNote: string | null;
  /** The decisive credit events found before the debate, shown before anything else; empty when there are none. */
  redFlags: RedFlagRow[];
  /** Heading and lead-in of the red-flag panel, and the word for an evidence item. */
  redFlagLabels: { heading: string; intro: string; item: string; alsoIn: string };
  sections: Section[];
  checks: CheckRow[];
  transcript: TranscriptTurn[];
  /** The analysis is AI-assisted: which system and models, and who decided (lib/report/oversight.ts). Null in a blind copy. */
  aiAssisted: { title: string; lines: string[] } | null;
  /** Who decided the run's case, what they confirmed and what they overrode; null before a decision or outside an export. */
  humanOversight: { title: string; lines: string[] } | null;
  /** Strings the renderers need around the blocks. */
  labels: Pick<
    ReportMessages,
    | 'metrics'
    | 'checks'
    | 'checkPassed'
    | 'checkFlagged'
    | 'noChecks'
    | 'transcript'
    | 'transcriptNote'
    | 'step'
    | 'speaker'
    | 'team'
    | 'act'
    | 'citations'
    | 'unverified'
    | 'unverifiedLong'
    | 'noCitations'
    | 'changedInPool'
    | 'removedFromPool'
    | 'notFrozen'
    | 'questionsLabel'
    | 'reportSection'
    | 'noReport'
  > & { afterAsOf: string; afterAsOfLong: string; pageOf: (n: number, total: number) => string };
};

export type ReportInput = {
  view: RunView;
  sources: Sources;
  sourcesState: SourcesState;
  protocolName: string;
  totalSteps: number;
  /** Source and link of red flags' items no turn cites, read live for a run whose sources are live (lib/report/load.ts). */
  redFlagSources?: Sources;
  /** The run's case and its decision, read for the exports (lib/db/queries/oversight.ts loadRunOversight). */
  oversight?: RunOversight;
};

export type BuildContext = {
  t: Translate<ReportMessages>;
  locale: Locale;
  view: RunView;
  sources: Sources;
  factorLabel: (factor: string) => string;
  cite: (citations: unknown) => CitationRef[];
  turn: (step: string) => RunViewTurn | undefined;
};
