// Providers report dates in every shape: ISO timestamps (Brave page_age), RFC 2822 (Tavily news),
// "Mar 5, 2024" or "3 days ago" (Google via SerpAPI), and Korean forms when searching in Korean
// ("2024. 3. 5.", "3일 전"). We turn them into YYYY-MM-DD, in UTC, because the as-of and recency
// rules compare plain dates; anything we cannot read becomes null rather than a guess.

const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12,
};

export function toYmd(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function ymd(y: number, m: number, d: number): string | null {
  if (y < 1900 || y > 2200 || m < 1 || m > 12 || d < 1) return null;
  if (d > new Date(Date.UTC(y, m, 0)).getUTCDate()) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** True for a real calendar date written YYYY-MM-DD. */
export function isYmd(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  return Boolean(m && ymd(+m[1], +m[2], +m[3]) === s);
}

export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return toYmd(new Date(Date.UTC(y, m - 1, d + days)));
}

// Month arithmetic clamps to the month's end: one month before 31 March is 29 February, not 2 March.
function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return toYmd(new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, last))));
}

const UNIT_ALIASES: Record<string, 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year'> = {
  min: 'minute', mins: 'minute', minute: 'minute', minutes: 'minute', 분: 'minute',
  hr: 'hour', hrs: 'hour', hour: 'hour', hours: 'hour', 시간: 'hour',
  day: 'day', days: 'day', 일: 'day',
  week: 'week', weeks: 'week', 주: 'week',
  month: 'month', months: 'month', 개월: 'month', 달: 'month',
  year: 'year', years: 'year', 년: 'year',
};

function relative(amount: number, unit: string, retrievedAt: Date): string | null {
  const base = toYmd(retrievedAt);
  switch (UNIT_ALIASES[unit.toLowerCase()]) {
    case 'minute':
      return toYmd(new Date(retrievedAt.getTime() - amount * 60_000));
    case 'hour':
      return toYmd(new Date(retrievedAt.getTime() - amount * 3_600_000));
    case 'day':
      return addDays(base, -amount);
    case 'week':
      return addDays(base, -7 * amount);
    case 'month':
      return addMonths(base, -amount);
    case 'year':
      return addMonths(base, -12 * amount);
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
  if (/^(just now|today|오늘|방금)/.test(lower)) return toYmd(retrievedAt);
  if (/^(yesterday|어제)/.test(lower)) return addDays(toYmd(retrievedAt), -1);
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
