// The one schema for PGlite and PostgreSQL. Enumerations are text columns with CHECK
// constraints rather than PostgreSQL enums: adding a value later is a plain migration on
// both engines, with no ALTER TYPE transaction rules to work around. The values and the shapes
// of the jsonb columns are the domain's (lib/domain/vocabulary.ts, stored.ts, outputs.ts).
import { sql, type SQL } from 'drizzle-orm';
import {
  bigint,
  customType,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type { PairwiseResult, RubricResult } from '@/lib/domain/judgments';
import type { StepOutput } from '@/lib/domain/outputs';
import { RUN_MODES, TEAMS, type RunEvent, type RunParams } from '@/lib/domain/protocol';
import type { CitedEvidenceSnapshot, FinalCheck, KeptSection, StepRepair, StoredWebResult, ToolCallRecord } from '@/lib/domain/stored';
import type { EvidenceShortfall, RedFlag } from '@/lib/domain/red-flags';
import type { Answers } from '@/lib/domain/study';
import { ACK_KINDS, ACK_REASON_MAX, type AckDetail } from '@/lib/domain/acknowledgements';
import type { Phrase } from '@/lib/domain/phrase';
import type { WatchProblem } from '@/lib/domain/watch';
import type { VoteConfirmation, VoteOverride } from '@/lib/domain/oversight';
import {
  CANDIDATE_PROPOSERS,
  CANDIDATE_STATUSES,
  CASE_STATUSES,
  DECISION_OUTCOMES,
  EVIDENCE_ORIGINS,
  FACTOR_SOURCES,
  JUDGMENT_KINDS,
  NOTIFICATION_KINDS,
  POLARITIES,
  PROTOCOLS,
  ROLES,
  RUN_STATUSES,
  STEP_STATUSES,
  STUDY_STATUSES,
  WATCH_FREQUENCIES,
} from '@/lib/domain/vocabulary';

/** `a IN ('x','y')` for a CHECK constraint; values are our own constants, never input. */
function oneOf(column: AnyPgColumn, values: readonly string[]) {
  return sql`${column} in (${sql.raw(values.map((v) => `'${v}'`).join(', '))})`;
}

/** A full-text vector; always a generated column here, filled by PostgreSQL itself. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
/** Raw bytes: PGlite reads them as a Uint8Array, node-postgres as a Buffer (itself a Uint8Array). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  // A Buffer over the same bytes: node-postgres sends a Buffer as bytea, and PGlite takes it as the Uint8Array it is.
  toDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid().primaryKey().defaultRandom(),
    email: text().notNull(),
    name: text().notNull(),
    role: text({ enum: ROLES }).notNull(),
    /** scrypt hash (lib/auth/password.ts); null for accounts that only sign in through SSO. */
    passwordHash: text(),
    disabled: boolean().notNull().default(false),
    /** Demo accounts sign in only in embedded mode or with DEMO=1. */
    demo: boolean().notNull().default(false),
    failedLoginCount: integer().notNull().default(0),
    lastFailedLoginAt: timestamp({ withTimezone: true }),
    lockedUntil: timestamp({ withTimezone: true }),
    lastLoginAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email), check('users_role_check', oneOf(t.role, ROLES))],
);

/**
 * One signed-in browser: the session cookie carries this row's id, and every request checks the
 * row still exists (lib/auth/session.ts). Signing out deletes it; signing out everywhere, a
 * password change or reset, a role change and disabling the account delete all of a user's rows,
 * so a copied cookie stops working at once instead of at its expiry.
 */
export const userSessions = pgTable(
  'user_sessions',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    ip: text(),
    userAgent: text(),
  },
  (t) => [index('user_sessions_user_idx').on(t.userId), index('user_sessions_expires_idx').on(t.expiresAt)],
);

/**
 * Sign-in attempts per client address and minute, shared by every app instance, for the
 * credentials throttle (lib/auth/throttle.ts). Old windows are pruned as new ones are written.
 */
export const signInAttempts = pgTable(
  'sign_in_attempts',
  {
    /** The client address (or another throttle key, e.g. `ip:203.0.113.9`). */
    key: text().notNull(),
    windowStart: timestamp({ withTimezone: true }).notNull(),
    attempts: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index('sign_in_attempts_window_idx').on(t.windowStart)],
);

export const companies = pgTable(
  'companies',
  {
    /** A readable slug, e.g. `samsung-electronics`, stable across imports. */
    id: text().primaryKey(),
    name: text().notNull(),
    nameEn: text(),
    country: text().notNull(),
    /** Every identifier the source gave (corp_code, stock_code, cik, ticker, biz_no, …). */
    identifiers: jsonb().$type<Record<string, string>>().notNull().default({}),
    corpCode: text(),
    stockCode: text(),
    cik: text(),
    ticker: text(),
    industry: text(),
    description: text(),
    /** An individual in business: its cases always need at least two agreeing committee votes (docs/oversight.md). */
    soleProprietor: boolean().notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('companies_corp_code_idx').on(t.corpCode), index('companies_cik_idx').on(t.cik)],
);

