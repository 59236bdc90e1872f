// The portfolio watch. One pass (`watchPass`) claims the watch entries that are due, fetches each
// borrower's filings through the OpenDART and EDGAR connectors (the same import: validation,
// duplicates, factor tagging, audit), records when each filing was first seen, and judges what
// is new to the entry: a red flag (lib/pool/red-flags.ts), or at least the entry's threshold of
// new adverse items, raises an alert in the inbox, and an entry set to do so starts a re-screen.
// An entry's first check only records what the sources already hold: that is the baseline, not news.
//
// The pass takes its clock as an argument, so tests drive it; the scheduler (watch-scheduler.ts)
// only calls it. Passes in several processes at once are safe: each claims its entries with
// SKIP LOCKED and writes an entry's verdict only while it still holds the claim.
import { randomUUID } from 'node:crypto';
import type { Db } from '@/lib/db/client';
import { appendAudit } from '@/lib/db/queries/audit';
import { getCaseById, insertCase } from '@/lib/db/queries/cases';
import { getCompanyById } from '@/lib/db/queries/companies';
import { notifyWatchAlert } from '@/lib/db/queries/notifications';
import {
  claimDueWatchEntries,
  existingEvidenceIds,
  finishWatchCheck,
  getWatchAlert,
  holdsWatchClaim,
  insertWatchAlert,
  listEvidenceForWatch,
  recordSightings,
  setAlertRescreenRun,
  takeUnseenForEntry,
} from '@/lib/db/queries/watch';
import type { Company, WatchEntry } from '@/lib/db/schema';
import { DEFAULT_RUN_PARAMS } from '@/lib/debate/engine';
import type { Language, ProtocolId } from '@/lib/domain/protocol';
import type { RedFlag } from '@/lib/domain/red-flags';
import type { WatchFrequency } from '@/lib/domain/vocabulary';
import type { WatchProblem, WatchProblemKind } from '@/lib/domain/watch';
import { AppError } from '@/lib/errors';
import { say } from '@/lib/i18n';
import { watchMessages } from '@/lib/i18n/messages/watch';
import { startCaseRun } from '@/lib/jobs/case-runs';
import { getProvider } from '@/lib/llm';
import type { ModelProvider } from '@/lib/llm/types';
import { log } from '@/lib/ops/log';
import { DartError } from '@/lib/pool/connectors/dart';
import { EdgarError, type EdgarErrorStatus } from '@/lib/pool/connectors/edgar';
import { fetchFilings, filingSourceConfigured, filingSourcesFor, type FilingSource } from '@/lib/pool/connectors/fetch-filings';
import { findRedFlags, type RedFlagSource } from '@/lib/pool/red-flags';
import { isoDay } from '@/lib/util/dates';

const DAY_MS = 24 * 3600 * 1000;
export const WATCH_INTERVAL_MS: Record<WatchFrequency, number> = { daily: DAY_MS, weekly: 7 * DAY_MS };

/** How long a pass holds an entry it claimed; a pass that dies frees its entries after this. */
export const WATCH_CLAIM_MS = 15 * 60 * 1000;

export type WatchPassOptions = {
  db: Db;
  now?: Date;
  /** Names this pass's claims; unique per pass by default. */
  workerId?: string;
  /** Entries checked per pass at most; the rest wait for the next pass. */
  limit?: number;
  /** The model for automatic re-screens; the configured default when left out. */
  provider?: ModelProvider;
};

export type WatchCheck = {
  entryId: string;
  companyId: string;
  baseline: boolean;
  seen: number;
  fresh: number;
  alertId: string | null;
  rescreenRunId: string | null;
  error: string | null;
};

export type WatchAlertSummary = { redFlags: RedFlag[]; evidenceIds: string[]; adverseCount: number };

/**
 * What is worth an alert among the items new to an entry: every red flag, and the adverse items
 * when there are at least `threshold` of them. Null when nothing is.
 */
export function judgeNewItems(items: readonly (RedFlagSource & { polarity: string | null })[], threshold: number): WatchAlertSummary | null {
  const redFlags = findRedFlags(items);
  const adverse = items.filter((i) => i.polarity === 'adverse');
  const adverseAlert = adverse.length >= threshold;
  if (!redFlags.length && !adverseAlert) return null;
  const ids = [...new Set([...redFlags.flatMap((f) => [f.evidenceId, ...(f.alsoEvidenceIds ?? [])]), ...(adverseAlert ? adverse.map((i) => i.id) : [])])];
  return { redFlags, evidenceIds: ids, adverseCount: adverse.length };
}

