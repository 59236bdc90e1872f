import { describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION, readRetention, retentionCutoff } from '@/lib/domain/retention';

describe('retention periods', () => {
  it('the cutoff is the same instant so many calendar months before, the day clamped to the shorter month', () => {
    expect(retentionCutoff(new Date('2031-06-15T10:20:30.400Z'), 60).toISOString()).toBe('2026-06-15T10:20:30.400Z');
    expect(retentionCutoff(new Date('2029-03-31T00:00:00.000Z'), 1).toISOString()).toBe('2029-02-28T00:00:00.000Z');
    expect(retentionCutoff(new Date('2028-03-31T00:00:00.000Z'), 1).toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(retentionCutoff(new Date('2030-01-10T00:00:00.000Z'), 13).toISOString()).toBe('2028-12-10T00:00:00.000Z');
  });

  it('a stored setting gives every kind a period, out-of-range and missing ones the five-year default', () => {
    expect(readRetention(null)).toEqual(DEFAULT_RETENTION);
    expect(readRetention({ cases: 84, runs: 0, audit: 1.5, notifications: '12', sessions: 601 })).toEqual({ ...DEFAULT_RETENTION, cases: 84 });
    expect(readRetention([1, 2])).toEqual(DEFAULT_RETENTION);
  });
});
