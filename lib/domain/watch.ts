// The portfolio watch as pages hand it to components (lib/jobs/watch.ts does the watching).
import type { WatchFrequency } from './vocabulary';

/**
 * What kept a check from reading a source, as the RM reads it in their language (the watch
 * panel); the connector's own English detail is kept beside it (watch_entries.last_error).
 */
export const WATCH_PROBLEMS = ['noSource', 'notConfigured', 'keyRejected', 'refused', 'notFound', 'unreachable', 'unexpected', 'failed'] as const;
export type WatchProblemKind = (typeof WATCH_PROBLEMS)[number];
/** `source`: the filing source concerned (`dart`, `edgar`); absent when the problem is the borrower's. */
export type WatchProblem = { kind: WatchProblemKind; source?: 'dart' | 'edgar' };

/**
 * What the watch can read for a borrower on this server, source by source, known before any check:
 * `reads` (the borrower has the source's identifier and the server is set up for it),
 * `notConfigured` (the identifier is there, the server's key or contact is not) or `noIdentifier`.
 */
export type WatchReach = { source: 'dart' | 'edgar'; status: 'reads' | 'notConfigured' | 'noIdentifier' };

/** The reach from what the borrower carries and which sources the server has set up. */
export function watchReach(company: { corpCode: string | null; cik: string | null }, configured: (source: 'dart' | 'edgar') => boolean): WatchReach[] {
  return (['dart', 'edgar'] as const).map((source) => {
    const id = source === 'dart' ? company.corpCode : company.cik;
    return { source, status: !id ? 'noIdentifier' : configured(source) ? 'reads' : 'notConfigured' };
  });
}

/** The signed-in RM's watch on one borrower. Times are ISO strings. */
export type WatchEntryView = {
  id: string;
  frequency: WatchFrequency;
  caseId: string | null;
  autoRescreen: boolean;
  adverseThreshold: number;
  nextCheckAt: string;
  lastCheckedAt: string | null;
  lastError: string | null;
  /** The last check's problems, one per source that failed; empty when it read every source. */
  lastProblems: WatchProblem[];
};

/** One of the RM's cases on the borrower, offered as the case a re-screen copies. */
export type WatchCaseOption = { id: string; title: string; asOfDate: string };

/** A filing on the company page's timeline: when it was published and when the watch first saw it. */
export type SightingView = {
  evidenceId: string;
  title: string;
  publishedDate: string;
  sourceName: string;
  sourceUrl: string;
  polarity: string | null;
  source: string;
  seenAt: string;
};