/** The inbox line of an alert, in plain English (the inbox renders the alert itself per language). */
function alertDetail(summary: WatchAlertSummary): string {
  const flags = summary.redFlags.map((f) => `${f.kind.replace(/_/g, ' ')}: ${f.title}`);
  return [...flags, ...(summary.adverseCount ? [`${summary.adverseCount} new adverse item${summary.adverseCount === 1 ? '' : 's'}`] : [])].join('; ');
}

/** One entry's check; errors of one source are kept and the other source still read. */
type FetchOutcome = { ids: string[] } | { error: string; problem: WatchProblem };

// OpenDART statuses that refuse this request rather than the key: the request limit, improper
// access, too many companies at once.
const DART_REFUSALS = new Set(['020', '021', '101']);

/** What kept a check from reading `source`, as a kind the watch panel words for the RM. */
export function watchProblemOf(err: unknown, source: FilingSource): WatchProblem {
  const cause = err instanceof AppError ? err.cause : err;
  const kind = ((): WatchProblemKind => {
    if (cause instanceof DartError) {
      if (cause.status === 'config') return 'notConfigured';
      if (cause.isKeyProblem) return 'keyRejected';
      if (DART_REFUSALS.has(cause.status)) return 'refused';
      if (cause.status === 'http' || cause.status === '800') return 'unreachable';
      return 'unexpected';
    }
    if (cause instanceof EdgarError) {
      const byStatus: Record<EdgarErrorStatus, WatchProblemKind> = {
        config: 'notConfigured',
        forbidden: 'refused',
        'not-found': 'notFound',
        http: 'unreachable',
        'invalid-response': 'unexpected',
        input: 'unexpected',
      };
      return byStatus[cause.status];
    }
    return 'failed';
  })();
  return { kind, source };
}

/** One source's filings for a borrower, imported, with when they were seen; a failure is kept as its message. */
async function fetchSource(db: Db, company: Company, source: FilingSource, now: Date, entryId: string): Promise<FetchOutcome> {
  try {
    const report = await fetchFilings({ db, company, source, actorId: null, now });
    const ids = await existingEvidenceIds({ db, ids: report.evidenceIds });
    await recordSightings({ db, companyId: company.id, source, ids, seenAt: now });
    return { ids };
  } catch (err) {
    if (!(err instanceof AppError)) log.error('watch fetch failed', { component: 'watch', entryId, source, err });
    return { error: err instanceof AppError ? err.message : `${source}: the fetch failed.`, problem: watchProblemOf(err, source) };
  }
}

async function checkEntry({
  db,
  entry,
  now,
  workerId,
  provider,
  fetched,
}: {
  db: Db;
  entry: WatchEntry;
  now: Date;
  workerId: string;
  provider?: ModelProvider;
  fetched: Map<string, Promise<FetchOutcome>>;
}): Promise<WatchCheck> {
  const nextCheckAt = new Date(now.getTime() + WATCH_INTERVAL_MS[entry.frequency]);
  const result: WatchCheck = {
    entryId: entry.id,
    companyId: entry.companyId,
    baseline: entry.lastCheckedAt === null,
    seen: 0,
    fresh: 0,
    alertId: null,
    rescreenRunId: null,
    error: null,
  };
  const errors: string[] = [];
  const problems: WatchProblem[] = [];
  const company = await getCompanyById({ db, id: entry.companyId });
  const present: string[] = [];
  if (company) {
    const sources = filingSourcesFor(company).filter((s) => filingSourceConfigured(s));
    if (!sources.length) {
      errors.push('No filing source is configured for this borrower (OPENDART_API_KEY for a corp_code, SEC_USER_AGENT for a CIK).');
      problems.push({ kind: 'noSource' });
    }
    for (const source of sources) {
      // Several RMs may watch one borrower: its filings are fetched once a pass, not once an entry.
      const key = `${company.id}\u0000${source}`;
      if (!fetched.has(key)) fetched.set(key, fetchSource(db, company, source, now, entry.id));
      const outcome = await fetched.get(key)!;
      if ('ids' in outcome) present.push(...outcome.ids);
      else {
        errors.push(outcome.error);
        problems.push(outcome.problem);
      }
    }
  }
  result.seen = present.length;
  result.error = errors.length ? errors.join(' ').slice(0, 1_000) : null;

  let summary: WatchAlertSummary | null = null;
  await db.transaction(async (tx) => {
    // A pass that lost its claim (it ran past WATCH_CLAIM_MS and another took over) says nothing.
    if (!(await holdsWatchClaim({ db: tx, id: entry.id, workerId }))) return;
    const fresh = await takeUnseenForEntry({ db: tx, entryId: entry.id, ids: present });
    result.fresh = fresh.length;
    if (!result.baseline && fresh.length) {
      summary = judgeNewItems(await listEvidenceForWatch({ db: tx, ids: fresh }), entry.adverseThreshold);
      if (summary) {
        const alert = await insertWatchAlert({ db: tx, entryId: entry.id, companyId: entry.companyId, ...summary, createdAt: now });
        await notifyWatchAlert({ db: tx, alertId: alert.id, ownerId: entry.ownerId, caseId: entry.caseId, detail: alertDetail(summary) });
        result.alertId = alert.id;
      }
    }
    await finishWatchCheck({ db: tx, id: entry.id, workerId, checkedAt: now, nextCheckAt, error: result.error, problems });
  });

  if (result.alertId && entry.autoRescreen && entry.caseId) {
    try {
      const run = await rescreenFromAlert({ db, alertId: result.alertId, actorId: entry.ownerId, now, provider, automatic: true });
      result.rescreenRunId = run.runId;
    } catch (err) {
      // The alert stands; the RM re-screens by hand (a run limit or budget may have refused it).
      log.warn('automatic re-screen not started', { component: 'watch', entryId: entry.id, err });
    }
  }
  return result;
}