export const evidenceItems = pgTable(
  'evidence_items',
  {
    id: text().primaryKey(),
    companyId: text()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    category: text().notNull(),
    /** One of the ten guideline factors or `other`; null until tagged. */
    factor: text(),
    polarity: text({ enum: POLARITIES }),
    /** Who set the factor: deterministic rules, a model, or an RM's override. */
    factorSource: text({ enum: FACTOR_SOURCES }),
    title: text().notNull(),
    text: text().notNull(),
    value: text(),
    eventDate: date({ mode: 'string' }),
    publishedDate: date({ mode: 'string' }).notNull(),
    sourceName: text().notNull(),
    sourceUrl: text().notNull(),
    language: text().notNull(),
    retrievedAt: timestamp({ withTimezone: true }),
    upstream: text(),
    license: text(),
    origin: text({ enum: EVIDENCE_ORIGINS }).notNull().default('import'),
    /** The user who added or last edited it by hand, or who ran the import or connector. */
    createdById: uuid().references(() => users.id, { onDelete: 'set null' }),
    /** Hangul bigrams of title and text (lib/pool/search-text.ts), for Korean partial matches. */
    searchTokens: text().notNull().default(''),
    search: tsvector().generatedAlwaysAs(
      (): SQL =>
        sql`setweight(to_tsvector('english', ${evidenceItems.title}), 'A') || setweight(to_tsvector('english', ${evidenceItems.text}), 'B') || to_tsvector('simple', ${evidenceItems.searchTokens})`,
    ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('evidence_items_company_published_idx').on(t.companyId, t.publishedDate),
    index('evidence_items_created_by_idx').on(t.createdById),
    index('evidence_items_search_idx').using('gin', t.search),
    uniqueIndex('evidence_items_dedup_key').on(t.companyId, t.sourceUrl, t.publishedDate, t.title),
    check('evidence_items_polarity_check', sql`${t.polarity} is null or ${oneOf(t.polarity, POLARITIES)}`),
  ],
);

export const documents = pgTable(
  'documents',
  {
    id: text().primaryKey(),
    companyId: text()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    title: text().notNull(),
    kind: text().notNull(),
    publishedDate: date({ mode: 'string' }).notNull(),
    sourceName: text().notNull(),
    sourceUrl: text().notNull(),
    language: text().notNull(),
    license: text(),
    upstream: text(),
    /** Front-matter fields we keep but do not model (note, call_date, date_note, …). */
    meta: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    body: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('documents_company_published_idx').on(t.companyId, t.publishedDate)],
);

export const documentChunks = pgTable(
  'document_chunks',
  {
    id: uuid().primaryKey().defaultRandom(),
    documentId: text()
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    ordinal: integer().notNull(),
    heading: text(),
    text: text().notNull(),
    charStart: integer().notNull(),
    charEnd: integer().notNull(),
    searchTokens: text().notNull().default(''),
    search: tsvector().generatedAlwaysAs(
      (): SQL =>
        sql`setweight(to_tsvector('english', coalesce(${documentChunks.heading}, '')), 'A') || setweight(to_tsvector('english', ${documentChunks.text}), 'B') || to_tsvector('simple', ${documentChunks.searchTokens})`,
    ),
  },
  (t) => [uniqueIndex('document_chunks_document_ordinal_key').on(t.documentId, t.ordinal), index('document_chunks_search_idx').using('gin', t.search)],
);

/**
 * A candidate evidence item read out of an uploaded document (lib/pool/documents): a dated,
 * sourced statement with its place in the document (page, offsets into `documents.body`). It
 * enters the pool only when an RM accepts it, through the import's write path; `evidenceId` then
 * names the item, so the item's passage stays one click away.
 */
export const documentCandidates = pgTable(
  'document_candidates',
  {
    id: uuid().primaryKey().defaultRandom(),
    documentId: text()
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    companyId: text()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    status: text({ enum: CANDIDATE_STATUSES }).notNull().default('proposed'),
    proposedBy: text({ enum: CANDIDATE_PROPOSERS }).notNull(),
    /** The cue that proposed it (a rule's name, or the model's id). */
    reason: text().notNull(),
    category: text().notNull(),
    factor: text(),
    title: text().notNull(),
    text: text().notNull(),
    eventDate: date({ mode: 'string' }),
    publishedDate: date({ mode: 'string' }).notNull(),
    /** 1-based page of a PDF; null for HTML and XML. */
    page: integer(),
    charStart: integer().notNull(),
    charEnd: integer().notNull(),
    evidenceId: text().references(() => evidenceItems.id, { onDelete: 'set null' }),
    decidedById: uuid().references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('document_candidates_document_idx').on(t.documentId, t.charStart),
    index('document_candidates_company_idx').on(t.companyId),
    index('document_candidates_evidence_idx').on(t.evidenceId),
    index('document_candidates_decided_by_idx').on(t.decidedById),
    check('document_candidates_status_check', oneOf(t.status, CANDIDATE_STATUSES)),
    check('document_candidates_proposed_by_check', oneOf(t.proposedBy, CANDIDATE_PROPOSERS)),
    check('document_candidates_offsets_check', sql`${t.charStart} >= 0 and ${t.charEnd} > ${t.charStart}`),
  ],
);

/**
 * An RM's correction of an item's factor or polarity. Kept apart from the item, by its stable
 * id, so a re-import (even after the item was deleted) brings the correction back.
 */
export const evidenceTagOverrides = pgTable(
  'evidence_tag_overrides',
  {
    evidenceId: text().primaryKey(),
    factor: text().notNull(),
    polarity: text({ enum: POLARITIES }).notNull(),
    userId: uuid().references(() => users.id, { onDelete: 'set null' }),
    updatedAt: updatedAt(),
  },
  (t) => [index('evidence_tag_overrides_user_idx').on(t.userId)],
);

export const cases = pgTable(
  'cases',
  {
    id: uuid().primaryKey().defaultRandom(),
    companyId: text()
      .notNull()
      .references(() => companies.id, { onDelete: 'restrict' }),
    ownerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    title: text().notNull(),
    loanAmount: numeric({ precision: 20, scale: 2 }).notNull(),
    loanCurrency: text().notNull(),
    loanPurpose: text().notNull(),
    loanTenorMonths: integer().notNull(),
    asOfDate: date({ mode: 'string' }).notNull(),
    notes: text(),
    status: text({ enum: CASE_STATUSES }).notNull().default('draft'),
    submittedAt: timestamp({ withTimezone: true }),
    /** The RM's cover note to the committee with the latest submission (optional). */
    submissionNote: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('cases_company_idx').on(t.companyId),
    index('cases_owner_idx').on(t.ownerId),
    index('cases_status_idx').on(t.status),
    check('cases_status_check', oneOf(t.status, CASE_STATUSES)),
    check('cases_loan_amount_check', sql`${t.loanAmount} > 0`),
    check('cases_tenor_check', sql`${t.loanTenorMonths} > 0`),
  ],
);

export const runs = pgTable(
  'runs',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** The case it belongs to; null for runs started from the command line or a benchmark. */
    caseId: uuid().references(() => cases.id, { onDelete: 'cascade' }),
    companyId: text()
      .notNull()
      .references(() => companies.id, { onDelete: 'restrict' }),
    /** Null for runs started from the command line. */
    createdById: uuid().references(() => users.id, { onDelete: 'restrict' }),
    protocol: text({ enum: PROTOCOLS }).notNull(),
    /** Language, recency window, max web searches, temperature, seed, budgets, … */
    // A SQL default rather than `{}`, which is no RunParams: every run the app creates carries its
    // full parameters (lib/debate/engine.ts createRun), the default only serves bare inserts.
    params: jsonb()
      .$type<RunParams>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    provider: text().notNull(),
    model: text().notNull(),
    mode: text({ enum: RUN_MODES }).notNull().default('dag'),
    status: text({ enum: RUN_STATUSES }).notNull().default('queued'),
    error: text(),
    /** The same reason as a phrase of lib/i18n/messages/run-failures.ts, which the run page renders in the reader's language; null for reasons stored before phrases were kept. */
    errorPhrase: jsonb().$type<Phrase>(),
    /**
     * The pool evidence the run cited, as it read when the run finished (title, excerpt, source,
     * link, dates, reading): reports and exports show this, not the live pool item, so editing
     * the pool later cannot change a submitted or decided report. Null for runs finished before
     * snapshots existed.
     */
    citedEvidence: jsonb().$type<CitedEvidenceSnapshot[]>(),
    /** Web results captured during the run: citable like pool evidence, scoped to this run. */
    webEvidence: jsonb().$type<StoredWebResult[]>().notNull().default([]),
    /** The decisive credit events found in the pool at the run's as-of date (lib/pool/red-flags.ts). */
    redFlags: jsonb().$type<RedFlag[]>().notNull().default([]),
    /** Set when the run ended as insufficient evidence: what the pool held against the threshold. */
    shortfall: jsonb().$type<EvidenceShortfall>(),
    promptTokens: integer().notNull().default(0),
    /** Of promptTokens, those the provider said it served from its prompt cache (usage.prompt_tokens_details.cached_tokens); 0 when it did not say. */
    cachedTokens: integer().notNull().default(0),
    completionTokens: integer().notNull().default(0),
    costUsd: numeric({ precision: 14, scale: 6 }).notNull().default('0'),
    createdAt: createdAt(),
    /** When the run's latest attempt started (a retry starts a new one: setRunStatus in lib/db/queries/runs.ts). */
    startedAt: timestamp({ withTimezone: true }),
    finishedAt: timestamp({ withTimezone: true }),
    /**
     * What the run's earlier attempts took, each from its start to its end, summed when a retry
     * requeues the run: the run's elapsed time is this plus its latest attempt's, not the span
     * from its first start to its last end (which would count the hours it lay failed).
     */
    priorElapsedMs: bigint({ mode: 'number' }).notNull().default(0),
    /** The sequence number of the run's latest event (run_events): each event takes the next under this row's lock. */
    eventSeq: integer().notNull().default(0),
    /** The queue worker executing the run (PostgreSQL mode); null when no worker holds it. */
    workerId: text(),
    /** The holder renews this every few seconds; once it passes, another worker may take the run over. */
    leaseExpiresAt: timestamp({ withTimezone: true }),
    /**
     * The stability set the run was started in ("Run N times", docs/stability.md): the runs that
     * share it are compared with each other. Null for a run started on its own.
     */
    stabilitySetId: uuid(),
  },
  (t) => [
    index('runs_case_idx').on(t.caseId),
    index('runs_stability_set_idx').on(t.stabilitySetId),
    index('runs_company_idx').on(t.companyId),
    index('runs_created_by_idx').on(t.createdById),
    index('runs_status_idx').on(t.status),
    check('runs_status_check', oneOf(t.status, RUN_STATUSES)),
    check('runs_protocol_check', oneOf(t.protocol, PROTOCOLS)),
  ],
);

