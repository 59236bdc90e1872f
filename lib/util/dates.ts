// Plain calendar days written YYYY-MM-DD ("ISO days"): as-of dates, publication dates, recency
// cutoffs. A day is a string, not a Date, because the as-of and recency rules compare days and
// ISO days compare correctly as strings. "Today" is the UTC day unless a function says it is
// local. Years run from 0001 to 9999, the years YYYY can write; arithmetic that would leave that
// range stops at its ends.

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;
const FIRST_DAY = '0001-01-01';
const LAST_DAY = '9999-12-31';
const FIRST_MS = Date.parse(`${FIRST_DAY}T00:00:00.000Z`);
const LAST_MS = Date.parse(`${LAST_DAY}T00:00:00.000Z`);

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysInMonth = (y: number, m: number) => (m === 2 ? (isLeapYear(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31);

/** YYYY-MM-DD from a year, a month (1–12) and a day, or null when they are not a real day of 0001–9999. */
export function dayOf(y: number, m: number, d: number): string | null {
  // NaN (an invalid Date) fails every comparison, hence the integer check first.
  if (![y, m, d].every(Number.isInteger) || y < 1 || y > 9999 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return null;
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
}

/** UTC midnight of a real calendar day written YYYY-MM-DD, or null for anything else (2024-02-30, 2024-2-9). */
export function parseIsoDay(value: string): Date | null {
  const m = ISO_DAY.exec(value);
  if (!m || !dayOf(Number(m[1]), Number(m[2]), Number(m[3]))) return null;
  // The ISO form, not Date.UTC: Date.UTC reads the years 0–99 as 1900–1999.
  return new Date(`${value}T00:00:00.000Z`);
}

/** True for a real calendar day written YYYY-MM-DD. */
export function isIsoDay(value: unknown): value is string {
  return typeof value === 'string' && parseIsoDay(value) !== null;
}

/** The UTC calendar day of an instant. Throws a RangeError for an invalid date or a year YYYY cannot write. */
export function isoDay(date: Date): string {
  const day = dayOf(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
  if (!day) throw new RangeError(`Not a date of the years 0001–9999: ${String(date)}`);
  return day;
}

/** Today as the UTC calendar day: the day the server, the workers and the database agree on. */
export function isoToday(now: Date = new Date()): string {
  return isoDay(now);
}

/** The calendar day of an instant in this process's time zone: what "today" means to a person at a terminal. */
export function localIsoDay(date: Date = new Date()): string {
  const day = dayOf(date.getFullYear(), date.getMonth() + 1, date.getDate());
  if (!day) throw new RangeError(`Not a date of the years 0001–9999: ${String(date)}`);
  return day;
}

function mustParse(day: string): Date {
  const date = parseIsoDay(day);
  if (!date) throw new RangeError(`Not a day written YYYY-MM-DD: ${JSON.stringify(day)}`);
  return date;
}

function mustBeWhole(n: number, what: string) {
  if (!Number.isInteger(n)) throw new RangeError(`${what} must be a whole number (got ${n}).`);
}

/** `days` calendar days after `day` (before it when negative), within 0001-01-01 … 9999-12-31. */
export function addDays(day: string, days: number): string {
  mustBeWhole(days, 'days');
  const ms = mustParse(day).getTime() + days * DAY_MS;
  if (ms < FIRST_MS) return FIRST_DAY;
  if (ms > LAST_MS) return LAST_DAY;
  return isoDay(new Date(ms));
}

/**
 * `months` months after `day` (before it when negative). The day is clamped to the month's end:
 * one month before 31 March is 29 February, not 2 March.
 */
export function addMonths(day: string, months: number): string {
  mustBeWhole(months, 'months');
  mustParse(day);
  const [y, m, d] = day.split('-').map(Number);
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12 + 1;
  if (year < 1) return FIRST_DAY;
  if (year > 9999) return LAST_DAY;
  return dayOf(year, month, Math.min(d, daysInMonth(year, month)))!;
}

/** Whole days from `from` to `to`: positive when `to` is later. */
export function daysBetween(from: string, to: string): number {
  return Math.round((mustParse(to).getTime() - mustParse(from).getTime()) / DAY_MS);
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** 1–12 for a month's English name or its three-letter abbreviation (and Sept), else null. */
function monthNamed(word: string): number | null {
  const w = word.toLowerCase().replace(/\.$/, '');
  const i = MONTHS.findIndex((full) => full === w || full.slice(0, 3) === w);
  if (i >= 0) return i + 1;
  return w === 'sept' ? 9 : null;
}

/**
 * A day written the ways people and models write one, as YYYY-MM-DD: `2024-11-01`, `2024-11-1`,
 * `2024.11.01`, `2024. 11. 1.`, `2024/11/01`, `20241101`, `Nov 1, 2024`, `November 1st, 2024`,
 * `1 November 2024`, `2024년 11월 1일`, or an ISO timestamp (the day as written, not converted).
 * Null for anything else, a month or a year alone included, and for days that do not exist:
 * a day is never guessed.
 */
export function parseDay(value: string): string | null {
  const s = value.trim();
  if (s.length === 0 || s.length > 40) return null;
  let m: RegExpExecArray | null;
  // Year first, one separator throughout: 2024-11-01, 2024-11-1, 2024.11.01, 2024/11/01.
  if ((m = /^(\d{4})([-./])(\d{1,2})\2(\d{1,2})$/.exec(s))) return dayOf(Number(m[1]), Number(m[3]), Number(m[4]));
  // An ISO timestamp: the calendar day as written, whatever its offset.
  if ((m = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}/.exec(s))) return dayOf(Number(m[1]), Number(m[2]), Number(m[3]));
  // The Korean ways: 2024. 11. 1. and 2024년 11월 1일.
  if ((m = /^(\d{4})\.\s?(\d{1,2})\.\s?(\d{1,2})\.?$/.exec(s))) return dayOf(Number(m[1]), Number(m[2]), Number(m[3]));
  if ((m = /^(\d{4})\s?년\s?(\d{1,2})\s?월\s?(\d{1,2})\s?일$/.exec(s))) return dayOf(Number(m[1]), Number(m[2]), Number(m[3]));
  if ((m = /^(\d{4})(\d{2})(\d{2})$/.exec(s))) return dayOf(Number(m[1]), Number(m[2]), Number(m[3]));
  // Month name first: Nov 1, 2024 / November 1st, 2024 / Nov. 1 2024.
  if ((m = /^([A-Za-z]{3,9}\.?)\s(\d{1,2})(?:st|nd|rd|th)?,?\s(\d{4})$/.exec(s))) {
    const month = monthNamed(m[1]);
    return month ? dayOf(Number(m[3]), month, Number(m[2])) : null;
  }
  // Day first: 1 November 2024 / 1st Nov 2024 / 1 Nov, 2024.
  if ((m = /^(\d{1,2})(?:st|nd|rd|th)?\s([A-Za-z]{3,9}\.?),?\s(\d{4})$/.exec(s))) {
    const month = monthNamed(m[2]);
    return month ? dayOf(Number(m[3]), month, Number(m[1])) : null;
  }
  return null;
}
