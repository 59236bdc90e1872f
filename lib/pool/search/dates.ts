// Providers report dates in every shape: ISO timestamps (Brave page_age), RFC 2822 (Tavily news),
// "Mar 5, 2024" or "3 days ago" (Google via SerpAPI), and Korean forms when searching in Korean
// ("2024. 3. 5.", "3일 전"). We turn them into YYYY-MM-DD, in UTC, because the as-of and recency
// rules compare plain dates; anything we cannot read becomes null rather than a guess.

import { addDays, addMonths, dayOf, isoDay } from '@/lib/util/dates';

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

// Years outside 1900–2200 are misreadings (a page number, a price, "9999 days ago"), not publication dates.
const plausible = (day: string) => {
  const year = Number(day.slice(0, 4));
  return year >= 1900 && year <= 2200 ? day : null;
};

/** YYYY-MM-DD from a provider's numbers, or null when they are not a plausible publication day. */
function ymd(y: number, m: number, d: number): string | null {
  const day = dayOf(y, m, d);
  return day && plausible(day);
}

const UNIT_ALIASES: Record<string, 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year'> = {
  min: 'minute',
  mins: 'minute',
  minute: 'minute',
  minutes: 'minute',
  분: 'minute',
  hr: 'hour',
  hrs: 'hour',
  hour: 'hour',
  hours: 'hour',
  시간: 'hour',
  day: 'day',
  days: 'day',
  일: 'day',
  week: 'week',
  weeks: 'week',
  주: 'week',
  month: 'month',
  months: 'month',
  개월: 'month',
  달: 'month',
  year: 'year',
  years: 'year',
  년: 'year',
};

function relative(amount: number, unit: string, retrievedAt: Date): string | null {
  if (!Number.isSafeInteger(amount)) return null;
  const base = isoDay(retrievedAt);
  // Minutes and hours count back from the instant; the rest from the retrieval day.
  const before = (ms: number) => {
    const at = new Date(retrievedAt.getTime() - ms);
    // Checked before isoDay, which refuses years it cannot write (and NaN fails the check).
    const year = at.getUTCFullYear();
    return year >= 1900 && year <= 2200 ? isoDay(at) : null;
  };
  switch (UNIT_ALIASES[unit.toLowerCase()]) {
    case 'minute':
      return before(amount * 60_000);
    case 'hour':
      return before(amount * 3_600_000);
    case 'day':
      return plausible(addDays(base, -amount));
    case 'week':
      return plausible(addDays(base, -7 * amount));
    case 'month':
      return plausible(addMonths(base, -amount));
    case 'year':
      return plausible(addMonths(base, -12 * amount));
    default:
      return null;
  }
}

/** A provider's date string as YYYY-MM-DD, or null when it is missing or unreadable. */
export function normaliseDate(raw: unknown, retrievedAt: Date): string | null {
  if (typeof raw !== 'string') return null;
  const s = raw.trim();
  if (!s) return null;
  let m: RegExpExecArray | null;

  // ISO date or timestamp: the calendar date as the publisher wrote it.
  if ((m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:$|[T\s])/.exec(s))) return ymd(+m[1], +m[2], +m[3]);

  const lower = s.toLowerCase();
  if (/^(just now|today|오늘|방금)/.test(lower)) return isoDay(retrievedAt);
  if (/^(yesterday|어제)/.test(lower)) return addDays(isoDay(retrievedAt), -1);
  if ((m = /^(\d+|an?|one)\s+([a-z]+)\s+ago\b/.exec(lower))) {
    const amount = /^\d+$/.test(m[1]) ? Number(m[1]) : 1;
    return relative(amount, m[2], retrievedAt);
  }
  if ((m = /^(\d+)\s*(분|시간|일|주|개월|달|년)\s*전/.exec(s))) return relative(Number(m[1]), m[2], retrievedAt);

  // 2024. 3. 5. / 2024.03.05 / 2024/3/5 / 2024년 3월 5일
  if ((m = /^(\d{4})\s*[./년-]\s*(\d{1,2})\s*[./월-]\s*(\d{1,2})/.exec(s))) return ymd(+m[1], +m[2], +m[3]);
  // Mar 5, 2024 / March 5, 2024
  if ((m = /^(?:[a-z]{3,9},?\s+)?([a-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})\b/i.exec(s))) {
    const month = MONTHS[m[1].slice(0, 3).toLowerCase()];
    return month ? ymd(+m[3], month, +m[2]) : null;
  }
  // 5 Mar 2024 / Tue, 05 Mar 2024 10:00:00 GMT (RFC 2822)
  if ((m = /^(?:[a-z]{3,9},?\s+)?(\d{1,2})\s+([a-z]{3,9})\.?,?\s+(\d{4})\b/i.exec(s))) {
    const month = MONTHS[m[2].slice(0, 3).toLowerCase()];
    return month ? ymd(+m[3], month, +m[1]) : null;
  }
  return null;
}