/**
 * A run's events in the order they happened (lib/debate/event-log.ts): what a viewer who arrives
 * late, reloads or watches from another app instance replays. A running step's answer so far and
 * its spend so far are kept once each, the latest replacing the one before, and go by the run's
 * end; every other event stays as it was recorded.
 */
export const runEvents = pgTable(
  'run_events',
  {
    runId: uuid()
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    seq: integer().notNull(),
    type: text().notNull(),
    /** The step the event is about; null for the run's own events. */
    stepId: text(),
    body: jsonb().$type<RunEvent>().notNull(),
    at: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);

export const runSteps = pgTable(
  'run_steps',
  {
    id: uuid().primaryKey().defaultRandom(),
    runId: uuid()
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    /** The protocol's step id, e.g. `D5` or `AG`. */
    stepId: text().notNull(),
    /** Position in protocol order, for display. */
    ordinal: integer().notNull(),
    agent: text().notNull(),
    team: text({ enum: TEAMS }).notNull(),
    act: text().notNull(),
    contextStepIds: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    status: text({ enum: STEP_STATUSES }).notNull().default('pending'),
    attempt: integer().notNull().default(0),
    text: text(),
    /** The validated output, its citations marked verified or not (lib/debate/checks.ts); null until done. */
    output: jsonb().$type<StepOutput>(),
    /** Web searches the step made: query and number of results. */
    toolCalls: jsonb().$type<ToolCallRecord[]>().notNull().default([]),
    /** What was changed in the model's answers to take them in, attempt by attempt. */
    repairs: jsonb().$type<StepRepair[]>().notNull().default([]),
    /**
     * A sectioned step's calls that finished before the step was saved (lib/domain/stored.ts,
     * KeptSection): a run resumed after a stop asks only the rest. Null once the step is done.
     */
    sections: jsonb().$type<KeptSection[]>(),
    error: text(),
    /** The step's error as a phrase (see runs.errorPhrase). */
    errorPhrase: jsonb().$type<Phrase>(),
    promptTokens: integer().notNull().default(0),
    /** Of promptTokens, those served from the provider's prompt cache (see runs.cachedTokens). */
    cachedTokens: integer().notNull().default(0),
    completionTokens: integer().notNull().default(0),
    costUsd: numeric({ precision: 14, scale: 6 }).notNull().default('0'),
    startedAt: timestamp({ withTimezone: true }),
    finishedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex('run_steps_run_step_key').on(t.runId, t.stepId), check('run_steps_status_check', oneOf(t.status, STEP_STATUSES))],
);

/**
 * Every model call a run's steps made, one row per try, as it was sent and answered: the case
 * file's record of what the model saw and said (docs/case-file.md). Request and answer are gzip
 * (fflate), each side capped before compression; the sha256 covers the side as stored, before
 * compression. Written under the run's lease, so an attempt fenced out writes nothing.
 */
export const runCalls = pgTable(
  'run_calls',
  {
    id: uuid().primaryKey().defaultRandom(),
    runId: uuid()
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    stepId: text().notNull(),
    /** The section a sectioned step's call wrote; null for a whole step's call. */
    partKey: text(),
    /** The try as the engine numbers it (the step's attempt, or the section call's try). */
    attempt: integer().notNull(),
    /** The row's order among the run's calls of this step and part, from 1. */
    callNo: integer().notNull(),
    /** The queue worker's attempt that made the call; null outside the queue (CLI, tests). */
    execution: text(),
    provider: text().notNull(),
    model: text().notNull(),
    isLlm: boolean().notNull(),
    request: bytea().notNull(),
    requestBytes: integer().notNull(),
    requestSha256: text().notNull(),
    answer: bytea().notNull(),
    answerBytes: integer().notNull(),
    answerSha256: text().notNull(),
    /** True when a side was longer than the cap and cut, with a marker; its *Bytes is the length before the cut. */
    requestTruncated: boolean().notNull().default(false),
    answerTruncated: boolean().notNull().default(false),
    finishReason: text(),
    /** The provider's error, when the call threw instead of answering. */
    error: text(),
    usage: jsonb().$type<{ promptTokens: number; completionTokens: number; cachedTokens?: number }>(),
    startedAt: timestamp({ withTimezone: true }).notNull(),
    finishedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('run_calls_run_step_idx').on(t.runId, t.stepId)],
);

export const reports = pgTable('reports', {
  id: uuid().primaryKey().defaultRandom(),
  runId: uuid()
    .notNull()
    .unique('reports_run_key')
    .references(() => runs.id, { onDelete: 'cascade' }),
  /** The output of the protocol's report step. */
  content: jsonb().$type<StepOutput>().notNull(),
  /** Final checks: undated/unsourced citations, stale evidence, reused factors, language. */
  checks: jsonb().$type<FinalCheck[]>().notNull().default([]),
  createdAt: createdAt(),
});

/**
 * An RM's reason for submitting a case with a final check failed on one of its finished runs, or
 * with a decisive red flag no finished run addresses (lib/report/acknowledgements.ts). One row per
 * item per submission: `submittedAt` is the case's `submitted_at` of the round it went with, so a
 * resubmission asks again and keeps the earlier rounds' rows.
 */
export const submissionAcknowledgements = pgTable(
  'submission_acknowledgements',
  {
    id: uuid().primaryKey().defaultRandom(),
    caseId: uuid()
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    submittedAt: timestamp({ withTimezone: true }).notNull(),
    kind: text({ enum: ACK_KINDS }).notNull(),
    /** `check:<runId>:<checkId>` or `flag:<evidenceId>` (lib/domain/acknowledgements.ts). */
    itemKey: text().notNull(),
    runId: uuid().references(() => runs.id, { onDelete: 'cascade' }),
    checkId: text(),
    evidenceId: text(),
    /** The item as it stood: a check's count, a flag's title and date. */
    detail: jsonb().$type<AckDetail>().notNull().default({}),
    reason: text().notNull(),
    /** The item's place in the list the RM was shown: checks by run, then red flags. */
    position: integer().notNull(),
    acknowledgedById: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('submission_acknowledgements_round_item_key').on(t.caseId, t.submittedAt, t.itemKey),
    index('submission_acknowledgements_run_idx').on(t.runId),
    index('submission_acknowledgements_by_idx').on(t.acknowledgedById),
    check('submission_acknowledgements_kind_check', oneOf(t.kind, ACK_KINDS)),
    check('submission_acknowledgements_reason_check', sql`length(btrim(${t.reason})) between 1 and ${sql.raw(String(ACK_REASON_MAX))}`),
  ],
);

export const comments = pgTable(
  'comments',
  {
    id: uuid().primaryKey().defaultRandom(),
    caseId: uuid()
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    runId: uuid().references(() => runs.id, { onDelete: 'cascade' }),
    /** Anchor: a turn (`stepId`) and optionally one of its claims. */
    stepId: text(),
    claimId: text(),
    parentId: uuid().references((): AnyPgColumn => comments.id, { onDelete: 'cascade' }),
    authorId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    body: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('comments_case_idx').on(t.caseId),
    index('comments_run_idx').on(t.runId),
    index('comments_parent_idx').on(t.parentId),
    index('comments_author_idx').on(t.authorId),
  ],
);

export const decisions = pgTable(
  'decisions',
  {
    id: uuid().primaryKey().defaultRandom(),
    caseId: uuid()
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    decidedById: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    outcome: text({ enum: DECISION_OUTCOMES }).notNull(),
    rationale: text().notNull(),
    conditions: text(),
    createdAt: createdAt(),
  },
  (t) => [
    index('decisions_case_idx').on(t.caseId),
    index('decisions_decided_by_idx').on(t.decidedById),
    check('decisions_outcome_check', oneOf(t.outcome, DECISION_OUTCOMES)),
  ],
);

/**
 * One committee member's vote on a submission round (the case's `submittedAt`), with what they
 * confirmed reading and the AI outputs they overrode (docs/oversight.md). A member may change their
 * vote until the round is final; `decisionId` is set on the votes that made the decision.
 */
export const decisionVotes = pgTable(
  'decision_votes',
  {
    id: uuid().primaryKey().defaultRandom(),
    caseId: uuid()
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    submittedAt: timestamp({ withTimezone: true }).notNull(),
    voterId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    outcome: text({ enum: DECISION_OUTCOMES }).notNull(),
    rationale: text().notNull(),
    conditions: text(),
    /** What the member confirmed having read: the report, and the failed checks as they were listed. */
    confirmed: jsonb().$type<VoteConfirmation>().notNull(),
    /** The AI outputs (a report topic or a turn's claim) the member overrode, each with a reason. */
    overrides: jsonb().$type<VoteOverride[]>().notNull().default([]),
    /** The quorum in force when the vote was cast. */
    quorum: integer().notNull(),
    decisionId: uuid().references(() => decisions.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('decision_votes_round_voter_key').on(t.caseId, t.submittedAt, t.voterId),
    index('decision_votes_voter_idx').on(t.voterId),
    index('decision_votes_decision_idx').on(t.decisionId),
    check('decision_votes_outcome_check', oneOf(t.outcome, DECISION_OUTCOMES)),
    check('decision_votes_quorum_check', sql`${t.quorum} between 1 and 5`),
  ],
);

/**
 * Append-only and hash-chained: each row's hash covers its content and the previous row's
 * hash, so editing or deleting any row breaks every link after it (lib/db/queries/audit.ts).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    seq: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** No cascade: the hash covers the actor, and the database refuses UPDATE on this table. */
    actorId: uuid().references(() => users.id, { onDelete: 'no action' }),
    action: text().notNull(),
    entityType: text().notNull(),
    entityId: text(),
    detail: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    prevHash: text().notNull(),
    hash: text().notNull(),
    /** True when `hash` is an HMAC with the audit key; false for entries written before keying. */
    keyed: boolean().notNull().default(false),
  },
  (t) => [index('audit_log_actor_idx').on(t.actorId), index('audit_log_entity_idx').on(t.entityType, t.entityId)],
);

