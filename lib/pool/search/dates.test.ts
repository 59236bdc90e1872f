import { describe, expect, it } from 'vitest';
import { addDays, isIsoDay as isYmd } from '@/lib/util/dates';
import { normaliseDate } from './dates';

const NOW = new Date('2024-06-15T12:00:00Z');

describe('normaliseDate', () => {
  it.each([
    ['2024-03-05', '2024-03-05'],
    ['2024-03-05T23:10:00+09:00', '2024-03-05'],
    ['2024-03-05 08:00:00', '2024-03-05'],
    ['Mar 5, 2024', '2024-03-05'],
    ['March 5, 2024', '2024-03-05'],
    ['Sept 30, 2023', '2023-09-30'],
    ['5 Mar 2024', '2024-03-05'],
    ['Tue, 05 Mar 2024 10:00:00 GMT', '2024-03-05'],
    ['2024. 3. 5.', '2024-03-05'],
    ['2024.03.05', '2024-03-05'],
    ['2024년 3월 5일', '2024-03-05'],
  ])('reads the absolute date %j', (raw, expected) => {
    expect(normaliseDate(raw, NOW)).toBe(expected);
  });

  it.each([
    ['3 days ago', '2024-06-12'],
    ['1 day ago', '2024-06-14'],
    ['an hour ago', '2024-06-15'],
    ['13 hours ago', '2024-06-14'],
    ['2 weeks ago', '2024-06-01'],
    ['1 month ago', '2024-05-15'],
    ['a year ago', '2023-06-15'],
    ['Yesterday', '2024-06-14'],
    ['3일 전', '2024-06-12'],
    ['5시간 전', '2024-06-15'],
    ['2주 전', '2024-06-01'],
    ['1개월 전', '2024-05-15'],
  ])('reads the relative age %j against the retrieval time', (raw, expected) => {
    expect(normaliseDate(raw, NOW)).toBe(expected);
  });

  it('clamps month arithmetic to the end of the month', () => {
    expect(normaliseDate('1 month ago', new Date('2024-03-31T00:00:00Z'))).toBe('2024-02-29');
  });

  it.each([undefined, null, 42, '', 'recently', '2024-02-30', 'Foo 5, 2024', '13/45/2024'])('gives null for %j', (raw) => {
    expect(normaliseDate(raw, NOW)).toBeNull();
  });
});

describe('date helpers', () => {
  it('adds days across months and years', () => {
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2023-12-31', 1)).toBe('2024-01-01');
  });

  it('accepts only real YYYY-MM-DD dates', () => {
    expect(isYmd('2024-02-29')).toBe(true);
    expect(isYmd('2023-02-29')).toBe(false);
    expect(isYmd('2024-2-9')).toBe(false);
  });
});
