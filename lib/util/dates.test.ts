import { describe, expect, it } from 'vitest';
import { addDays, addMonths, dayOf, daysBetween, isIsoDay, isoDay, isoToday, localIsoDay, parseDay, parseIsoDay } from '@/lib/util/dates';

describe('reading ISO days', () => {
  it('accepts only real calendar days written YYYY-MM-DD, years 0001–9999', () => {
    for (const day of ['2024-02-29', '2000-02-29', '0001-01-01', '0050-12-31', '9999-12-31']) expect(isIsoDay(day), day).toBe(true);
    for (const bad of [
      '2023-02-29',
      '1900-02-29',
      '2024-02-30',
      '2024-04-31',
      '2024-13-01',
      '2024-00-10',
      '0000-01-01',
      '2024-2-9',
      '2024-02-09T00:00:00Z',
      ' 2024-02-09',
      '30/06/2024',
      '',
      20240209,
      null,
      undefined,
    ]) {
      expect(isIsoDay(bad), String(bad)).toBe(false);
    }
  });

  it('builds a day from numbers, only when it exists', () => {
    expect(dayOf(2024, 2, 29)).toBe('2024-02-29');
    expect(dayOf(50, 1, 1)).toBe('0050-01-01');
    for (const [y, m, d] of [
      [2023, 2, 29],
      [2024, 4, 31],
      [0, 1, 1],
      [10_000, 1, 1],
      [2024, 1.5, 1],
      [2024, Number.NaN, 1],
    ])
      expect(dayOf(y, m, d), `${y}-${m}-${d}`).toBeNull();
  });

  it('parses a day as UTC midnight, also for the years 0–99 that Date.UTC misreads', () => {
    expect(parseIsoDay('2024-03-05')?.toISOString()).toBe('2024-03-05T00:00:00.000Z');
    expect(parseIsoDay('0050-01-01')?.toISOString()).toBe('0050-01-01T00:00:00.000Z');
    expect(parseIsoDay('2024-02-30')).toBeNull();
  });
});

describe('writing ISO days', () => {
  it('takes the UTC day of an instant', () => {
    expect(isoDay(new Date('2024-03-05T23:59:59.999Z'))).toBe('2024-03-05');
    expect(isoDay(new Date('2024-03-05T23:10:00-09:00'))).toBe('2024-03-06');
    expect(isoToday(new Date('2025-01-01T00:00:00Z'))).toBe('2025-01-01');
    expect(isoDay(new Date('0050-06-01T00:00:00Z'))).toBe('0050-06-01');
  });

  it('refuses an invalid date rather than writing NaN', () => {
    expect(() => isoDay(new Date('nope'))).toThrow(RangeError);
  });

  it('takes the local day when asked', () => {
    const date = new Date(2024, 2, 5, 23, 30);
    expect(localIsoDay(date)).toBe('2024-03-05');
  });
});

describe('day arithmetic', () => {
  it('adds days across months, years and leap days', () => {
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2023-03-01', -1)).toBe('2023-02-28');
    expect(addDays('2023-12-31', 1)).toBe('2024-01-01');
    expect(addDays('2024-06-30', -365)).toBe('2023-07-01');
    expect(addDays('2024-01-01', 0)).toBe('2024-01-01');
    expect(addDays('0050-01-01', -365)).toBe('0049-01-01');
  });

  it('stops at the ends of the years YYYY can write', () => {
    expect(addDays('0001-01-05', -10)).toBe('0001-01-01');
    expect(addDays('9999-12-30', 5)).toBe('9999-12-31');
    expect(addMonths('0001-02-01', -2)).toBe('0001-01-01');
    expect(addMonths('9999-11-30', 3)).toBe('9999-12-31');
  });

  it('adds months, clamping to the end of the month', () => {
    expect(addMonths('2024-03-31', -1)).toBe('2024-02-29');
    expect(addMonths('2024-06-15', -12)).toBe('2023-06-15');
    expect(addMonths('2023-11-30', 3)).toBe('2024-02-29');
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
  });

  it('counts the days between two days', () => {
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysBetween('2024-03-01', '2024-02-28')).toBe(-2);
    expect(daysBetween('2015-01-01', '2025-12-31')).toBe(4017);
  });

  it('refuses days that are not ISO days and fractional counts', () => {
    expect(() => addDays('2024-02-30', 1)).toThrow(RangeError);
    expect(() => addDays('2024-02-01', 0.5)).toThrow(RangeError);
    expect(() => addMonths('31/03/2024', 1)).toThrow(RangeError);
  });
});

describe('reading a day written another way', () => {
  it('reads the ways people and models write 1 November 2024', () => {
    for (const written of [
      '2024-11-01',
      '2024-11-1',
      '2024.11.01',
      '2024/11/01',
      '20241101',
      'Nov 1, 2024',
      'Nov. 1, 2024',
      'November 1st, 2024',
      'nov 1 2024',
      '1 November 2024',
      '1st Nov 2024',
      '2024년 11월 1일',
      '2024년11월1일',
      '2024. 11. 1.',
      '2024-11-01T23:30:00-09:00',
      '  2024.11.01 ',
    ]) {
      expect(parseDay(written), written).toBe('2024-11-01');
    }
    expect(parseDay('Sept 30, 2024')).toBe('2024-09-30');
    expect(parseDay('2024/2/9')).toBe('2024-02-09');
  });

  it('never guesses: a month, a year, a mixed separator, a day that does not exist or a word that is not a month stays unread', () => {
    for (const bad of [
      '',
      'Q3 2024',
      'November 2024',
      '2024-11',
      '2024',
      '2024-11/01',
      '2024-02-30',
      '20241301',
      'Novembre 1, 2024',
      'Nov 31, 2024',
      '11/01/2024',
      '01.11.2024',
      'yesterday',
      '2024-11-01 and 2024-11-02',
    ]) {
      expect(parseDay(bad), bad).toBeNull();
    }
  });
});