/**
 * The chain head as it was after an append, keyed with the audit secret, in a table of its own
 * (also append-only): deleting the newest audit entries leaves a checkpoint naming an entry that
 * is gone, which verification reports.
 */
export const auditCheckpoints = pgTable('audit_checkpoints', {
  seq: bigint({ mode: 'number' }).primaryKey(),
  hash: text().notNull(),
  mac: text().notNull(),
  at: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Where keying began, written once and keyed: every audit entry after `lastUnkeyed` (0: from the
 * first) must be keyed, and the keyed chain starts from `headHash`, the hash of that entry
 * (GENESIS_HASH for 0). One row (`id` is always true), append-only like the log. Without it a
 * superuser could mark every entry as written before keying and re-chain the log with plain
 * hashes; verification fails when it is missing or does not carry a valid MAC
 * (lib/db/queries/audit.ts, drizzle/0016_audit_genesis.sql).
 */
export const auditGenesis = pgTable(
  'audit_genesis',
  {
    id: boolean().primaryKey().default(true),
    lastUnkeyed: bigint({ mode: 'number' }).notNull(),
    headHash: text().notNull(),
    mac: text().notNull(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('audit_genesis_one_row', sql`${t.id}`)],
);

/**
 * What one purge batch removed from the head of the audit log (docs/retention.md), keyed with the
 * audit secret: the seqs `firstSeq`..`lastSeq`, how many entries that was, and the hash of the last
 * of them, from which the entries kept chain on. Verification starts after the newest one, so the
 * chain still verifies once its oldest entries are gone, and a record edited or forged without the
 * key is a break. Append-only; the database lets audit entries and checkpoints be deleted only up
 * to the newest record's `lastSeq` (drizzle/0022_retention.sql).
 */
export const auditPurges = pgTable('audit_purges', {
  id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  firstSeq: bigint({ mode: 'number' }).notNull(),
  lastSeq: bigint({ mode: 'number' }).notNull(),
  count: integer().notNull(),
  lastHash: text().notNull(),
  mac: text().notNull(),
  at: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * A legal hold: while it is not lifted, the purge keeps the case (or, for a borrower, every case of
 * it) and everything that belongs to it, audit entries included (docs/retention.md).
 */
export const legalHolds = pgTable(
  'legal_holds',
  {
    id: uuid().primaryKey().defaultRandom(),
    caseId: uuid().references(() => cases.id, { onDelete: 'cascade' }),
    companyId: text().references(() => companies.id, { onDelete: 'cascade' }),
    reason: text().notNull(),
    placedById: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    placedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    liftedById: uuid().references(() => users.id, { onDelete: 'restrict' }),
    liftedAt: timestamp({ withTimezone: true }),
    liftReason: text(),
  },
  (t) => [
    index('legal_holds_case_idx').on(t.caseId),
    index('legal_holds_company_idx').on(t.companyId),
    index('legal_holds_placed_by_idx').on(t.placedById),
    index('legal_holds_lifted_by_idx').on(t.liftedById),
    check('legal_holds_target_check', sql`(${t.caseId} is null) <> (${t.companyId} is null)`),
    check('legal_holds_reason_check', sql`length(btrim(${t.reason})) between 1 and 1000`),
  ],
);

export const studies = pgTable(
  'studies',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    status: text({ enum: STUDY_STATUSES }).notNull().default('draft'),
    // --- studies additions (evaluation studio) ---
    /** Seed of the per-evaluator report orders (lib/eval/study-design.ts), kept so an order can be reproduced. */
    seed: integer().notNull().default(0),
    openedAt: timestamp({ withTimezone: true }),
    closedAt: timestamp({ withTimezone: true }),
    // --- end studies additions ---
    createdById: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
  },
  (t) => [index('studies_created_by_idx').on(t.createdById)],
);

/** One report shown to one evaluator, under an opaque id that reveals nothing of the run. */
export const studyAssignments = pgTable(
  'study_assignments',
  {
    id: uuid().primaryKey().defaultRandom(),
    studyId: uuid()
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    evaluatorId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    reportId: uuid()
      .notNull()
      .references(() => reports.id, { onDelete: 'restrict' }),
    position: integer().notNull(),
    answers: jsonb().$type<Answers>().notNull().default({}),
    // --- studies additions (evaluation studio) ---
    /** Last autosave of the answers. */
    savedAt: timestamp({ withTimezone: true }),
    // --- end studies additions ---
    submittedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('study_assignments_study_idx').on(t.studyId),
    index('study_assignments_evaluator_idx').on(t.evaluatorId),
    index('study_assignments_report_idx').on(t.reportId),
    uniqueIndex('study_assignments_unique_key').on(t.studyId, t.evaluatorId, t.reportId),
  ],
);

/** Instance-wide settings an admin may change in the app (secrets stay in the environment). */
export const settings = pgTable(
  'settings',
  {
    key: text().primaryKey(),
    value: jsonb().notNull(),
    updatedById: uuid().references(() => users.id, { onDelete: 'set null' }),
    updatedAt: updatedAt(),
  },
  (t) => [index('settings_updated_by_idx').on(t.updatedById)],
);

// ---------------------------------------------------------------- automated judges (lib/eval/judges.ts)

/**
 * One automated judgment, kept so a reader sees earlier verdicts and their model next to the
 * run. A rubric judges `runId`; a pairwise judgment compares `runId` (Report "a") with
 * `otherRunId` ("b"). Two foreign keys rather than an id array, so deleting a case or run
 * removes its judgments and the indexes serve both lookups.
 */
export const judgments = pgTable(
  'judgments',
  {
    id: uuid().primaryKey().defaultRandom(),
    kind: text({ enum: JUDGMENT_KINDS }).notNull(),
    runId: uuid()
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    otherRunId: uuid().references(() => runs.id, { onDelete: 'cascade' }),
    /** A pairwise result for `pairwise`, a rubric result for `rubric` (lib/domain/judgments.ts). */
    result: jsonb().$type<PairwiseResult | RubricResult>().notNull(),
    provider: text().notNull(),
    model: text().notNull(),
    createdById: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('judgments_run_idx').on(t.runId),
    index('judgments_other_run_idx').on(t.otherRunId),
    index('judgments_created_by_idx').on(t.createdById),
    check('judgments_kind_check', oneOf(t.kind, JUDGMENT_KINDS)),
    // A pairwise judgment has two different runs; a rubric judgment has one.
    check(
      'judgments_runs_check',
      sql`(${t.kind} = 'pairwise' and ${t.otherRunId} is not null and ${t.otherRunId} <> ${t.runId}) or (${t.kind} = 'rubric' and ${t.otherRunId} is null)`,
    ),
  ],
);

/**
 * Counters that must add up across every app instance and worker, e.g. provider errors by code
 * for /api/metrics. One row per counter and label set, incremented in place
 * (lib/ops/counters.ts): an atomic upsert, so concurrent processes never lose an increment.
 */
export const opsCounters = pgTable(
  'ops_counters',
  {
    name: text().notNull(),
    /** Prometheus labels, e.g. {"provider":"openai","code":"429"}; jsonb equality ignores key order. */
    labels: jsonb().$type<Record<string, string>>().notNull().default({}),
    value: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ name: 'ops_counters_pkey', columns: [t.name, t.labels] })],
);

/**
 * Requests and tokens sent to one provider and model in one minute, shared by every process on
 * the database, so OPENAI_RPM and OPENAI_TPM hold across workers (lib/llm/rate-limit.ts). Rows
 * older than an hour are pruned by the limiter.
 */
export const providerRateWindows = pgTable(
  'provider_rate_windows',
  {
    /** `openai:<model>`. */
    key: text().notNull(),
    windowStart: timestamp({ withTimezone: true }).notNull(),
    requests: integer().notNull().default(0),
    tokens: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index('provider_rate_windows_start_idx').on(t.windowStart)],
);

export type User = typeof users.$inferSelect;
export type Company = typeof companies.$inferSelect;
export type EvidenceItem = typeof evidenceItems.$inferSelect;
export type Case = typeof cases.$inferSelect;
export type Run = typeof runs.$inferSelect;

/**
 * A user's inbox: one row per thing they should know about, linking to its place (a case, a
 * run, a study). `detail` is a short, bounded line written by the server (a comment's first
 * words, a decision's outcome), never markup. Read when `readAt` is set.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text({ enum: NOTIFICATION_KINDS }).notNull(),
    caseId: uuid().references(() => cases.id, { onDelete: 'cascade' }),
    runId: uuid().references(() => runs.id, { onDelete: 'cascade' }),
    studyId: uuid().references(() => studies.id, { onDelete: 'cascade' }),
    /** For `watch_alert`: the alert, which holds the items that raised it. */
    watchAlertId: uuid().references((): AnyPgColumn => watchAlerts.id, { onDelete: 'cascade' }),
    actorId: uuid().references(() => users.id, { onDelete: 'set null' }),
    detail: text(),
    createdAt: createdAt(),
    readAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('notifications_user_created_idx').on(t.userId, t.createdAt),
    index('notifications_user_unread_idx')
      .on(t.userId)
      .where(sql`${t.readAt} is null`),
    index('notifications_watch_alert_idx').on(t.watchAlertId),
    check('notifications_kind_check', oneOf(t.kind, NOTIFICATION_KINDS)),
    check('notifications_detail_length_check', sql`${t.detail} is null or char_length(${t.detail}) <= 400`),
  ],
);

