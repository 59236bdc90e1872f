// Where a report's cited source came from, as plain types: the snapshot a finished run keeps
// (lib/db/queries/cited-evidence.ts), this run's own web result, or the live pool. Pure, so the
// report model, the chips and the query modules share it without a database import.
import type { CitedEvidenceSnapshot } from '@/lib/domain/stored';

export type CitedSource = {
  title: string;
  url: string;
  publishedDate?: string;
  kind?: 'evidence' | 'passage' | 'web';
  /** True when this is the source as the run recorded it (its snapshot, or its own web result). */
  frozen?: boolean;
  /** A frozen pool source whose pool item has been edited since the run finished. */
  changedSincePublished?: boolean;
  /** A frozen pool source whose pool item has been deleted since the run finished. */
  removedFromPool?: boolean;
} & Partial<Omit<CitedEvidenceSnapshot, 'id' | 'title' | 'sourceUrl' | 'publishedDate' | 'kind'>>;

/**
 * `frozen`: a finished run with a snapshot; `live`: a run still going, read from the pool now;
 * `not-frozen`: a run that finished before snapshots existed, read from the pool now, so its
 * pool sources may have changed since.
 */
export type SourcesState = 'frozen' | 'live' | 'not-frozen';

/**
 * What a reader should be told about a finished run's pool source: edited or deleted in the pool
 * since the run finished, or read live because the run finished before snapshots (`notFrozen`).
 */
export type PoolNote = 'changed' | 'removed' | 'notFrozen';

/** The message key of each note, the same in lib/i18n/messages/report.ts and run.ts. */
export const POOL_NOTE_LABEL = { changed: 'changedInPool', removed: 'removedFromPool', notFrozen: 'notFrozen' } as const;

export function poolNoteOf(source: CitedSource | undefined): PoolNote | undefined {
  if (!source || source.kind === 'web') return undefined;
  if (source.removedFromPool) return 'removed';
  if (source.changedSincePublished) return 'changed';
  return source.frozen === false ? 'notFrozen' : undefined;
}
