import { describe, expect, it } from 'vitest';
import { badDataReason, isDatabaseUnavailable } from '@/lib/db/errors';

describe('isDatabaseUnavailable', () => {
  it('recognises a restart, a refused connection and a cut connection, also when wrapped', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Failed query: update "runs" …', { cause: Object.assign(new Error('x'), { code: '57P03' }) }))).toBe(true);
  });

  it('leaves ordinary errors alone: a broken constraint or a model failure is not an outage', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('The model endpoint answered 500'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

describe('database errors that quote user text', () => {
  it('isDatabaseUnavailable answers at once for a message quoting a 5 MB value', () => {
    const huge = new Error(`duplicate key: ${'connection '.repeat(500_000)}`);
    const start = performance.now();
    expect(isDatabaseUnavailable(Object.assign(huge, { code: '23505' }))).toBe(false);
    expect(performance.now() - start).toBeLessThan(100);
  });

  it('badDataReason names a refused value without quoting it, and nothing else', () => {
    const nul = Object.assign(new Error(`invalid byte sequence for encoding "UTF8": 0x00 ${'x'.repeat(1000)}`), { code: '22021' });
    expect(badDataReason(new Error('Failed query', { cause: nul }))).toMatch(/refused a value as malformed \(SQLSTATE 22021\)/);
    expect(badDataReason(Object.assign(new Error('index row size 5000016 exceeds btree version 4 maximum 2704'), { code: '54000' }))).toMatch(/too long/);
    expect(badDataReason(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBeUndefined();
    expect(badDataReason(new Error('boom'))).toBeUndefined();
  });
});