/**
 * An RM's watch on a borrower (lib/jobs/watch.ts): how often its filings are checked, which of
 * the RM's cases a re-screen copies, and whether a re-screen starts by itself on an alert. A
 * pass claims a due entry (`claimedBy` until `claimedUntil`) so two passes never check it at once.
 */
export const watchEntries = pgTable(
  'watch_entries',
  {
    id: uuid().primaryKey().defaultRandom(),
    ownerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: text()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** The case a re-screen copies (borrower, loan terms) with today's as-of; null: none yet. */
    caseId: uuid().references(() => cases.id, { onDelete: 'set null' }),
    frequency: text({ enum: WATCH_FREQUENCIES }).notNull(),
    autoRescreen: boolean().notNull().default(false),
    /** New adverse items in one check that raise an alert without a red flag. */
    adverseThreshold: integer().notNull().default(3),
    nextCheckAt: timestamp({ withTimezone: true }).notNull(),
    /** Null until the first check, which records what the sources already hold as the baseline. */
    lastCheckedAt: timestamp({ withTimezone: true }),
    lastError: text(),
    /** The same problems as kinds the watch panel words in the reader's language (lib/domain/watch.ts). */
    lastProblems: jsonb().$type<WatchProblem[]>(),
    claimedBy: text(),
    claimedUntil: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('watch_entries_owner_company_key').on(t.ownerId, t.companyId),
    index('watch_entries_company_idx').on(t.companyId),
    index('watch_entries_case_idx').on(t.caseId),
    index('watch_entries_next_check_idx').on(t.nextCheckAt),
    check('watch_entries_frequency_check', oneOf(t.frequency, WATCH_FREQUENCIES)),
    check('watch_entries_threshold_check', sql`${t.adverseThreshold} between 1 and 100`),
  ],
);

