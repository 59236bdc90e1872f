// The words every floor shares: roles, the statuses of cases, runs, steps and studies, the
// analysis systems, decision outcomes and evidence readings. The database keeps them as text
// with CHECK constraints built from these lists (lib/db/schema.ts); forms, actions and pages
// validate against the same lists, so a value is added in one place.

export const ROLES = ['rm', 'committee', 'evaluator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** `returned`: the committee sent the case back; the RM works on it again and may resubmit. */
export const CASE_STATUSES = ['draft', 'analyzing', 'submitted', 'decided', 'returned'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

export const DECISION_OUTCOMES = ['approve', 'approve_with_conditions', 'decline', 'return'] as const;
export type DecisionOutcome = (typeof DECISION_OUTCOMES)[number];

/**
 * `budget_exceeded`: the run stopped at its token or cost budget; finished steps are kept.
 * `insufficient_evidence`: the pool at the as-of date held too little to debate (runs.shortfall).
 * `red_flag_screening`: the pool held too little to debate but held decisive red flags, so the run
 * ended with a red-flag screening instead of a debate (lib/debate/sufficiency.ts, docs/protocols.md).
 * It is a finished analysis: the case can be submitted with it.
 */
export const RUN_STATUSES = [
  'queued',
  'running',
  'succeeded',
  'failed',
  'cancelled',
  'budget_exceeded',
  'insufficient_evidence',
  'red_flag_screening',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
/** Statuses a run does not leave on its own (a retry starts it again). */
export type TerminalRunStatus = Exclude<RunStatus, 'queued' | 'running'>;
// Typed as a list of RunStatus rather than `as const`, so `.includes(status)` takes any status.
export const TERMINAL_RUN_STATUSES: readonly RunStatus[] = [
  'succeeded',
  'failed',
  'cancelled',
  'budget_exceeded',
  'insufficient_evidence',
  'red_flag_screening',
] satisfies TerminalRunStatus[];

/** Finished analyses a case can be submitted with: a debate that ran to its end, or a red-flag screening. */
export const COMPLETED_RUN_STATUSES: readonly RunStatus[] = ['succeeded', 'red_flag_screening'] satisfies TerminalRunStatus[];

export const STEP_STATUSES = ['pending', 'running', 'done', 'failed'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/** The five analysis systems (docs/protocols.md). */
export const PROTOCOLS = ['kpd-mads', 'nas', 'sas', 'three-round', 'findebate'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/** Who answers a run's steps: the built-in offline analyst or an OpenAI-compatible endpoint. */
export const PROVIDER_NAMES = ['offline', 'openai'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** How a piece of evidence reads for repayment. */
export const POLARITIES = ['favorable', 'adverse', 'context'] as const;
export type Polarity = (typeof POLARITIES)[number];

/** Who set an evidence item's factor: deterministic rules, a model, or an RM's override. */
export const FACTOR_SOURCES = ['rule', 'llm', 'rm'] as const;
export type FactorSource = (typeof FACTOR_SOURCES)[number];

/** Where an evidence item came from: an import file, a connector, web search or an RM's hand. */
export const EVIDENCE_ORIGINS = ['import', 'dart', 'edgar', 'web', 'manual', 'document'] as const;
export type EvidenceOrigin = (typeof EVIDENCE_ORIGINS)[number];

/** A candidate evidence item read out of an uploaded document waits for an RM: proposed until accepted or rejected. */
export const CANDIDATE_STATUSES = ['proposed', 'accepted', 'rejected'] as const;
export type CandidateStatus = (typeof CANDIDATE_STATUSES)[number];
/** Who proposed a candidate: the offline rules or the configured model. */
export const CANDIDATE_PROPOSERS = ['rule', 'model'] as const;
export type CandidateProposer = (typeof CANDIDATE_PROPOSERS)[number];

export const STUDY_STATUSES = ['draft', 'open', 'closed'] as const;
export type StudyStatus = (typeof STUDY_STATUSES)[number];

/** The automated judges (lib/eval/judges.ts): two runs compared, or one run scored. */
export const JUDGMENT_KINDS = ['pairwise', 'rubric'] as const;
export type JudgmentKind = (typeof JUDGMENT_KINDS)[number];

/**
 * What lands in a user's inbox (`notifications`): a comment or a reply on a case, a case
 * submitted, resubmitted, returned or decided, a study assignment, a run finished or failed, a
 * watched borrower's new filings that raised an alert (lib/jobs/watch.ts).
 */
export const NOTIFICATION_KINDS = [
  'comment',
  'reply',
  'submitted',
  'resubmitted',
  'returned',
  'decided',
  'study_assigned',
  'run_finished',
  'run_failed',
  'watch_alert',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** How often a watched borrower's filings are checked (lib/jobs/watch.ts). */
export const WATCH_FREQUENCIES = ['daily', 'weekly'] as const;
export type WatchFrequency = (typeof WATCH_FREQUENCIES)[number];
