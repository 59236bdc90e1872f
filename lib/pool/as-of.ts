// The one way agents read the knowledge pool. A case is analysed as of a date, and nothing
// published after that date may reach a prompt (docs/protocols.md): back-tests are only honest if
// the model cannot see the future. Every read therefore goes through these functions, which
// take the as-of date as a required argument and filter on it in SQL, and mark evidence older
// than the recency window as stale so an agent can say when it leans on old material.
import type { Executor } from '@/lib/db/client';
import { selectDocumentsAsOf, selectEvidencePageAsOf, type DocumentRowAsOf } from '@/lib/db/queries/as-of';
import type { FactorSource, Polarity } from '@/lib/domain/vocabulary';
import { yieldToEventLoop } from '@/lib/event-loop';
import type { PoolEvidence } from '@/lib/pool/types';
import { addDays, isIsoDay } from '@/lib/util/dates';

export class AsOfDateError extends Error {}

/** Throws a readable error unless `value` is a real calendar date written YYYY-MM-DD. */
export function assertIsoDate(value: unknown, label = 'as-of date'): asserts value is string {
  if (!isIsoDay(value)) {
    throw new AsOfDateError(`The ${label} must be a real date written YYYY-MM-DD (got ${JSON.stringify(value)}).`);
  }
}

function assertRecencyDays(recencyDays: unknown): asserts recencyDays is number {
  if (typeof recencyDays !== 'number' || !Number.isInteger(recencyDays) || recencyDays < 0) {
    throw new AsOfDateError(`The recency window must be a whole number of days, 0 or more (got ${JSON.stringify(recencyDays)}).`);
  }
}

/**
 * as-of − R days. Evidence published on the cutoff is still fresh; anything before it is stale.
 * R = 0 makes everything published before the as-of date stale.
 */
export function recencyCutoff(asOf: string, recencyDays: number): string {
  assertIsoDate(asOf);
  assertRecencyDays(recencyDays);
  // Stops at 0001-01-01 for a window longer than the calendar.
  return addDays(asOf, -recencyDays);
}

/** ISO dates compare correctly as strings. No cutoff (no recency window) means nothing is stale. */
export function isStale(publishedDate: string, cutoff: string | null): boolean {
  return cutoff !== null && publishedDate < cutoff;
}

function assertLimit(limit: number | undefined) {
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
    throw new RangeError(`limit must be a positive whole number (got ${limit}).`);
  }
}

/** Pool evidence as an agent may read it: with the RM's tag applied and a staleness flag. */
export type EvidenceAsOf = Omit<PoolEvidence, 'upstream' | 'license' | 'retrievedAt'> & {
  /** The RM's correction when there is one, else the item's own tag. */
  factor: string | null;
  polarity: Polarity | null;
  factorSource: FactorSource | null;
  /** Published before as-of − R: an agent that cites it must say the evidence is old. */
  stale: boolean;
};

export type ReadEvidenceInput = {
  db: Executor;
  companyId: string;
  asOf: string;
  recencyDays: number;
  /** Only items tagged with this guideline factor (after RM corrections). */
  factor?: string;
  limit?: number;
};

/**
 * Rows per query of a read without a limit: a company with tens of thousands of items is read a
 * page at a time, with a turn of the event loop between pages, because on the embedded database
 * each query runs on the server's own thread and a run's read would hold up every request.
 */
const EVIDENCE_PAGE = 2_000;

/** A company's evidence published on or before `asOf`, newest first. */
export async function readEvidence({ db, companyId, asOf, recencyDays, factor, limit }: ReadEvidenceInput): Promise<EvidenceAsOf[]> {
  const cutoff = recencyCutoff(asOf, recencyDays);
  assertLimit(limit);
  const toItem = (row: Omit<EvidenceAsOf, 'stale'>): EvidenceAsOf => ({ ...row, stale: isStale(row.publishedDate, cutoff) });
  if (limit !== undefined) return (await selectEvidencePageAsOf({ db, companyId, asOf, factor, limit })).map(toItem);
  const out: EvidenceAsOf[] = [];
  let after: { publishedDate: string; id: string } | undefined;
  for (;;) {
    const rows = await selectEvidencePageAsOf({ db, companyId, asOf, factor, limit: EVIDENCE_PAGE, after });
    for (const row of rows) out.push(toItem(row));
    if (rows.length < EVIDENCE_PAGE) return out;
    after = rows[rows.length - 1];
    await yieldToEventLoop();
  }
}

export type DocumentAsOf = DocumentRowAsOf & { stale: boolean };

export type ReadDocumentsInput = {
  db: Executor;
  companyId: string;
  asOf: string;
  recencyDays: number;
  limit?: number;
  includeBody?: boolean;
};

/** A company's documents published on or before `asOf`, newest first. */
export async function readDocumentsAsOf({ db, companyId, asOf, recencyDays, limit, includeBody = false }: ReadDocumentsInput): Promise<DocumentAsOf[]> {
  const cutoff = recencyCutoff(asOf, recencyDays);
  assertLimit(limit);
  const rows = await selectDocumentsAsOf({ db, companyId, asOf, limit, includeBody });
  return rows.map((row) => ({ ...row, stale: isStale(row.publishedDate, cutoff) }));
}
