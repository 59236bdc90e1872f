import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '@/lib/db/errors';

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