/** The filings one watch entry has already judged, so each is news to it once. */
export const watchSeen = pgTable(
  'watch_seen',
  {
    entryId: uuid()
      .notNull()
      .references(() => watchEntries.id, { onDelete: 'cascade' }),
    evidenceId: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.entryId, t.evidenceId] })],
);

/** When a watch check first saw a filing in its source: the company page's timeline. */
export const filingSightings = pgTable(
  'filing_sightings',
  {
    evidenceId: text()
      .primaryKey()
      .references(() => evidenceItems.id, { onDelete: 'cascade' }),
    companyId: text()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    source: text().notNull(),
    seenAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('filing_sightings_company_seen_idx').on(t.companyId, t.seenAt)],
);

/** What one check found worth an RM's attention: the new red flags and adverse items, and the re-screen it led to. */
export const watchAlerts = pgTable(
  'watch_alerts',
  {
    id: uuid().primaryKey().defaultRandom(),
    entryId: uuid()
      .notNull()
      .references(() => watchEntries.id, { onDelete: 'cascade' }),
    companyId: text()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    redFlags: jsonb().$type<RedFlag[]>().notNull().default([]),
    /** Every new item that triggered it: the flagged ones and the new adverse ones. */
    evidenceIds: jsonb().$type<string[]>().notNull().default([]),
    adverseCount: integer().notNull().default(0),
    rescreenRunId: uuid().references(() => runs.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('watch_alerts_entry_idx').on(t.entryId), index('watch_alerts_company_idx').on(t.companyId), index('watch_alerts_run_idx').on(t.rescreenRunId)],
);

export type WatchEntry = typeof watchEntries.$inferSelect;
export type WatchAlert = typeof watchAlerts.$inferSelect;
