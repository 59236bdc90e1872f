// The rows pages hand to components: what a list or a panel shows, declared here so components
// never reach into lib/db for a type, and the query functions in lib/db/queries promise exactly
// these shapes (their return types say so).
import type { CaseStatus, DecisionOutcome, EvidenceOrigin, FactorSource, Polarity, Role, StudyStatus } from '@/lib/domain/vocabulary';

/** A case in an RM's list or the committee's (lib/db/queries/cases.ts). */
export type CaseListItem = {
  id: string;
  title: string;
  status: CaseStatus;
  asOfDate: string;
  /** A numeric column: a decimal string, never rounded through a float. */
  loanAmount: string;
  loanCurrency: string;
  loanTenorMonths: number;
  updatedAt: Date;
  submittedAt: Date | null;
  companyId: string;
  companyName: string;
  companyNameEn: string | null;
  ownerName: string;
  runCount: number;
  /** Runs of the case queued or running now: the case reads "Analyzing" only while there is one (lib/domain/case-status.ts). */
  activeRunCount: number;
};

/** The case page's facts: the list row plus what only the page shows. */
export type CaseDetail = CaseListItem & {
  loanPurpose: string;
  notes: string | null;
  /** The RM's cover note to the committee with the latest submission; null when none. */
  submissionNote: string | null;
  ownerId: string;
  createdAt: Date;
};

/** A case in the committee's queue (lib/db/queries/review.ts), with its comments and latest decision. */
export type ReviewQueueItem = {
  id: string;
  title: string;
  status: CaseStatus;
  asOfDate: string;
  loanAmount: string;
  loanCurrency: string;
  loanTenorMonths: number;
  submittedAt: Date | null;
  /** The RM's cover note with the latest submission; null when none. */
  submissionNote: string | null;
  companyName: string;
  companyNameEn: string | null;
  ownerName: string;
  runCount: number;
  commentCount: number;
  outcome: DecisionOutcome | null;
  /** When the latest decision was taken; null before the first. */
  decidedAt: Date | null;
  /** The borrower is an individual in business (docs/oversight.md). */
  soleProprietor?: boolean;
};

/** Who may write in a case's threads: start threads and reply, only reply, or neither. */
export type CommentRight = 'start' | 'reply' | 'none';

/** A comment on a case, general or anchored to a run's turn or one of its claims, with its author. */
export type CaseComment = {
  id: string;
  caseId: string;
  runId: string | null;
  stepId: string | null;
  claimId: string | null;
  parentId: string | null;
  body: string;
  createdAt: Date;
  authorId: string;
  authorName: string;
  authorRole: Role;
};

/** One round's decision on a case. */
export type CaseDecision = {
  id: string;
  outcome: DecisionOutcome;
  rationale: string;
  conditions: string | null;
  createdAt: Date;
  deciderName: string;
};

/** A company in the companies list, with its pool's counts (lib/db/queries/companies.ts). */
export type CompanyListItem = {
  id: string;
  name: string;
  nameEn: string | null;
  country: string;
  industry: string | null;
  evidenceCount: number;
  /** Distinct guideline factors among its evidence (`other` not counted). */
  factorCount: number;
  documentCount: number;
  latestPublished: string | null;
};

/** One evidence item on a company's timeline, with who added it. */
export type CompanyEvidence = {
  id: string;
  category: string;
  factor: string | null;
  polarity: Polarity | null;
  factorSource: FactorSource | null;
  title: string;
  text: string;
  value: string | null;
  eventDate: string | null;
  publishedDate: string;
  sourceName: string;
  sourceUrl: string;
  language: string;
  origin: EvidenceOrigin;
  addedBy: string | null;
};

/** Items per factor on a company's timeline; `factor` is '' for untagged items. */
export type FactorTotals = { factor: string; total: number; favorable: number; adverse: number }[];

/** One report in an evaluator's work list: opaque ids and a position, nothing about the run. */
export type EvaluatorAssignment = {
  id: string;
  position: number;
  submittedAt: Date | null;
  studyId: string;
  studyName: string;
  studyStatus: StudyStatus;
};