/** One pass over the due entries; returns what each check did. */
export async function watchPass({ db, now = new Date(), workerId = `watch-${randomUUID()}`, limit = 50, provider }: WatchPassOptions): Promise<WatchCheck[]> {
  const entries = await claimDueWatchEntries({ db, now, workerId, leaseMs: WATCH_CLAIM_MS, limit });
  const checks: WatchCheck[] = [];
  const fetched = new Map<string, Promise<FetchOutcome>>();
  for (const entry of entries) checks.push(await checkEntry({ db, entry, now, workerId, provider, fetched }));
  return checks;
}

/**
 * A re-screen from an alert: a new draft case that copies the watched case (borrower, loan
 * terms) as of today, and a KPD-MADS run on it through startCaseRun (the run limit and budgets
 * apply). The watched case stays as it was, whatever its state. Audited as `watch.rescreen`.
 * The caller checks that `actorId` owns the alert's entry.
 */
export async function rescreenFromAlert({
  db,
  alertId,
  actorId,
  now = new Date(),
  provider,
  automatic = false,
  protocolId = 'kpd-mads',
  language = DEFAULT_RUN_PARAMS.language,
}: {
  db: Db;
  alertId: string;
  actorId: string;
  now?: Date;
  provider?: ModelProvider;
  automatic?: boolean;
  protocolId?: ProtocolId;
  language?: Language;
}): Promise<{ caseId: string; runId: string }> {
  const found = await getWatchAlert({ db, id: alertId });
  if (!found || found.ownerId !== actorId) throw new AppError('not_found', say(watchMessages, 'errAlertGone'));
  if (!found.caseId) throw new AppError('conflict', say(watchMessages, 'noCaseToRescreen'));
  const source = await getCaseById({ db, id: found.caseId });
  if (!source || source.ownerId !== actorId) throw new AppError('not_found', say(watchMessages, 'errCaseGone'));
  const today = isoDay(now);
  const kase = await db.transaction(async (tx) => {
    const created = await insertCase({
      db: tx,
      values: {
        companyId: source.companyId,
        ownerId: actorId,
        title: `${source.title} — re-screen ${today}`.slice(0, 200),
        loanAmount: source.loanAmount,
        loanCurrency: source.loanCurrency,
        loanPurpose: source.loanPurpose,
        loanTenorMonths: source.loanTenorMonths,
        asOfDate: today,
        notes: source.notes,
      },
    });
    await appendAudit({
      tx,
      actorId,
      action: 'watch.rescreen',
      entityType: 'case',
      entityId: created.id,
      detail: { alertId, fromCaseId: source.id, asOf: today, automatic },
    });
    return created;
  });
  // A refused start (the run limit) leaves the new draft case for the RM to run later.
  const run = await startCaseRun({
    db,
    kase: { id: kase.id, companyId: source.companyId, asOfDate: today },
    actorId,
    protocolId,
    provider: provider ?? getProvider(),
    mode: 'dag',
    params: { language, recencyDays: DEFAULT_RUN_PARAMS.recencyDays, maxWebResults: DEFAULT_RUN_PARAMS.maxWebResults },
  });
  await setAlertRescreenRun({ db, alertId, runId: run.id });
  return { caseId: kase.id, runId: run.id };
}
