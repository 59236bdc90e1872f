// Retention periods per record kind (docs/retention.md): how long each kind is kept after it is
// finished with, in months, 60 (five years) unless an admin sets another. Pure data and
// arithmetic, safe to import anywhere.

/** The kinds the purge deletes, in the order a pass takes them (the audit log last, so it can record the rest). */
export const RETENTION_KINDS = ['cases', 'runs', 'watch', 'notifications', 'sessions', 'audit'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

export type RetentionPeriods = Record<RetentionKind, number>;

export const DEFAULT_RETENTION_MONTHS = 60;
/** One month to fifty years. */
export const MIN_RETENTION_MONTHS = 1;
export const MAX_RETENTION_MONTHS = 600;

/** The `settings` row that holds the periods. */
export const RETENTION_SETTING_KEY = 'retention';

export const DEFAULT_RETENTION: RetentionPeriods = Object.fromEntries(RETENTION_KINDS.map((k) => [k, DEFAULT_RETENTION_MONTHS])) as RetentionPeriods;

export function isRetentionMonths(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= MIN_RETENTION_MONTHS && value <= MAX_RETENTION_MONTHS;
}

/**
 * The periods a stored setting gives, a kind missing or out of range taking the default: a
 * setting written by hand can never make the purge delete sooner than the default says.
 */
export function readRetention(stored: unknown): RetentionPeriods {
  const value = stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
  return Object.fromEntries(RETENTION_KINDS.map((k) => [k, isRetentionMonths(value[k]) ? value[k] : DEFAULT_RETENTION_MONTHS])) as RetentionPeriods;
}

/**
 * `now` less `months` calendar months, in UTC; a day past the end of the shorter month is its
 * last day (2029-03-31 less one month is 2029-02-28). Records older than this have expired.
 */
export function retentionCutoff(now: Date, months: number): Date {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth() - months;
  const target = new Date(Date.UTC(y, m, 1, now.getUTCHours(), now.getUTCMinutes(), now.getUTCSeconds(), now.getUTCMilliseconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(now.getUTCDate(), lastDay));
  return target;
}

/** The hold reason's bounds (the database checks the same). */
export const HOLD_REASON_MAX = 1000;
