import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import type { PurgeResult } from '@/lib/db/queries/retention';
import { parseInstant, purgeLines } from './purge';

const kind = (count: number) => ({ months: 60, cutoff: '2026-06-01T00:00:00.000Z', count, batches: count ? 1 : 0 });
const result = (dryRun: boolean): PurgeResult => ({
  now: '2031-06-01T00:00:00.000Z',
  dryRun,
  kinds: { cases: kind(3), runs: kind(0), watch: kind(4), notifications: kind(12), sessions: kind(0), audit: kind(250) },
});

describe('purge command', () => {
  it('takes an ISO day or instant for --now and refuses anything else', () => {
    expect(parseInstant('2031-06-01').toISOString()).toBe('2031-06-01T00:00:00.000Z');
    expect(parseInstant('2031-06-01T09:30:00+09:00').toISOString()).toBe('2031-06-01T00:30:00.000Z');
    for (const bad of ['next year', '2031-13-01', '06/01/2031', '']) expect(() => parseInstant(bad), bad).toThrow(InvalidArgumentError);
  });

  it('prints each kind with its count, period and cutoff, saying whether it deleted or only counted', () => {
    const lines = purgeLines(result(true), false);
    expect(lines[0]).toBe('Retention purge at 2031-06-01T00:00:00.000Z (dry run: nothing deleted)');
    expect(lines[1]).toBe('  cases                3 expired   (60 months, before 2026-06-01T00:00:00.000Z)');
    expect(lines[3]).toContain('watch                4 expired');
    expect(lines[6]).toContain('audit              250 expired');
    expect(purgeLines(result(false), false)[4]).toContain('notifications       12 deleted');
    expect(JSON.parse(purgeLines(result(false), true)[0])).toEqual(result(false));
  });
});
