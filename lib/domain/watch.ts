// The portfolio watch as pages hand it to components (lib/jobs/watch.ts does the watching).
import type { WatchFrequency } from './vocabulary';

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
};

/** One of the RM's cases on the borrower, offered as the case a re-screen copies. */
export type WatchCaseOption = { id: string; title: string; asOfDate: string };

/** A filing on the company page's timeline: when it was published and when the watch first saw it. */
export type SightingView = { evidenceId: string; title: string; publishedDate: string; sourceName: string; sourceUrl: string; polarity: string | null; source: string; seenAt: string };
